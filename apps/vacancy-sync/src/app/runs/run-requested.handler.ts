import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type EventEnvelope, RoutingKey, type RunRequestedDto } from '@connector/contracts';
import { RunDriver } from './run-driver.service';
import { SyncRunRepository } from './sync-run.repository';

/**
 * `run.requested` ("Run"): records the run (idempotent on runId, so a redelivery changes nothing), then lets
 * the driver start it. The message is acknowledged once the run is recorded, not when it ends.
 */
@Controller()
export class RunRequestedHandler {
  constructor(
    private readonly runs: SyncRunRepository,
    private readonly driver: RunDriver,
  ) {}

  @EventPattern(RoutingKey.RunRequested)
  async handle(@Payload() event: EventEnvelope<string, RunRequestedDto>): Promise<void> {
    const { connectorId, runId, mode } = event.data;
    await this.runs.registerConnector(connectorId, event.accountId);
    await this.runs.enqueue({
      runId,
      connectorId,
      accountId: event.accountId,
      trigger: 'requested',
      ...(mode ? { requestedMode: mode } : {}),
      correlationId: event.correlationId ?? event.id,
    });
    this.driver.kick(connectorId);
  }
}
