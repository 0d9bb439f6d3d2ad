import { randomUUID } from 'node:crypto';
import type { RunningAtsASandbox } from '@connector/ats-a-sandbox';
import type { TestSandbox } from '@connector/ats-sandbox-core/testing';
import { createEvent, Exchange, Queue, RoutingKey } from '@connector/contracts';
import { deadLetterQueueName } from '@connector/messaging';
import { eventually } from '@connector/testing';
import { type TestWorld, testWorld, type WorldConnector } from '@connector/test-world';

/**
 * Bulkheads per ATS system (issue 33), end to end: auth-gateway and candidate-sync as processes, two ATS-A
 * customer systems in-process, real RabbitMQ and Postgres. One account's system answers every call after
 * SLOW_MS and a bulk of its candidates is queued first; another account's candidates must still land in a
 * fraction of that, and every candidate lands once after the slow system recovers. ATS-A only: the slow
 * system is its sandbox's latency fault.
 */

/** The slow system's latency on every call. */
const SLOW_MS = 6_000;
const PREFETCH = 8;
const PER_SYSTEM = 2;
const SLOW_BULK = 40;
const HEALTHY = 10;

describe('one ATS system’s trouble stays its own (bulkheads, ats-a)', () => {
  let world: TestWorld;
  const worker = () => world.service('candidate-sync');

  /** A customer system with a connector on it (set up while it answers at once: the set-up's test is not the point). */
  async function customerSystem(): Promise<{ sandbox: TestSandbox; connector: WorldConnector }> {
    const sandbox = await world.startSandbox('ats-a');
    const connector = await world.connect('ats-a', {
      accountId: `acct_bulk_${randomUUID().slice(0, 8)}`,
      id: randomUUID(),
      sandbox,
      ownDailyLimit: false,
    });
    return { sandbox, connector };
  }
  const slowDown = (sandbox: TestSandbox, latencyMs: number) =>
    (sandbox.running as RunningAtsASandbox).state.setFaults({ latencyMs });

  function publishCandidates(
    accountId: string,
    count: number,
  ): Array<{ id: string; email: string; at: number }> {
    return Array.from({ length: count }, () => {
      const tag = randomUUID().slice(0, 12);
      const event = createEvent(RoutingKey.CandidateCreated, accountId, {
        candidateId: `cand-${tag}`,
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: `b.${tag}@example.com`,
      });
      world.broker.publish(Exchange.PlatformEvents, event.type, event);
      return { id: event.id, email: event.data.email, at: Date.now() };
    });
  }

  /** Records of these emails in the sandbox, by email (a duplicate shows as a count of 2). */
  const landed = (sandbox: TestSandbox, emails: Set<string>) => {
    const counts = new Map<string, number>();
    for (const email of emails) {
      const records = sandbox.candidates(email).length;
      if (records > 0) counts.set(email, records);
    }
    return counts;
  };

  beforeAll(async () => {
    world = await testWorld({
      name: 'e2e_bulkheads',
      services: ['auth-gateway', 'candidate-sync'],
      serviceEnv: {
        'candidate-sync': {
          PREFETCH: String(PREFETCH),
          ATS_SYSTEM_CONCURRENCY: String(PER_SYSTEM),
          // Short tiers: a deferred message comes back within a second or two.
          RETRY_DELAYS_MS: '1000,2000,5000,10000,30000',
          ATS_TIMEOUT_MS: String(SLOW_MS * 3),
        },
      },
      registry: 'stub',
      tap: [Exchange.ConnectorEvents],
    });
  }, 120_000);

  afterAll(() => world?.close());

  it("lands a healthy account's candidates promptly behind a slow system's bulk, and every candidate once", async () => {
    const slow = await customerSystem();
    const healthy = await customerSystem();
    slowDown(slow.sandbox, SLOW_MS);

    const bulk = publishCandidates(slow.connector.accountId, SLOW_BULK);
    // The bulk is in the handlers first: its system's slots are full and its excess is being deferred.
    await eventually(
      () => worker().output.some((line) => line.includes('waiting for this ATS')),
      30_000,
      "candidate-sync deferring the slow system's excess",
    );
    const started = Date.now();
    const prompt = publishCandidates(healthy.connector.accountId, HEALTHY);
    const promptEmails = new Set(prompt.map((c) => c.email));
    // Without the bulkhead, PREFETCH handlers would each hold a slow candidate for at least SLOW_MS per call,
    // and the healthy ones would queue behind SLOW_BULK / PREFETCH rounds of it (tens of seconds).
    const bound = SLOW_MS * 2;
    let seen = '';
    await eventually(
      () => {
        seen = `${landed(healthy.sandbox, promptEmails).size} of ${HEALTHY} healthy, ${landed(slow.sandbox, new Set(bulk.map((c) => c.email))).size} slow`;
        return landed(healthy.sandbox, promptEmails).size === HEALTHY;
      },
      bound,
      `the healthy account's ${HEALTHY} candidates within ${bound} ms (twice the slow system's latency)`,
    ).catch((error: Error) => {
      throw new Error(`${error.message}; ${seen}; last lines: ${worker().output.slice(-5).join(' | ')}`);
    });
    const healthyTookMs = Date.now() - started;
    // The slow system is still slow, and most of its bulk still waits: the healthy account did not wait for it.
    expect(landed(slow.sandbox, new Set(bulk.map((c) => c.email))).size).toBeLessThan(SLOW_BULK);
    expect(healthyTookMs).toBeLessThan(bound);

    // The slow system recovers: every candidate of the bulk lands, once.
    slowDown(slow.sandbox, 0);
    const bulkEmails = new Set(bulk.map((c) => c.email));
    await eventually(
      () => landed(slow.sandbox, bulkEmails).size === SLOW_BULK,
      90_000,
      `all ${SLOW_BULK} of the slow account's candidates after it recovered`,
    );
    await eventually(
      () =>
        [...bulk, ...prompt].every((c) =>
          world.events(RoutingKey.CandidateSynced).some((e) => e.correlationId === c.id),
        ),
      30_000,
      'candidate.synced for every candidate',
    );
    expect([...landed(slow.sandbox, bulkEmails).values()].filter((n) => n !== 1)).toEqual([]);
    expect([...landed(healthy.sandbox, promptEmails).values()].filter((n) => n !== 1)).toEqual([]);
    expect(world.events(RoutingKey.OperationFailed)).toEqual([]);
    // Waiting for a busy system is not a failed attempt.
    expect(worker().output.filter((line) => /attempt \d+ failed/.test(line))).toEqual([]);
    expect(await world.broker.messageCount(deadLetterQueueName(Queue.CandidateSync))).toBe(0);
  }, 180_000);
});
