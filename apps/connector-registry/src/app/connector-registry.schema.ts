import { ERASED_CANDIDATE_SCHEMA, OUTBOX_SCHEMA } from '@connector/persistence';
import { DAILY_QUOTA_SCHEMA } from '@connector/rate-limiter';
import type { ServiceCoreOptions } from '@connector/service-kit';
import { ConnectorActivityEntity, ConnectorActivityEventEntity } from './activity/connector-activity.entity';
import { ConnectorEntity } from './connectors/connector.entity';
import { CandidateErasureEntity } from './erasure/candidate-erasure.entity';
import { DeadLetterEntity } from './failures/dead-letter.entity';
import { JobMappingEntity } from './mapping/job-mapping.entity';
import { RegistrySchema1763800000001 } from './migrations/1763800000001-registry-schema';
import { DeadLetters1763800000002 } from './migrations/1763800000002-dead-letters';
import { RunWaitingUntil1763800000003 } from './migrations/1763800000003-run-waiting-until';
import { ConnectorVersion1763800000010 } from './migrations/1763800000010-connector-version';
import { RunWarnings1763800000011 } from './migrations/1763800000011-run-warnings';
import { DropInboxMessage1763900000100 } from './migrations/1763900000100-drop-inbox-message';
import { DeadLetterPublishedBy1763900000300 } from './migrations/1763900000300-dead-letter-published-by';
import { DeadLetterCandidate1763900000505 } from './migrations/1763900000505-dead-letter-candidate';
import { CandidateErasure1763900000506 } from './migrations/1763900000506-candidate-erasure';
import { ConnectorActivity1763900000600 } from './migrations/1763900000600-connector-activity';
import { ConnectorDeleted1763900000710 } from './migrations/1763900000710-connector-deleted';
import { ActivityOfDeletedRuns1763900000711 } from './migrations/1763900000711-activity-of-deleted-runs';
import { RunNextRunAt1763900000720 } from './migrations/1763900000720-run-next-run-at';
import { NoDeadLettersOfRequests1763900002601 } from './migrations/1763900002601-no-dead-letters-of-requests';
import { AdminKeyFailure1763900002602 } from './migrations/1763900002602-admin-key-failure';
import { ConnectorTypeByRegistry1763900002700 } from './migrations/1763900002700-connector-type-by-registry';
import { RunWaitingFor1763900003300 } from './migrations/1763900003300-run-waiting-for';
import { RunEntity } from './runs/run.entity';

/**
 * connector-registry's tables (entities and the migrations that build them) and the libs' tables it uses
 * (the daily quotas, which the admin API shows and whose limit it sets; the outbox, through which a
 * deletion is announced).
 */
export const CONNECTOR_REGISTRY_SCHEMA = {
  entities: [
    ConnectorEntity,
    JobMappingEntity,
    RunEntity,
    DeadLetterEntity,
    ConnectorActivityEntity,
    ConnectorActivityEventEntity,
    CandidateErasureEntity,
  ],
  migrations: [
    RegistrySchema1763800000001,
    DeadLetters1763800000002,
    RunWaitingUntil1763800000003,
    ConnectorVersion1763800000010,
    RunWarnings1763800000011,
    DropInboxMessage1763900000100,
    DeadLetterPublishedBy1763900000300,
    DeadLetterCandidate1763900000505,
    CandidateErasure1763900000506,
    ConnectorActivity1763900000600,
    ConnectorDeleted1763900000710,
    ActivityOfDeletedRuns1763900000711,
    RunNextRunAt1763900000720,
    NoDeadLettersOfRequests1763900002601,
    AdminKeyFailure1763900002602,
    ConnectorTypeByRegistry1763900002700,
    RunWaitingFor1763900003300,
  ],
  shared: [DAILY_QUOTA_SCHEMA, OUTBOX_SCHEMA, ERASED_CANDIDATE_SCHEMA],
  // Wrong admin keys per client, counted in one statement (admin-key-failures.sql.ts).
  tables: ['admin_key_failure'],
} satisfies Pick<ServiceCoreOptions, 'entities' | 'migrations' | 'shared' | 'tables'>;
