import type { ConsumeMessage } from 'amqplib';
import { createEvent, Header, RoutingKey, validateMessage } from '@connector/contracts';
import {
  type DeadLetter,
  DeadLetterCollector,
  failureReport,
  operationFailedOf,
  readDeadLetter,
} from './dead-letters';
import type { RabbitConnection } from './rabbitmq.connection';

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

describe('a dead letter from a broker user that does not write them', () => {
  const forgedHeaders = {
    [Header.DeadLetterReasons]: JSON.stringify(['made up']),
    [Header.OriginalRoutingKey]: RoutingKey.CandidateSynced,
    [Header.PublishedBy]: 'cs',
    [Header.Retryable]: true,
    [Header.ConnectorId]: 'conn-elsewhere',
  };
  const from = (userId: string | undefined, headers: Record<string, unknown>) => {
    const forged = message(headers, 'document-service.events.dead');
    forged.properties.userId = userId;
    return forged;
  };

  it('is read from what the broker vouches for: its sender, not retryable, its headers not believed', () => {
    const deadLetter = readDeadLetter('document-service.events', from('vs', forgedHeaders), false);
    expect(deadLetter).toMatchObject({
      routingKey: 'document-service.events.dead',
      publishedBy: 'vs',
      retryable: false,
      reported: false,
      connectorId: 'conn-1',
      reasons: [
        'written straight into document-service.events.dead by broker user "vs", not dead-lettered by its service',
      ],
    });
  });

  it('the broker dead-lettered (it expired): the routing key from x-death, the sender its user_id', () => {
    const deadLetter = readDeadLetter(
      'document-service.events',
      from(undefined, {
        ...forgedHeaders,
        'x-death': [
          {
            reason: 'expired',
            queue: 'document-service.events',
            'routing-keys': [RoutingKey.DocumentUploaded],
          },
        ],
      }),
      false,
    );
    expect(deadLetter).toMatchObject({
      routingKey: RoutingKey.DocumentUploaded,
      publishedBy: undefined,
      retryable: true,
      reasons: ['dead-lettered by the broker from document-service.events: expired'],
    });
  });

  it('believed, an original the broker dead-lettered keeps its sender (no x-published-by on it)', () => {
    const original = from('cr', brokerDeath);
    expect(readDeadLetter('q', original, true).publishedBy).toBe('cr');
  });
});

const valid = (report: ReturnType<typeof failureReport>) =>
  validateMessage(Buffer.from(JSON.stringify(report)), report.type);

const brokerDeath = {
  'x-death': [{ reason: 'delivery_limit', queue: 'q', 'routing-keys': ['candidate.created'] }],
};

function rawMessage(body: object, headers: Record<string, unknown>, messageId?: string): ConsumeMessage {
  return {
    content: Buffer.from(JSON.stringify(body)),
    fields: { routingKey: 'q.dead', exchange: '', deliveryTag: 1, redelivered: false, consumerTag: 't' },
    properties: { headers, messageId },
  } as unknown as ConsumeMessage;
}

describe(failureReport.name, () => {
  it('is valid whatever the failed message held: ids beyond the limits, empty, or no strings at all', () => {
    const long = failureReport({
      accountId: 'a'.repeat(101),
      correlationId: 'c'.repeat(201),
      connectorId: 'x'.repeat(500),
      sourceEventId: 'e'.repeat(500),
      sourceType: 't'.repeat(500),
      reasons: ['r'.repeat(5_000), 42, { toString: 'not callable' }],
      retryable: true,
    });
    expect(valid(long).ok).toBe(true);
    expect(long.accountId).toBe('unknown');
    expect(long.correlationId).toBe('e'.repeat(200));
    expect(long.data).not.toHaveProperty('connectorId');

    const empty = failureReport({
      accountId: '',
      correlationId: '',
      sourceEventId: '',
      sourceType: '',
      reasons: [],
      retryable: false,
    });
    expect(valid(empty).ok).toBe(true);
    expect(empty).toMatchObject({
      accountId: 'unknown',
      correlationId: 'unknown',
      data: { sourceEventId: 'unknown', reason: 'unknown' },
    });

    const objects = failureReport({
      accountId: 5,
      correlationId: {},
      sourceEventId: [],
      reasons: [null],
      retryable: true,
    });
    expect(valid(objects).ok).toBe(true);
  });

  it("keeps a valid message's own ids", () => {
    const report = failureReport({
      accountId: 'acct_1',
      correlationId: 'corr-1',
      connectorId: 'conn-1',
      sourceEventId: 'e1',
      sourceType: 'candidate.created',
      reasons: ['boom'],
      retryable: false,
    });
    expect(report).toMatchObject({
      accountId: 'acct_1',
      correlationId: 'corr-1',
      data: { connectorId: 'conn-1', sourceEventId: 'e1', reason: 'boom', errors: ['boom'] },
    });
  });
});

