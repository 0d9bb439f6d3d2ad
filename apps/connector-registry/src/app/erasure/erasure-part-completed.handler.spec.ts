import type { ConsumeMessage } from 'amqplib';
import { createEvent, Header, RoutingKey } from '@connector/contracts';
import { PermanentMessageError, RabbitMqContext } from '@connector/messaging';
import type { ConnectorRegistryConfig } from '../connector-registry.config';
import type { ErasureCoordinator } from './erasure-coordinator.service';
import { ErasurePartCompletedHandler } from './erasure-part-completed.handler';

describe(ErasurePartCompletedHandler.name, () => {
  const config = {
    RABBITMQ_URL: 'amqps://cr:x@mq.internal',
    RABBITMQ_USERS:
      'connector-registry:cr,auth-gateway:ag,vacancy-sync:vs,candidate-sync:cs,document-service:ds',
  } as ConnectorRegistryConfig;
  const counted: string[] = [];
  const sut = new ErasurePartCompletedHandler(
    {
      partCompleted: async (_e: unknown, _c: string, part: string) => void counted.push(part),
    } as never as ErasureCoordinator,
    config,
  );
  const report = (part: 'candidate-sync' | 'document-service' | 'connector-registry', sender: string) => {
    const event = createEvent(RoutingKey.ErasurePartCompleted, 'acct', {
      candidateId: 'cand-1',
      part,
      removed: {},
    });
    const message = {
      properties: { headers: { [Header.PublishedBy]: sender } },
    } as unknown as ConsumeMessage;
    return sut.handle(event as never, new RabbitMqContext([message, 1]));
  };

  beforeEach(() => (counted.length = 0));

  it("counts a worker's report of its own part", async () => {
    await report('document-service', 'ds');
    expect(counted).toEqual(['document-service']);
  });

  it("refuses a worker's report of another's part, for good (dead-lettered with the reason)", async () => {
    await expect(report('document-service', 'cs')).rejects.toThrow(PermanentMessageError);
    await expect(report('connector-registry', 'cs')).rejects.toThrow(
      'refused erasure.part_completed for part connector-registry from broker user "cs": only connector-registry reports it',
    );
    expect(counted).toEqual([]);
  });
});
