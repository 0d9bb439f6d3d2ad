import type { ConsumeMessage } from 'amqplib';
import { createEvent, Header, RoutingKey } from '@connector/contracts';
import { operationFailedOf, readDeadLetter } from './dead-letters';

const event = createEvent(
  RoutingKey.CandidateCreated,
  'acct_1',
  { candidateId: 'c1', connectorId: 'conn-1' },
  { correlationId: 'corr-1' },
);

function message(headers: Record<string, unknown>, routingKey = 'q.dead'): ConsumeMessage {
  return {
    content: Buffer.from(JSON.stringify(event)),
    fields: { routingKey, exchange: '', deliveryTag: 1, redelivered: false, consumerTag: 't' },
    properties: { headers, messageId: event.id },
  } as unknown as ConsumeMessage;
}

describe(readDeadLetter.name, () => {
  it("reads the transport's own dead letter: its reasons, reported already", () => {
    const deadLetter = readDeadLetter(
      'q',
      message({
        [Header.DeadLetterReasons]: JSON.stringify(['ATS refused', 'email: taken']),
        [Header.OriginalRoutingKey]: RoutingKey.CandidateCreated,
        [Header.FailedAt]: '2026-01-02T03:04:05.000Z',
        [Header.Retryable]: false,
        // An earlier trip through a retry queue leaves the broker's mark too; ours wins.
        'x-death': [{ reason: 'expired', queue: 'q.retry.5000ms', 'routing-keys': ['q'] }],
      }),
    );
    expect(deadLetter).toMatchObject({
      routingKey: RoutingKey.CandidateCreated,
      reasons: ['ATS refused', 'email: taken'],
      retryable: false,
      reported: true,
      failedAt: new Date('2026-01-02T03:04:05.000Z'),
    });
  });

  it("reads the broker's dead letter at the delivery limit: why, when, from which key, not reported", () => {
    const deadLetter = readDeadLetter(
      'q',
      message({
        'x-death': [
          {
            reason: 'delivery_limit',
            queue: 'q',
            'routing-keys': [RoutingKey.CandidateCreated],
            time: 1_767_323_045,
          },
          { reason: 'expired', queue: 'q.retry.5000ms', 'routing-keys': ['q'] },
        ],
      }),
    );
    expect(deadLetter).toMatchObject({
      routingKey: RoutingKey.CandidateCreated,
      retryable: true,
      reported: false,
      failedAt: new Date(1_767_323_045_000),
      accountId: 'acct_1',
      connectorId: 'conn-1',
    });
    expect(deadLetter.reasons).toEqual([
      'redelivered more often than the delivery limit of q allows, never settled: its handler crashed or stopped the consumer each time',
    ]);

    expect(operationFailedOf(deadLetter)).toMatchObject({
      type: RoutingKey.OperationFailed,
      accountId: 'acct_1',
      correlationId: 'corr-1',
      data: {
        connectorId: 'conn-1',
        sourceEventId: event.id,
        sourceType: RoutingKey.CandidateCreated,
        retryable: true,
        reason: deadLetter.reasons[0],
        errors: deadLetter.reasons,
      },
    });
  });
});
