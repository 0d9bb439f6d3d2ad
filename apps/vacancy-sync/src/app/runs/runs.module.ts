import { ConnectorChangedHandler } from './connector-changed.handler';
import { ConnectorStatusChangedHandler } from './connector-status-changed.handler';
import { Module } from '@nestjs/common';
import { ConnectorDeletions } from '@connector/service-kit';
import { EventsModule } from '../events/events.module';
import { SourcesModule } from '../sources/sources.module';
import { VacancyStateRepository } from '../vacancies/vacancy-state.repository';
import { RunDriver } from './run-driver.service';
import { RunRequestedHandler } from './run-requested.handler';
import { RunScheduler } from './run-scheduler.service';
import { SyncRunRepository } from './sync-run.repository';
import { SyncRunService } from './sync-run.service';

@Module({
  imports: [SourcesModule, EventsModule],
  controllers: [RunRequestedHandler, ConnectorStatusChangedHandler, ConnectorChangedHandler],
  providers: [
    VacancyStateRepository,
    SyncRunRepository,
    SyncRunService,
    RunDriver,
    RunScheduler,
    ConnectorDeletions,
  ],
})
export class RunsModule {}
