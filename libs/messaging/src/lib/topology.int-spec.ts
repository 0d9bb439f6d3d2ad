import { randomUUID } from 'node:crypto';
import { Exchange, RoutingKey } from '@connector/contracts';
import { eventually, TestBroker, useTestVhost } from '@connector/testing';
import { deadLetterQueueName, declareConsumerTopology } from './topology';

// Its own vhost: never the default one, where `npm start` runs (the hermetic guard refuses it).
useTestVhost('topology');

describe(declareConsumerTopology.name, () => {
  let broker: TestBroker;
  const queue = `topology-test-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    broker = await TestBroker.connect();
  });

  afterAll(async () => {
    await broker.deleteQueues([queue, deadLetterQueueName(queue)]);
    await broker.close();
  });

  it('unbinds the keys an earlier version bound, so an upgraded broker stops routing them to the queue', async () => {
    const exchange = Exchange.ConnectorEvents;
    await declareConsumerTopology(broker.channel, {
      queue,
      bindings: [{ exchange, routingKeys: [RoutingKey.RunCompleted, RoutingKey.OperationFailed] }],
      retryDelaysMs: [],
    });
    await declareConsumerTopology(broker.channel, {
      queue,
      bindings: [
        {
          exchange,
          routingKeys: [RoutingKey.RunCompleted],
          retiredRoutingKeys: [RoutingKey.OperationFailed],
        },
      ],
      retryDelaysMs: [],
    });

    broker.publish(exchange, RoutingKey.OperationFailed, { retired: true });
    broker.publish(exchange, RoutingKey.RunCompleted, { kept: true });
    // One channel routes in publish order: once the second is in the queue, the first was routed too.
    await eventually(async () => (await broker.messageCount(queue)) > 0, 5_000, 'the kept key routed');
    const arrived = (await broker.getAll(queue)).map((m) => m.fields.routingKey);
    expect(arrived).toEqual([RoutingKey.RunCompleted]);
  });
});
