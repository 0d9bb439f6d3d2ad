import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import {
  type EventEnvelope,
  type RunCompletedDto,
  type RunProgressDto,
  RoutingKey,
} from '@connector/contracts';
import { InboxService } from '@connector/service-kit';
import { RunsService } from './runs.service';

/** Progress and completion of runs, from vacancy-sync. Both are idempotent and order-proof (run-state.ts). */
@Controller()
export class RunMessagesController {
  constructor(
    private readonly runs: RunsService,
    private readonly inbox: InboxService,
  ) {}

  @EventPattern(RoutingKey.RunProgress)
  async onProgress(@Payload() event: EventEnvelope<string, RunProgressDto>): Promise<void> {
    await this.inbox.receive(event);
    await this.runs.onProgress(event);
  }

  @EventPattern(RoutingKey.RunCompleted)
  async onCompleted(@Payload() event: EventEnvelope<string, RunCompletedDto>): Promise<void> {
    await this.inbox.receive(event);
    await this.runs.onCompleted(event);
  }
}
