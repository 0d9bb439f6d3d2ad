import { createHash, randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { ConfirmChannel, ConsumeMessage } from 'amqplib';
import { Exchange, Header, MAX_MESSAGE_BYTES, RoutingKey, validateMessage } from '@connector/contracts';
import { PermanentMessageError, TransientMessageError } from './message-errors';
import { MessagePublisher } from './message-publisher';
import { BrokerUsers, publisherCheck, type PublisherCheck } from './publisher-check';
import { type ConsumerOptions, RabbitMqServer } from './rabbitmq.server';
import { replyQueueName } from './topology';

interface Published {
  exchange: string;
  routingKey: string;
  body: Buffer;
  headers: Record<string, unknown>;
  expiration?: string;
}

/** The server with a publisher and a channel that only record what they are asked to do. */
function fakeServer(
  options: {
    verifyPublisher?: PublisherCheck;
    failReports?: boolean;
    retryDelaysMs?: number[];
    consumer?: Partial<ConsumerOptions>;
  } = {},
) {
  const published: Published[] = [];
  const settled: string[] = [];
  const publisher = Object.create(MessagePublisher.prototype) as MessagePublisher;
  Object.assign(publisher, {
    user: 'svc',
    returned: new Set<string>(),
    channel: {
      publish: async (
        exchange: string,
        routingKey: string,
        body: Buffer,
        o: { headers: object; expiration?: string },
      ) => {
        if (options.failReports && routingKey === RoutingKey.OperationFailed) throw new Error('broker gone');
        published.push({
          exchange,
          routingKey,
          body,
          headers: o.headers as Record<string, unknown>,
          expiration: o.expiration,
        });
      },
    },
  });
  const replies: Array<{ exchange: string; routingKey: string; reply: unknown; userId: unknown }> = [];
  // Answers have a channel of their own; the consumer's channel publishes nothing.
  const replyChannel = {
    publish: async (exchange: string, routingKey: string, body: Buffer, o: { userId?: unknown }) => {
      replies.push({ exchange, routingKey, reply: JSON.parse(body.toString()), userId: o.userId });
    },
    close: async () => undefined,
  };
  const connection = { user: 'svc', createChannel: () => replyChannel, consumerGone: () => undefined };
  const channel = {
    publish: () => {
      throw new Error('published on the consumer channel');
    },
    ack: () => settled.push('ack'),
    nack: (_m: unknown, _all: boolean, requeue: boolean) => settled.push(`nack requeue=${requeue}`),
  } as unknown as ConfirmChannel;
  const server = new RabbitMqServer(connection as never, publisher, {
    queue: 'q',
    bindings: [],
    retryDelaysMs: options.retryDelaysMs ?? [10, 20],
    deferralDelaysMs: [],
    verifyPublisher: options.verifyPublisher,
    ...options.consumer,
  });
  const handle = (message: ConsumeMessage) =>
    (
      server as unknown as { handleMessage(c: ConfirmChannel, m: ConsumeMessage): Promise<void> }
    ).handleMessage(channel, message);
  return { server, published, settled, replies, handle };
}

function message(
  body: object,
  headers: Record<string, unknown> = {},
  userId?: string,
  properties: object = {},
): ConsumeMessage {
  return {
    content: Buffer.from(JSON.stringify(body)),
    fields: { routingKey: RoutingKey.CandidateCreated, exchange: 'platform.events', deliveryTag: 1 },
    properties: { headers, messageId: 'm1', ...(userId ? { userId } : {}), ...properties },
  } as unknown as ConsumeMessage;
}

const candidate = (overrides: object = {}) => ({
  id: randomUUID(),
  type: RoutingKey.CandidateCreated,
  version: 1,
  occurredAt: new Date().toISOString(),
  accountId: 'acct_1',
  data: { candidateId: 'c1', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
  ...overrides,
});

const deadLetters = (published: Published[]) => published.filter((p) => p.routingKey === 'q.dead');
const reports = (published: Published[]) =>
  published.filter((p) => p.routingKey === RoutingKey.OperationFailed);

describe('RabbitMqServer settles every message', () => {
  it('dead-letters a message whose original routing key Object.prototype has, with the publisher check on', async () => {
    const verifyPublisher = publisherCheck('candidate-sync', BrokerUsers.parse('', 'guest'));
    for (const key of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const { published, settled, handle } = fakeServer({ verifyPublisher });
      await handle(message({}, { [Header.OriginalRoutingKey]: key }, 'guest'));
      expect(settled).toEqual(['ack']);
      expect(deadLetters(published)).toHaveLength(1);
    }
  });

  it('dead-letters, with the reason, a message whose handling throws where nothing expected it', async () => {
    const { published, settled, handle } = fakeServer({
      verifyPublisher: () => {
        throw new TypeError('allowed.includes is not a function');
      },
    });
    await handle(message(candidate()));
    expect(settled).toEqual(['ack']);
    const [copy] = deadLetters(published);
    expect(JSON.parse(String(copy.headers[Header.DeadLetterReasons]))).toEqual([
      'message handling crashed: allowed.includes is not a function',
    ]);
    expect(copy.headers[Header.Retryable]).toBe(false);
  });

  it("copies a retry and a dead letter into its own queue's exchange, never the default one", async () => {
    const { server, published, handle } = fakeServer({ retryDelaysMs: [10] });
    server.addHandler(RoutingKey.CandidateCreated, () => Promise.reject(new Error('ATS down')), true);
    await handle(message(candidate()));
    await handle(message(candidate(), { [Header.Attempt]: 2 }));
    expect(
      published
        .filter((p) => p.routingKey !== RoutingKey.OperationFailed)
        .map((p) => [p.exchange, p.routingKey]),
    ).toEqual([
      ['q.dlx', 'q.retry.10ms'],
      ['q.dlx', 'q.dead'],
    ]);
  });

  it('reads a header that is no string as no original routing key', async () => {
    const { published, settled, handle } = fakeServer();
    await handle(message(candidate(), { [Header.OriginalRoutingKey]: { toString: 'not callable' } }));
    expect(settled).toEqual(['ack']);
    expect(deadLetters(published)[0].headers[Header.OriginalRoutingKey]).toBe(RoutingKey.CandidateCreated);
  });

  it('retries a handler that throws null or undefined like any failure', async () => {
    const { server, published, settled, handle } = fakeServer();
    server.addHandler(RoutingKey.CandidateCreated, () => Promise.reject(null), true);
    await handle(message(candidate()));
    expect(settled).toEqual(['ack']);
    expect(published.map((p) => p.routingKey)).toEqual(['q.retry.10ms']);
  });
});

describe('RabbitMqServer never dead-letters a request', () => {
  const save = (properties: object, headers: Record<string, unknown> = {}) =>
    ({
      content: Buffer.from(
        JSON.stringify({
          ...candidate(),
          type: RoutingKey.AuthCredentialsSave,
          data: { connectorId: 'c1', type: 'ats-a', config: { clientSecret: 'hunter2' } },
        }),
      ),
      fields: { routingKey: RoutingKey.AuthCredentialsSave, exchange: 'connector.internal', deliveryTag: 1 },
      properties: { headers, messageId: 'm1', ...properties },
    }) as unknown as ConsumeMessage;

  it.each([
    ['without a reply address', {}],
    ['answered into a queue it names (a dead-letter queue)', { replyTo: 'q.dead' }],
    ['answered through direct reply-to (the default exchange)', { replyTo: 'amq.rabbitmq.reply-to.g1h2' }],
    ['answered into a reply queue of no service of ours', { replyTo: replyQueueName('platform') }],
  ])('drops a request %s: acknowledged, nothing published', async (_case, properties) => {
    const { server, published, settled, replies, handle } = fakeServer();
    server.addHandler(RoutingKey.AuthCredentialsSave, () => Promise.resolve({ saved: true }), false);
    await handle(save(properties));
    expect(settled).toEqual(['ack']);
    expect(published).toEqual([]);
    expect(replies).toEqual([]);
  });

  it("answers into the requester's reply queue through connector.replies, saying who answers", async () => {
    const { server, settled, replies, handle } = fakeServer();
    server.addHandler(RoutingKey.AuthCredentialsSave, () => Promise.resolve({ saved: true }), false);
    const replyTo = replyQueueName('connector-registry');
    await handle(save({ replyTo, correlationId: 'k1' }));
    expect(settled).toEqual(['ack']);
    expect(replies).toEqual([
      {
        exchange: Exchange.Replies,
        routingKey: replyTo,
        // The handler's answer, where it asked (the config's own checks are auth-gateway's, by its ATS).
        reply: { ok: true, data: { saved: true } },
        userId: 'svc',
      },
    ]);
  });

  it('answers BUSY at once, with a jittered retryAfterMs, when the slots of its type are all taken', async () => {
    const { server, settled, replies, handle } = fakeServer({
      consumer: { requestConcurrency: { [RoutingKey.ConnectorLookup]: 1 } },
    });
    let finish: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (finish = resolve));
    server.addHandler(RoutingKey.ConnectorLookup, () => running.then(() => ({ found: true })), false);
    const lookup = (correlationId: string) =>
      ({
        content: Buffer.from(
          JSON.stringify({ ...candidate(), type: RoutingKey.ConnectorLookup, data: { connectorId: 'c1' } }),
        ),
        fields: { routingKey: RoutingKey.ConnectorLookup, exchange: 'connector.internal', deliveryTag: 1 },
        properties: {
          headers: {},
          messageId: correlationId,
          correlationId,
          replyTo: replyQueueName('candidate-sync'),
        },
      }) as unknown as ConsumeMessage;

    const first = handle(lookup('k1'));
    await new Promise((resolve) => setImmediate(resolve));
    // Acknowledged when taken: a running request holds no prefetch slot.
    expect(settled).toEqual(['ack']);
    await handle(lookup('k2'));
    expect(replies.map((r) => r.reply)).toEqual([
      {
        ok: false,
        error: { code: 'BUSY', message: expect.stringMatching(/busy/), retryAfterMs: expect.any(Number) },
      },
    ]);
    const { retryAfterMs } = (replies[0].reply as { error: { retryAfterMs: number } }).error;
    expect(retryAfterMs).toBeGreaterThanOrEqual(250);
    expect(retryAfterMs).toBeLessThanOrEqual(750);
    finish();
    await first;
    expect(replies[1].reply).toEqual({ ok: true, data: { found: true } });
  });

  it("passes on a handler's own BUSY with its retryAfterMs, so the asker waits that long", async () => {
    const { server, replies, handle } = fakeServer();
    server.addHandler(
      RoutingKey.ConnectorLookup,
      () =>
        Promise.reject(
          Object.assign(new Error('ATS call slots full'), { code: 'BUSY', retryAfterMs: 1_234 }),
        ),
      false,
    );
    await handle({
      content: Buffer.from(
        JSON.stringify({ ...candidate(), type: RoutingKey.ConnectorLookup, data: { connectorId: 'c1' } }),
      ),
      fields: { routingKey: RoutingKey.ConnectorLookup, exchange: 'connector.internal', deliveryTag: 1 },
      properties: {
        headers: {},
        messageId: 'k3',
        correlationId: 'k3',
        replyTo: replyQueueName('candidate-sync'),
      },
    } as unknown as ConsumeMessage);
    expect(replies.map((r) => r.reply)).toEqual([
      { ok: false, error: { code: 'BUSY', message: 'ATS call slots full', retryAfterMs: 1_234 } },
    ]);
  });

  it('handles an event that names a reply address as the event: no answer, acknowledged once handled', async () => {
    const { server, settled, replies, handle } = fakeServer();
    const seen: unknown[] = [];
    server.addHandler(
      RoutingKey.CandidateCreated,
      (event: unknown) => Promise.resolve(seen.push(event)),
      true,
    );
    const event = candidate();
    await handle(message(event, {}, undefined, { replyTo: replyQueueName('connector-registry') }));
    expect(seen).toEqual([event]);
    expect(settled).toEqual(['ack']);
    expect(replies).toEqual([]);
  });

  it('drops a request whose handling crashed instead of dead-lettering it', async () => {
    const { published, settled, handle } = fakeServer({
      verifyPublisher: () => {
        throw new TypeError('boom');
      },
    });
    await handle(save({ replyTo: replyQueueName('connector-registry') }));
    expect(settled).toEqual(['ack']);
    expect(published).toEqual([]);
  });
});

describe("RabbitMqServer and an error's details (an ATS's own words)", () => {
  afterEach(() => jest.restoreAllMocks());
  const atsWords = "phone: '+44 20 7946 0000' of Ada Lovelace is too long";
  const logged = () => {
    const lines: string[] = [];
    for (const level of ['log', 'warn', 'error', 'debug'] as const) {
      jest.spyOn(Logger.prototype, level).mockImplementation((...args: unknown[]) => {
        lines.push(args.map(String).join(' '));
      });
    }
    return lines;
  };

  it('keeps them in the dead letter only: not in operation.failed, not in the logs', async () => {
    const lines = logged();
    const { server, published, handle } = fakeServer();
    const reason = 'ATS-B PUT entity/Candidate answered 400 (permanent; fields: phone)';
    server.addHandler(
      RoutingKey.CandidateCreated,
      () => Promise.reject(new PermanentMessageError(reason, 'conn-1', [atsWords])),
      true,
    );
    await handle(message(candidate()));
    const [copy] = deadLetters(published);
    expect(JSON.parse(String(copy!.headers[Header.DeadLetterReasons]))).toEqual([reason, atsWords]);
    const [report] = reports(published);
    const failed = JSON.parse(report!.body.toString()) as { data: { reason: string; errors: string[] } };
    expect(failed.data).toMatchObject({ reason, errors: [reason] });
    expect(report!.body.toString()).not.toContain('Lovelace');
    expect(lines.some((line) => line.includes(reason))).toBe(true);
    expect(lines.filter((line) => line.includes('Lovelace'))).toEqual([]);
  });

  it('logs none of them on a retry', async () => {
    const lines = logged();
    const { server, handle } = fakeServer();
    server.addHandler(
      RoutingKey.CandidateCreated,
      () => Promise.reject(new TransientMessageError('ATS-B answered 503 (transient)', 'conn-1', [atsWords])),
      true,
    );
    await handle(message(candidate()));
    expect(lines.some((line) => line.includes('retry in'))).toBe(true);
    expect(lines.filter((line) => line.includes('Lovelace'))).toEqual([]);
  });
});

describe('RabbitMqServer and a message over MAX_MESSAGE_BYTES', () => {
  it('dead-letters it unparsed as too large, cut to its start with its size and hash, and reports it', async () => {
    const { server, published, settled, handle } = fakeServer();
    const handled = jest.fn();
    server.addHandler(RoutingKey.CandidateCreated, handled, true);
    const huge = candidate({ data: { note: 'x'.repeat(MAX_MESSAGE_BYTES) } });
    const content = Buffer.from(JSON.stringify(huge));
    await handle({ ...message(huge), content } as ConsumeMessage);
    expect(settled).toEqual(['ack']);
    expect(handled).not.toHaveBeenCalled();
    const [copy] = deadLetters(published);
    expect(copy!.body.length).toBe(64 * 1024);
    expect(copy!.headers[Header.OriginalBytes]).toBe(content.length);
    expect(copy!.headers[Header.OriginalSha256]).toBe(createHash('sha256').update(content).digest('hex'));
    expect(JSON.parse(String(copy!.headers[Header.DeadLetterReasons]))).toEqual([
      `message too large: ${content.length} bytes, more than the ${MAX_MESSAGE_BYTES} a message may have`,
    ]);
    expect(reports(published)).toHaveLength(1);
  });
});

describe('RabbitMqServer reports a dead letter best-effort', () => {
  it.each([
    ['an account id over 100 characters', { accountId: 'a'.repeat(101) }],
    ['a correlation id over 200 characters', { correlationId: 'c'.repeat(201) }],
    ['an empty id and type', { id: '', type: '' }],
  ])('dead-letters once and reports validly a message with %s', async (_case, overrides) => {
    const { published, settled, handle } = fakeServer();
    await handle(message(candidate(overrides), { [Header.OriginalRoutingKey]: RoutingKey.CandidateCreated }));
    expect(settled).toEqual(['ack']);
    expect(deadLetters(published)).toHaveLength(1);
    const [report] = reports(published);
    expect(report).toBeDefined();
    expect(validateMessage(report.body, RoutingKey.OperationFailed)).toMatchObject({ ok: true });
  });

  it('acknowledges the original once its dead-letter copy is confirmed, even when the report fails', async () => {
    const { published, settled, handle } = fakeServer({ failReports: true });
    await handle(message(candidate({ accountId: '' })));
    expect(deadLetters(published)).toHaveLength(1);
    expect(settled).toEqual(['ack']);
  });
});

describe('RabbitMqServer and the x-attempt header', () => {
  const failing = () => Promise.reject(new Error('ATS answered 503'));

  it.each([['abc'], [-5], [0], [2.5], [{}]])('counts %p as the first attempt', async (value) => {
    const { server, published, handle } = fakeServer();
    server.addHandler(RoutingKey.CandidateCreated, failing, true);
    await handle(message(candidate(), { [Header.Attempt]: value }));
    expect(published.map((p) => [p.routingKey, p.headers[Header.Attempt]])).toEqual([['q.retry.10ms', 2]]);
  });

  it('dead-letters once attempts run out, whatever x-attempt said before', async () => {
    const { server, published, handle } = fakeServer();
    server.addHandler(RoutingKey.CandidateCreated, failing, true);
    let headers: Record<string, unknown> = { [Header.Attempt]: 'abc' };
    for (let hop = 0; hop < 5 && deadLetters(published).length === 0; hop += 1) {
      await handle(message(candidate(), headers));
      headers = published[published.length - 1].headers;
    }
    expect(published.map((p) => p.routingKey)).toEqual([
      'q.retry.10ms',
      'q.retry.20ms',
      'q.dead',
      RoutingKey.OperationFailed,
    ]);
  });
});

describe('RabbitMqServer shares handler slots by account', () => {
  it("defers at once, as a jittered wait and not an attempt, a message whose account's lane is full", async () => {
    const { server, published, settled, handle } = fakeServer({
      consumer: { concurrency: 1, perKeyConcurrency: 1, perKeyBuffered: 1, deferralDelaysMs: [1_000, 2_000] },
    });
    let finish: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (finish = resolve));
    const seen: string[] = [];
    server.addHandler(
      RoutingKey.CandidateCreated,
      async (event: { id: string }) => {
        seen.push(event.id);
        await running;
      },
      true,
    );
    const [a, b, c] = [candidate(), candidate(), candidate()];
    const first = handle(message(a));
    const second = handle(message(b));
    // a runs, b waits in acct_1's lane, c finds the lane full.
    await handle(message(c, { [Header.Attempt]: 2 }));
    expect(seen).toEqual([a.id]);
    expect(published).toHaveLength(1);
    expect(published[0]).toMatchObject({
      routingKey: 'q.retry.1000ms',
      headers: { [Header.Attempt]: 2, [Header.Deferrals]: 1 },
    });
    expect(Number(published[0].expiration)).toBeGreaterThanOrEqual(750);
    expect(Number(published[0].expiration)).toBeLessThanOrEqual(1_000);
    expect(settled).toEqual(['ack']);
    finish();
    await Promise.all([first, second]);
    expect(seen).toEqual([a.id, b.id]);
    expect(settled).toEqual(['ack', 'ack', 'ack']);
  });

  it('gives a message waiting for its turn back to the broker, unstarted, when the consumer closes', async () => {
    const { server, settled, handle } = fakeServer({ consumer: { concurrency: 1 } });
    let finish: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (finish = resolve));
    server.addHandler(RoutingKey.CandidateCreated, () => running, true);
    const first = handle(message(candidate()));
    const second = handle(message(candidate({ accountId: 'acct_2' })));
    const closed = server.close();
    await second;
    expect(settled).toEqual(['nack requeue=true']);
    finish();
    await Promise.all([first, closed]);
    expect(settled).toEqual(['nack requeue=true', 'ack']);
  });
});
