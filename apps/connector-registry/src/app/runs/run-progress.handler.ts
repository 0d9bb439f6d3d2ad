import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type EventEnvelope, type RunProgressDto, RoutingKey } from '@connector/contracts';
import { RunsService } from './runs.service';

/** `run.progress` from vacancy-sync: idempotent and order-proof (run-state.ts). */
@Controller()
export class RunProgressHandler {
  constructor(private readonly runs: RunsService) {}

  @EventPattern(RoutingKey.RunProgress)
  async handle(@Payload() event: EventEnvelope<string, RunProgressDto>): Promise<void> {
    await this.runs.onProgress(event);
  }
}
