import { createEvent, RoutingKey, validateMessage } from '@connector/contracts';
import { MessagePublisher } from './message-publisher';
import type { RabbitConnection } from './rabbitmq.connection';

jest.mock('@connector/contracts', () => {
  const actual = jest.requireActual<typeof import('@connector/contracts')>('@connector/contracts');
  return { ...actual, validateMessage: jest.fn(actual.validateMessage) };
});

describe(MessagePublisher.name, () => {
  const published: Array<{ exchange: string; routingKey: string; body: Buffer }> = [];
  const connection = {
    user: 'candidate-sync',
    createChannel: () => ({
      publish: async (exchange: string, routingKey: string, body: Buffer) => {
        published.push({ exchange, routingKey, body });
      },
    }),
  } as unknown as RabbitConnection;

  beforeEach(() => {
    published.length = 0;
    jest.mocked(validateMessage).mockClear();
  });

  const synced = (candidateId = 'cand-1') =>
    createEvent(RoutingKey.CandidateSynced, 'acct', {
      connectorId: 'c1',
      candidateId,
      externalId: '42',
      action: 'created',
    });

  it('checks a message for the platform once, here, and publishes the envelope as it is', async () => {
    const event = synced();
    await new MessagePublisher(connection).publish('connector.events', event);
    expect(published).toEqual([
      { exchange: 'connector.events', routingKey: RoutingKey.CandidateSynced, body: expect.any(Buffer) },
    ]);
    expect(JSON.parse(published[0].body.toString())).toEqual(event);
    expect(validateMessage).toHaveBeenCalledTimes(1);
  });

  it('refuses to send the platform a message that breaks the contract', async () => {
    await expect(new MessagePublisher(connection).publish('connector.events', synced(''))).rejects.toThrow(
      /refusing to publish an invalid candidate.synced/,
    );
    expect(published).toEqual([]);
  });

  it('leaves a message between our services to its consumer (validated once, there)', async () => {
    const event = createEvent(RoutingKey.RunRequested, 'acct', { connectorId: 'c1', runId: 'r1' });
    await new MessagePublisher(connection).publish('connector.internal', event);
    expect(published).toHaveLength(1);
    expect(validateMessage).not.toHaveBeenCalled();
  });
});
