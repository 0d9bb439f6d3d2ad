import { ATS_ACCESS_SCHEMAS } from '@connector/ats-client-factory';
import {
  DELETED_CONNECTOR_SCHEMA,
  ERASED_CANDIDATE_SCHEMA,
  KEYED_LEASE_SCHEMA,
} from '@connector/persistence';
import type { ServiceCoreOptions } from '@connector/service-kit';
import { ApplicationLinkEntity } from './applications/application-link.entity';
import { CandidateLinkEntity } from './candidates/candidate-link.entity';
import { CandidateSyncTables1763700000300 } from './migrations/1763700000300-candidate-sync-tables';
import { LinkFence1763900000501 } from './migrations/1763900000501-link-fence';
import { KeyedHashes1763900000503 } from './migrations/1763900000503-keyed-hashes';
import { CandidateLinkByCandidate1763900000720 } from './migrations/1763900000720-candidate-link-by-candidate';

/** candidate-sync's tables (entities and the migrations that build them) and the libs' tables it uses. */
export const CANDIDATE_SYNC_SCHEMA = {
  entities: [CandidateLinkEntity, ApplicationLinkEntity],
  migrations: [
    CandidateSyncTables1763700000300,
    LinkFence1763900000501,
    KeyedHashes1763900000503,
    CandidateLinkByCandidate1763900000720,
  ],
  shared: [...ATS_ACCESS_SCHEMAS, KEYED_LEASE_SCHEMA, ERASED_CANDIDATE_SCHEMA, DELETED_CONNECTOR_SCHEMA],
} satisfies Pick<ServiceCoreOptions, 'entities' | 'migrations' | 'shared'>;
