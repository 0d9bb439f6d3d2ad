import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { type ErasurePartCompletedDto, type EventEnvelope, Header, RoutingKey } from '@connector/contracts';
import { type BrokerUsers, PermanentMessageError, RabbitMqContext } from '@connector/messaging';
import { brokerUsersOf } from '@connector/service-kit';
import { ConnectorRegistryConfig } from '../connector-registry.config';
import { ErasureCoordinator } from './erasure-coordinator.service';

/** `erasure.part_completed`: a worker erased its part of a candidate's data. */
@Controller()
export class ErasurePartCompletedHandler {
  private readonly users: BrokerUsers;

  constructor(
    private readonly coordinator: ErasureCoordinator,
    @Inject(ConnectorRegistryConfig) config: ConnectorRegistryConfig,
  ) {
    this.users = brokerUsersOf(config);
  }

  @EventPattern(RoutingKey.ErasurePartCompleted)
  async handle(
    @Payload() event: EventEnvelope<typeof RoutingKey.ErasurePartCompleted, ErasurePartCompletedDto>,
    @Ctx() context: RabbitMqContext,
  ) {
    const { candidateId, part, removed } = event.data;
    // Each worker reports its own part only: the publisher check put its verified broker user here.
    const sender: unknown = context.getMessage().properties.headers?.[Header.PublishedBy];
    if (sender !== this.users.of(part)) {
      throw new PermanentMessageError(
        `refused erasure.part_completed for part ${part} from broker user "${String(sender)}": only ${part} reports it`,
      );
    }
    await this.coordinator.partCompleted(event, candidateId, part, removed);
  }
}
