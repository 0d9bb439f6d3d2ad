import { Injectable } from '@nestjs/common';
import type { AdminIdentity } from '../auth/api-keys';
import { dependencyError } from '../clients/dependency-errors';
import { VacancySyncClient } from '../clients/vacancy-sync.client';
import { RegistryErrorCode, RegistryException } from '../common/registry.exception';
import { ConnectorsService } from './connectors.service';
import { type EventFeedView, toEventFeedView } from './event-feed.view';

const SERVICE = 'vacancy-sync';

/** Whether a connector is on its ATS's events or polling: vacancy-sync reads the feed, so it is asked. */
@Injectable()
export class EventFeedService {
  constructor(
    private readonly connectors: ConnectorsService,
    private readonly vacancySync: VacancySyncClient,
  ) {}

  async get(admin: AdminIdentity, id: string): Promise<EventFeedView> {
    await this.connectors.findOwned(admin, id);
    let reply: unknown;
    try {
      reply = await this.vacancySync.eventFeed(admin.accountId, id);
    } catch (error) {
      throw dependencyError(error, SERVICE);
    }
    const view = toEventFeedView(id, reply);
    if (!view) {
      throw new RegistryException(
        RegistryErrorCode.DependencyUnavailable,
        `${SERVICE} answered with no event feed status it knows; try again in a moment`,
        { service: SERVICE },
      );
    }
    return view;
  }
}
