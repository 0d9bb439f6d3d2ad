import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { register } from 'prom-client';
import { createEvent, type EventEnvelope, Exchange, Header, RoutingKey } from '@connector/contracts';
import { createTestVhost, eventually, TestBroker, type TestVhost } from '@connector/testing';
import { MessagePublisher } from './message-publisher';
import { RabbitConnection } from './rabbitmq.connection';
import type { RabbitMqContext } from './rabbitmq.context';
import { type ConsumerOptions, RabbitMqServer } from './rabbitmq.server';
import { RpcClient, RpcError } from './rpc';
import { retryQueueName } from './topology';

/** A gate the slow handlers wait at until the test opens it. */
function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** A per-queue gauge's value in the metrics text. */
function gaugeOf(text: string, name: string, queue: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{queue="${queue}"} `));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
}

type Handler = (event: EventEnvelope, ctx: RabbitMqContext) => Promise<unknown>;

/**
 * The consumer's bulkhead on a real broker: handler slots shared by account in turn, a full lane deferred,
 * requests in slots of their own and acknowledged when taken.
 */
describe('RabbitMqServer bulkheads', () => {
  let vhost: TestVhost;
  let broker: TestBroker;
  const stops: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    Logger.overrideLogger(['error']);
    vhost = await createTestVhost('fair_dispatch');
    broker = await TestBroker.connect(vhost.url);
  });

  afterAll(async () => {
    for (const stop of stops.reverse()) await stop();
    await broker?.close();
    await vhost?.drop();
  });

  async function consume(
    options: Omit<ConsumerOptions, 'queue' | 'bindings'>,
    events: Record<string, Handler>,
    requests: Record<string, Handler> = {},
  ) {
    const queue = `test-fair-${randomUUID().slice(0, 8)}`;
    const connection = new RabbitConnection({ url: vhost.url, name: 'fair-dispatch-test' });
    const publisher = new MessagePublisher(connection);
    const server = new RabbitMqServer(connection, publisher, {
      queue,
      bindings: [
        { exchange: Exchange.PlatformEvents, routingKeys: Object.keys(events) },
        { exchange: Exchange.Internal, routingKeys: Object.keys(requests) },
      ],
      retryDelaysMs: [5_000],
      ...options,
    });
    for (const [key, handler] of Object.entries(events)) server.addHandler(key, handler, true);
    for (const [key, handler] of Object.entries(requests)) server.addHandler(key, handler, false);
    await new Promise<void>((resolve, reject) =>
      server.listen((error) => (error ? reject(error as Error) : resolve())),
    );
    const rpc = new RpcClient(connection, 'document-service');
    let stopped = false;
    const stop = async () => {
      if (stopped) return;
      stopped = true;
      await server.close();
      await rpc.close();
      await publisher.close();
      await connection.close();
    };
    stops.push(stop);
    return { queue, rpc, stop };
  }

  const candidate = (accountId: string, candidateId: string) =>
    createEvent(RoutingKey.CandidateCreated, accountId, {
      candidateId,
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
    });

  it("serves another account promptly while one account's bulk is slow; a full lane waits and is handled once", async () => {
    const slow = gate();
    const calls: Array<{ accountId: string; candidateId: string; deferrals: unknown; attempt: number }> = [];
    const running = new Map<string, number>();
    let mostRunningForX = 0;
    const { queue, stop } = await consume(
      {
        concurrency: 4,
        perKeyConcurrency: 2,
        perKeyBuffered: 10,
        prefetch: 40,
        deferralDelaysMs: [1_000, 2_000],
      },
      {
        [RoutingKey.CandidateCreated]: async (event, ctx) => {
          const { candidateId } = event.data as { candidateId: string };
          const headers = ctx.getMessage().properties.headers ?? {};
          calls.push({
            accountId: event.accountId,
            candidateId,
            deferrals: headers[Header.Deferrals],
            attempt: ctx.getAttempt(),
          });
          running.set(event.accountId, (running.get(event.accountId) ?? 0) + 1);
          if (event.accountId === 'acct_x')
            mostRunningForX = Math.max(mostRunningForX, running.get('acct_x') ?? 0);
          try {
            // acct_x's ATS answers only when the test says; acct_y's at once.
            if (event.accountId === 'acct_x') await slow.opened;
          } finally {
            running.set(event.accountId, (running.get(event.accountId) ?? 1) - 1);
          }
        },
      },
    );

    const bulk = Array.from({ length: 30 }, (_, i) => `x-${i}`);
    for (const id of bulk)
      broker.publish(Exchange.PlatformEvents, RoutingKey.CandidateCreated, candidate('acct_x', id));
    const others = Array.from({ length: 5 }, (_, i) => `y-${i}`);
    for (const id of others)
      broker.publish(Exchange.PlatformEvents, RoutingKey.CandidateCreated, candidate('acct_y', id));

    // With acct_x's 30 stuck, acct_y's 5 still get the slots acct_x may not take (4 slots, 2 per account).
    await eventually(
      () => others.every((id) => calls.some((c) => c.candidateId === id)),
      10_000,
      "acct_y's messages handled while acct_x's bulk holds its share of the slots",
    );
    expect(mostRunningForX).toBe(2);
    expect(calls.filter((c) => c.accountId === 'acct_x')).toHaveLength(2);
    // The saturation gauges show it, per queue: acct_x's 2 running and 10 waiting in one lane.
    const gauges = await register.metrics();
    expect(gaugeOf(gauges, 'connector_consumer_handler_slots', queue)).toBe(4);
    expect(gaugeOf(gauges, 'connector_consumer_handler_slots_busy', queue)).toBe(2);
    expect(gaugeOf(gauges, 'connector_consumer_messages_buffered', queue)).toBe(10);
    expect(gaugeOf(gauges, 'connector_consumer_lanes_waiting', queue)).toBe(1);

    slow.open();
    const handledOnce = () => {
      const ids = calls.filter((c) => c.accountId === 'acct_x').map((c) => c.candidateId);
      return ids.length === bulk.length && new Set(ids).size === bulk.length;
    };
    await eventually(handledOnce, 30_000, "each of acct_x's 30 messages handled once after its ATS answers");
    expect(mostRunningForX).toBe(2);
    // Its lane held 10: the rest waited in a retry queue, as deferrals, not attempts.
    const deferred = calls.filter((c) => Number(c.deferrals) >= 1);
    expect(deferred.length).toBeGreaterThanOrEqual(bulk.length - 2 - 10);
    expect(deferred.every((c) => c.accountId === 'acct_x' && c.attempt === 1)).toBe(true);
    // Nothing came twice, and no copy is left behind to come again.
    const queues = [queue, ...[1_000, 2_000, 5_000].map((delayMs) => retryQueueName(queue, delayMs))];
    await eventually(
      async () => (await Promise.all(queues.map((q) => broker.messageCount(q)))).every((n) => n === 0),
      10_000,
      'main and retry queues empty',
    );
    expect(calls).toHaveLength(bulk.length + others.length);
    await stop();
  });

  it('takes events while its slow requests run, and answers BUSY at once with retryAfterMs when their slots are full', async () => {
    const slow = gate();
    const events: string[] = [];
    const { queue, rpc, stop } = await consume(
      { concurrency: 2, prefetch: 2, requestConcurrency: { [RoutingKey.CredentialsRequested]: 2 } },
      {
        [RoutingKey.CandidateCreated]: async (event) => {
          events.push((event.data as { candidateId: string }).candidateId);
        },
      },
      {
        [RoutingKey.CredentialsRequested]: async (request) => {
          await slow.opened;
          return { accessToken: `for-${(request.data as { connectorId: string }).connectorId}` };
        },
      },
    );
    const ask = (connectorId: string) =>
      rpc.request(createEvent(RoutingKey.CredentialsRequested, 'acct_1', { connectorId }), 20_000);

    const answers = [ask('c1'), ask('c2')];
    // Both requests run (their slots full), yet the prefetch of 2 still takes events: they were acknowledged.
    const ids = Array.from({ length: 6 }, (_, i) => `e-${i}`);
    for (const id of ids)
      broker.publish(Exchange.PlatformEvents, RoutingKey.CandidateCreated, candidate('acct_1', id));
    await eventually(() => events.length === ids.length, 10_000, 'events handled while two requests run');

    const busy = await ask('c3').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(busy).toBeInstanceOf(RpcError);
    expect(busy).toMatchObject({ code: 'BUSY', retryAfterMs: expect.any(Number) });
    expect((busy as RpcError).retryAfterMs).toBeGreaterThan(0);
    const gauges = await register.metrics();
    const labels = `queue="${queue}",event_type="${RoutingKey.CredentialsRequested}"`;
    expect(gauges).toContain(`connector_request_slots_busy{${labels}} 2`);
    expect(gauges).toContain(`connector_request_slots{${labels}} 2`);

    slow.open();
    await expect(Promise.all(answers)).resolves.toEqual([
      { accessToken: 'for-c1' },
      { accessToken: 'for-c2' },
    ]);
    await expect(ask('c4')).resolves.toEqual({ accessToken: 'for-c4' });
    await stop();
  });
});
