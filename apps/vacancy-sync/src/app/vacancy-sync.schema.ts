import { ATS_ACCESS_SCHEMAS } from '@connector/ats-client-factory';
import { DELETED_CONNECTOR_SCHEMA } from '@connector/persistence';
import type { ServiceCoreOptions } from '@connector/service-kit';
import { VacancySyncTables1763700000300 } from './migrations/1763700000300-vacancy-sync-tables';
import { SyncRunWarnings1763700000301 } from './migrations/1763700000301-sync-run-warnings';
import { VacancyLiveUntil1763700000302 } from './migrations/1763700000302-vacancy-live-until';
import { SyncConnectorStatusAt1763700000303 } from './migrations/1763700000303-sync-connector-status-at';
import { SyncSchedule1763700000310 } from './migrations/1763700000310-sync-schedule';
import { SyncRunHistory1763700000320 } from './migrations/1763700000320-sync-run-history';
import { VacancyEventFeed1763700000330 } from './migrations/1763700000330-vacancy-event-feed';
import { SyncConnectorOptionsVersion1764000005001 } from './migrations/1764000005001-sync-connector-options-version';
import { VacancyEventFeedAccount1764000005002 } from './migrations/1764000005002-vacancy-event-feed-account';
import { VacancyEventFeedEntity } from './events/vacancy-event-feed.entity';
import { SyncConnectorEntity } from './runs/sync-connector.entity';
import { SyncRunEntity } from './runs/sync-run.entity';
import { VacancyStateEntity } from './vacancies/vacancy-state.entity';

/** vacancy-sync's tables (entities and the migrations that build them) and the libs' tables it uses. */
export const VACANCY_SYNC_SCHEMA = {
  entities: [VacancyStateEntity, SyncConnectorEntity, SyncRunEntity, VacancyEventFeedEntity],
  migrations: [
    VacancySyncTables1763700000300,
    SyncRunWarnings1763700000301,
    VacancyLiveUntil1763700000302,
    SyncConnectorStatusAt1763700000303,
    SyncSchedule1763700000310,
    SyncRunHistory1763700000320,
    VacancyEventFeed1763700000330,
    SyncConnectorOptionsVersion1764000005001,
    VacancyEventFeedAccount1764000005002,
  ],
  shared: [...ATS_ACCESS_SCHEMAS, DELETED_CONNECTOR_SCHEMA],
} satisfies Pick<ServiceCoreOptions, 'entities' | 'migrations' | 'shared'>;
