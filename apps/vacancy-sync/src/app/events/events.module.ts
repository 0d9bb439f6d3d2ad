import { Module } from '@nestjs/common';
import { AtsClientFactory } from '@connector/ats-client-factory';
import { AtsRegistry } from '@connector/ats-core';
import { VacancyStateRepository } from '../vacancies/vacancy-state.repository';
import { EventFeedPoller } from './event-feed-poller.service';
import { EventFeedService } from './event-feed.service';
import { VacancyEventFeedHandler } from './vacancy-event-feed.handler';
import { VacancyEventFeedRepository } from './vacancy-event-feed.repository';
import { VacancyEventSources } from './vacancy-event-sources';

/** The connectors' event feeds beside the scheduled runs (ATS-B's subscriptions). */
@Module({
  controllers: [VacancyEventFeedHandler],
  providers: [
    {
      // The registered adapters' event sources (`vacancyEventSource`), built with this process's clients.
      provide: VacancyEventSources,
      inject: [AtsRegistry, AtsClientFactory],
      useFactory: (registry: AtsRegistry, clients: AtsClientFactory) =>
        VacancyEventSources.of(registry, {
          client: (connector, options) => clients.for(connector, options),
        }),
    },
    VacancyStateRepository,
    VacancyEventFeedRepository,
    EventFeedService,
    EventFeedPoller,
  ],
  exports: [EventFeedService],
})
export class EventsModule {}
