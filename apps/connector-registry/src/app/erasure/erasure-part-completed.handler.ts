import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type ErasurePartCompletedDto, type EventEnvelope, RoutingKey } from '@connector/contracts';
import { ErasureCoordinator } from './erasure-coordinator.service';

/** `erasure.part_completed`: a worker erased its part of a candidate's data. */
@Controller()
export class ErasurePartCompletedHandler {
  constructor(private readonly coordinator: ErasureCoordinator) {}

  @EventPattern(RoutingKey.ErasurePartCompleted)
  async handle(
    @Payload() event: EventEnvelope<typeof RoutingKey.ErasurePartCompleted, ErasurePartCompletedDto>,
  ) {
    const { candidateId, part, removed } = event.data;
    await this.coordinator.partCompleted(event, candidateId, part, removed);
  }
}
