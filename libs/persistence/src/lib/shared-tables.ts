import { KeyedLeaseEntity } from './keyed-lease.entity';
import { KeyedLeaseMigration1763700000002 } from './keyed-lease.migration';
import { OutboxMessageEntity } from './outbox-message.entity';
import { OutboxMessageMigration1763900000400 } from './outbox-message.migration';
import { OutboxParkedMigration1763900000610 } from './outbox-parked.migration';
import { KeyedLeaseTokenMigration1763900000500 } from './keyed-lease-token.migration';
import { DeletedConnectorEntity } from './deleted-connector.entity';
import { DeletedConnectorMigration1763900000507 } from './deleted-connector.migration';
import { ErasedCandidateEntity } from './erased-candidate.entity';
import { ErasedCandidateMigration1763900000504 } from './erased-candidate.migration';
import type { SharedSchema } from './shared-schema';

/** `keyed_lease`, for services that use KeyedLeases (recorded in `migrations_persistence`). */
export const KEYED_LEASE_SCHEMA: SharedSchema = {
  owner: 'persistence',
  entities: [KeyedLeaseEntity],
  migrations: [KeyedLeaseMigration1763700000002, KeyedLeaseTokenMigration1763900000500],
};

/** `erased_candidate`, the erased candidates' tombstones, for services that hold candidate data. */
export const ERASED_CANDIDATE_SCHEMA: SharedSchema = {
  owner: 'persistence',
  entities: [ErasedCandidateEntity],
  migrations: [ErasedCandidateMigration1763900000504],
};

/** `deleted_connector`, connectors deleted as workers learn it, for their retention rules. */
export const DELETED_CONNECTOR_SCHEMA: SharedSchema = {
  owner: 'persistence',
  entities: [DeletedConnectorEntity],
  migrations: [DeletedConnectorMigration1763900000507],
};

/** `outbox_message`, for services that publish through OutboxRelay (recorded in `migrations_persistence`). */
export const OUTBOX_SCHEMA: SharedSchema = {
  owner: 'persistence',
  entities: [OutboxMessageEntity],
  migrations: [OutboxMessageMigration1763900000400, OutboxParkedMigration1763900000610],
};