describe('dead letters the broker dead-lettered, from a message the contract refuses', () => {
  it('are reported with a valid operation.failed', () => {
    const body = { ...event, accountId: 'a'.repeat(101), correlationId: 'c'.repeat(201) };
    const deadLetter = readDeadLetter('q', rawMessage(body, brokerDeath, body.id));
    expect(deadLetter.reported).toBe(false);
    expect(valid(operationFailedOf(deadLetter))).toMatchObject({ ok: true });
  });

  it('are read whatever their headers hold', () => {
    const weird = {
      [Header.DeadLetterReasons]: '{"not":"a list"}',
      [Header.FailedAt]: 'yesterday',
      [Header.OriginalRoutingKey]: { toString: 1 },
    };
    const deadLetter = readDeadLetter('q', rawMessage({}, weird));
    expect(deadLetter.reasons).toEqual(['[object Object]']);
    expect(Number.isNaN(deadLetter.failedAt.getTime())).toBe(false);
    expect(deadLetter.routingKey).toBe('q.dead');
    expect(readDeadLetter('q', rawMessage({}, { [Header.DeadLetterReasons]: '[1,"two"]' })).reasons).toEqual([
      '1',
      'two',
    ]);
  });
});

describe(DeadLetterCollector.name, () => {
  function collecting(keep: (d: DeadLetter) => Promise<void>, report?: () => Promise<void>) {
    const collector = new DeadLetterCollector({} as RabbitConnection, ['q'], keep, report);
    const settled: string[] = [];
    const channel = { ack: () => settled.push('ack'), nack: () => settled.push('nack') };
    const collect = (message: ConsumeMessage) =>
      (collector as unknown as { collect(c: unknown, q: string, m: ConsumeMessage): Promise<void> }).collect(
        channel,
        'q',
        message,
      );
    return { settled, collect };
  }

  it('keeps and acknowledges a dead letter whose report fails, and reports it when it can', async () => {
    const kept: DeadLetter[] = [];
    const failing = collecting(
      async (d) => void kept.push(d),
      () => Promise.reject(new Error('broker gone')),
    );
    await failing.collect(rawMessage(event, brokerDeath, event.id));
    expect(kept).toHaveLength(1);
    expect(failing.settled).toEqual(['ack']);

    const reports: unknown[] = [];
    const reporting = collecting(
      async () => undefined,
      async (...args: unknown[]) => void reports.push(args[0]),
    );
    await reporting.collect(rawMessage({ ...event, accountId: 'a'.repeat(101) }, brokerDeath, event.id));
    expect(reports).toHaveLength(1);
    expect(reporting.settled).toEqual(['ack']);
  });

  it('keeps an event that named a reply address (replyTo makes no request), and drops a request unread', async () => {
    const kept: DeadLetter[] = [];
    const { settled, collect } = collecting(async (d) => void kept.push(d));
    const withReplyTo = rawMessage(event, brokerDeath, event.id);
    withReplyTo.properties.replyTo = 'connector-registry.reply.00000000-0000-0000-0000-000000000000';
    await collect(withReplyTo);
    expect(kept.map((d) => d.messageId)).toEqual([event.id]);

    const request = { ...event, type: RoutingKey.CredentialsRequested, data: { connectorId: 'c1' } };
    await collect(
      rawMessage(
        request,
        { ...brokerDeath, [Header.OriginalRoutingKey]: RoutingKey.CredentialsRequested },
        request.id,
      ),
    );
    expect(kept).toHaveLength(1);
    expect(settled).toEqual(['ack', 'ack']);
  });

  it('as the registry keeps one (stored, then reported by keep), acknowledges one from a refused message', async () => {
    const stored: DeadLetter[] = [];
    const { settled, collect } = collecting(async (d) => {
      stored.push(d);
      const report = operationFailedOf(d);
      const validation = valid(report);
      if (!validation.ok)
        throw new Error(`refusing to publish an invalid operation.failed: ${validation.errors.join('; ')}`);
    });
    await collect(
      rawMessage(
        { ...event, accountId: 'a'.repeat(101), correlationId: 'c'.repeat(201) },
        brokerDeath,
        event.id,
      ),
    );
    expect(stored).toHaveLength(1);
    expect(settled).toEqual(['ack']);
  });
});
