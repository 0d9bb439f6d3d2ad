import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  type EventEnvelope,
  RoutingKey,
  type VacancyEventFeedRequestedDto,
  type VacancyEventFeedStatus,
} from '@connector/contracts';
import { EventFeedService } from './event-feed.service';

/** `vacancy.event-feed.requested` (request-reply from connector-registry's admin page): events, polling or off. */
@Controller()
export class VacancyEventFeedHandler {
  constructor(private readonly feeds: EventFeedService) {}

  @MessagePattern(RoutingKey.VacancyEventFeedRequested)
  handle(
    @Payload() request: EventEnvelope<string, VacancyEventFeedRequestedDto>,
  ): Promise<VacancyEventFeedStatus> {
    return this.feeds.status(request.accountId, request.data.connectorId);
  }
}
