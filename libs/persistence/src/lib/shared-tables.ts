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
import { ErasedCandidateOwnerMigration1764000003001 } from './erased-candidate-owner.migration';
import { DeletedConnectorOwnerMigration1764000003002 } from './deleted-connector-owner.migration';
import { KeyedLeaseTokenOwnedMigration1764000003003 } from './keyed-lease-token-owned.migration';
import type { SharedSchema } from './shared-schema';

/**
 * `keyed_lease`, for services that use KeyedLeases (recorded in `migrations_persistence`); a service's leases
 * are those of its namespace, its name.
 */
export const KEYED_LEASE_SCHEMA: SharedSchema = {
  owner: 'persistence',
  entities: [KeyedLeaseEntity],
  migrations: [
    KeyedLeaseMigration1763700000002,
    KeyedLeaseTokenMigration1763900000500,
    KeyedLeaseTokenOwnedMigration1764000003003,
  ],
  ownRows: [{ table: 'keyed_lease', column: 'namespace', holds: 'service' }],
};

/** `erased_candidate`, the erased candidates' tombstones, for services that hold candidate data. */
export const ERASED_CANDIDATE_SCHEMA: SharedSchema = {
  owner: 'persistence',
  entities: [ErasedCandidateEntity],
  migrations: [ErasedCandidateMigration1763900000504, ErasedCandidateOwnerMigration1764000003001],
  ownRows: [{ table: 'erased_candidate', column: 'owner_role', holds: 'role' }],
};

/** `deleted_connector`, connectors deleted as workers learn it, for their retention rules. */
export const DELETED_CONNECTOR_SCHEMA: SharedSchema = {
  owner: 'persistence',
  entities: [DeletedConnectorEntity],
  migrations: [DeletedConnectorMigration1763900000507, DeletedConnectorOwnerMigration1764000003002],
  ownRows: [{ table: 'deleted_connector', column: 'owner_role', holds: 'role' }],
};

/** `outbox_message`, for services that publish through OutboxRelay (recorded in `migrations_persistence`). */
export const OUTBOX_SCHEMA: SharedSchema = {
  owner: 'persistence',
  entities: [OutboxMessageEntity],
  migrations: [OutboxMessageMigration1763900000400, OutboxParkedMigration1763900000610],
  ownRows: [{ table: 'outbox_message', column: 'publisher', holds: 'service' }],
};
