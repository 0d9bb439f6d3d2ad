import { Module } from '@nestjs/common';
import { VacancyStateRepository } from '../vacancies/vacancy-state.repository';
import { AtsBVacancyEventSource } from './ats-b-vacancy-events.source';
import { EventFeedPoller } from './event-feed-poller.service';
import { EventFeedService } from './event-feed.service';
import { VacancyEventFeedHandler } from './vacancy-event-feed.handler';
import { VacancyEventFeedRepository } from './vacancy-event-feed.repository';
import { type VacancyEventSource, VacancyEventSources } from './vacancy-event-source';

/** One event source per ATS that declares `vacancy-events`: the service's part of each adapter. */
export const VACANCY_EVENT_SOURCES = [AtsBVacancyEventSource];

/** The connectors' event feeds beside the scheduled runs (ATS-B's subscriptions). */
@Module({
  controllers: [VacancyEventFeedHandler],
  providers: [
    ...VACANCY_EVENT_SOURCES,
    {
      provide: VacancyEventSources,
      inject: VACANCY_EVENT_SOURCES,
      useFactory: (...sources: VacancyEventSource[]) => new VacancyEventSources(...sources),
    },
    VacancyStateRepository,
    VacancyEventFeedRepository,
    EventFeedService,
    EventFeedPoller,
  ],
  exports: [EventFeedService],
})
export class EventsModule {}
