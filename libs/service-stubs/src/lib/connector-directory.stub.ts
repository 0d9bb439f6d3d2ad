import { randomUUID } from 'node:crypto';
import { Controller, Inject, type INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { type ConnectorSnapshot, type EventEnvelope, Exchange, RoutingKey } from '@connector/contracts';
import {
  deadLetterQueueName,
  MessagingModule,
  retryQueueName,
  startRabbitMqConsumer,
} from '@connector/messaging';
import { rabbitUrl, TestBroker } from '@connector/testing';

/**
 * A stand-in for connector-registry's two worker requests (connector lookup, connectors of an account),
 * answered from `connectors`, for tests and benchmarks of one worker service without the registry.
 */
export interface ConnectorDirectoryStub {
  connectors: Map<string, ConnectorSnapshot>;
  close(): Promise<void>;
}

const CONNECTORS = Symbol('CONNECTORS');
const RETRY_MS = 1_000;

class CodedError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

@Controller()
class ConnectorDirectoryResponder {
  constructor(@Inject(CONNECTORS) private readonly connectors: Map<string, ConnectorSnapshot>) {}

  @MessagePattern(RoutingKey.ConnectorLookup)
  lookup(@Payload() request: EventEnvelope<string, { connectorId: string }>): ConnectorSnapshot {
    const connector = this.connectors.get(request.data.connectorId);
    // The code travels back in the RPC reply, as the registry's NOT_FOUND does.
    if (!connector) throw new CodedError('NOT_FOUND', `connector ${request.data.connectorId} not found`);
    return connector;
  }

  @MessagePattern(RoutingKey.ConnectorsByAccount)
  byAccount(@Payload() request: EventEnvelope<string, { accountId: string }>): ConnectorSnapshot[] {
    return [...this.connectors.values()].filter((c) => c.accountId === request.data.accountId);
  }
}

/** Starts the stand-in on a queue of its own, bound to the two request types on `connector.internal`. */
export async function startConnectorDirectoryStub(
  connectors = new Map<string, ConnectorSnapshot>(),
): Promise<ConnectorDirectoryStub> {
  const queue = `stub-connector-directory-${randomUUID().slice(0, 8)}`;
  @Module({
    imports: [
      MessagingModule.forRootAsync({
        useFactory: () => ({
          url: rabbitUrl(),
          serviceName: 'connector-directory-stub',
          consumer: {
            queue,
            bindings: [
              {
                exchange: Exchange.Internal,
                routingKeys: [RoutingKey.ConnectorLookup, RoutingKey.ConnectorsByAccount],
              },
            ],
            retryDelaysMs: [RETRY_MS],
          },
        }),
      }),
    ],
    controllers: [ConnectorDirectoryResponder],
    providers: [{ provide: CONNECTORS, useValue: connectors }],
  })
  class ConnectorDirectoryStubModule {}

  const app: INestApplication = await NestFactory.create(ConnectorDirectoryStubModule, { logger: ['error'] });
  await startRabbitMqConsumer(app);
  return {
    connectors,
    async close() {
      await app.close();
      const broker = await TestBroker.connect();
      await broker.deleteQueuesIfPresent([
        queue,
        deadLetterQueueName(queue),
        retryQueueName(queue, RETRY_MS),
      ]);
      await broker.close();
    },
  };
}
