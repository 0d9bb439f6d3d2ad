import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type EventEnvelope, type RunCompletedDto, RoutingKey } from '@connector/contracts';
import { RunsService } from './runs.service';

/** `run.completed` from vacancy-sync: idempotent and order-proof (run-state.ts). */
@Controller()
export class RunCompletedHandler {
  constructor(private readonly runs: RunsService) {}

  @EventPattern(RoutingKey.RunCompleted)
  async handle(@Payload() event: EventEnvelope<string, RunCompletedDto>): Promise<void> {
    await this.runs.onCompleted(event);
  }
}
