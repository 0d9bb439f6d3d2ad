import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { atsAQuotaKey } from '@connector/ats-a';
import type { RunningAtsASandbox } from '@connector/ats-a-sandbox';
import type { TestSandboxOptions } from '@connector/ats-sandbox-core/testing';
import {
  type AtsAccess,
  createEvent,
  credentialFingerprint,
  Exchange,
  Queue,
  RoutingKey,
} from '@connector/contracts';
import { deadLetterQueueName, RpcError } from '@connector/messaging';
import { eventually, metricValue, scrapeMetrics } from '@connector/testing';
import { type TestWorld, testWorld, type WorldConnector } from '@connector/test-world';

/**
 * ATS trouble handled at the ATS's pace (issue 25), end to end: auth-gateway (two processes) and
 * candidate-sync as processes with their production retry ladder (5 s, 30 s, 2 min…), real RabbitMQ and
 * Postgres, connector-registry stood in for by a responder on its two requests. Every scenario is ATS-A's
 * (its quota headers, its token endpoint, its faults): each starts an ATS-A sandbox of its own (a customer
 * system) through the world and reads it as its package types it. The quota scenario runs on the issue's own
 * numbers (a 150 s window, 120 s tokens), so it takes about three minutes: the sandbox starts the window when
 * the test does, but no window can be shortened without shortening the tokens with it, whose renewal margins
 * are what the scenario exercises.
 */

/** The client's timeout in this suite: a write never answered is "lost" this long after it was sent. */
const ATS_TIMEOUT_MS = 5_000;

describe('ATS trouble at the ATS pace', () => {
  let world: TestWorld;
  let pool: Pool;

  beforeAll(async () => {
    world = await testWorld({
      name: 'e2e_pace',
      // Two auth-gateway processes with one sealing key, as a deployment runs them. The production ladder
      // (no RETRY_DELAYS_MS): quick retries and the index lag are what make it fast.
      services: ['auth-gateway', 'auth-gateway', 'candidate-sync'],
      serviceEnv: { 'candidate-sync': { ATS_TIMEOUT_MS: String(ATS_TIMEOUT_MS) } },
      registry: 'stub',
      tap: [Exchange.ConnectorEvents],
    });
    pool = new Pool({ connectionString: world.env.DATABASE_URL, max: 2 });
  }, 120_000);

  afterAll(async () => {
    await pool?.end();
    await world?.close();
  });

  describe('ats-a', () => {
    /** A customer system: an ATS-A sandbox of the scenario's own, and a connector on it with no limit of ours. */
    async function customerSystem(
      options: TestSandboxOptions,
    ): Promise<{ sandbox: RunningAtsASandbox; target: WorldConnector }> {
      const started = await world.startSandbox('ats-a', options);
      const id = randomUUID();
      // No limit of our own: the ATS's X-RateLimit-Limit is what the plan obeys.
      const target = await world.connect('ats-a', {
        id,
        accountId: `acct_pace_${id.slice(0, 8)}`,
        sandbox: started,
        ownDailyLimit: false,
      });
      return { sandbox: started.running as RunningAtsASandbox, target };
    }

    function publishCandidate(accountId: string): { id: string; candidateId: string; email: string } {
      const tag = randomUUID().slice(0, 12);
      const data = {
        candidateId: `cand-${tag}`,
        firstName: 'Grace',
        lastName: 'Hopper',
        email: `p.${tag}@example.com`,
      };
      const event = createEvent(RoutingKey.CandidateCreated, accountId, data);
      world.broker.publish(Exchange.PlatformEvents, event.type, event);
      return { id: event.id, candidateId: data.candidateId, email: data.email };
    }

    const worker = () => world.service('candidate-sync');
    const failures = () => world.events(RoutingKey.OperationFailed);
    /** candidate-sync's lines saying an attempt of one of these messages failed (a wait is not one). */
    const failedAttempts = (ids: Set<string>) =>
      worker().output.filter(
        (line) => /attempt \d+ failed/.test(line) && [...ids].some((id) => line.includes(id)),
      );

    it('puts 60 candidates once into a quota of 70 with 45 spent elsewhere, tokens of 120 s, ≤ 2 answers 429', async () => {
      const { sandbox, target } = await customerSystem({
        dailyLimit: { calls: 70, windowSeconds: 150 },
        vendor: { tokenTtlSeconds: 120 },
      });
      // A window starts now; another integration of the customer has spent 45 of its 70 calls.
      sandbox.state.setQuota({ used: 45, startWindow: true });
      const windowEnd = Date.parse(sandbox.state.quota().windowEnd);

      const sent = Array.from({ length: 60 }, () => publishCandidate(target.accountId));
      const emails = new Set(sent.map((c) => c.email));
      const inAts = () => sandbox.state.candidates().filter((c) => emails.has(String(c.Email)));
      let seen = '';
      await eventually(
        () => {
          const calls = sandbox.state.callCounts();
          seen = `${inAts().length} of 60 in the ATS, quota ${JSON.stringify(sandbox.state.quota())}, calls ${JSON.stringify(calls)}`;
          return inAts().length === 60;
        },
        270_000,
        'all 60 candidates in the ATS',
      ).catch((error: Error) => {
        throw new Error(`${error.message}; ${seen}; last lines: ${worker().output.slice(-5).join(' | ')}`);
      });

      // The first window held only 25 calls (a token request among them as the token ran out): the rest
      // waited for the reset it named, then went in.
      expect(Date.now()).toBeGreaterThan(windowEnd);
      expect(new Set(inAts().map((c) => c.Email)).size).toBe(60);
      expect(inAts()).toHaveLength(60);
      const { rateLimited, byEndpoint } = sandbox.state.callCounts();
      const answered429 = Object.values(rateLimited).reduce((sum, n) => sum + n, 0);
      // Only calls already in flight when the ATS first told of the other integration's use could meet a 429.
      expect(
        answered429 <= 2 ? 'at most 2' : `${answered429} answers 429: ${JSON.stringify(rateLimited)}`,
      ).toBe('at most 2');
      // Tokens were asked for again after the first one ran out, and counted against the quota.
      expect(byEndpoint['POST /api/token'] ?? 0).toBeGreaterThanOrEqual(2);
      await eventually(
        () =>
          sent.every((c) => world.events(RoutingKey.CandidateSynced).some((e) => e.correlationId === c.id)),
        30_000,
        'candidate.synced for all 60',
      );
      expect(failures()).toEqual([]);
      // Waiting for budget, a token's included, never counted as a failed attempt.
      expect(failedAttempts(new Set(sent.map((c) => c.id)))).toEqual([]);
      expect(await world.broker.messageCount(deadLetterQueueName(Queue.CandidateSync))).toBe(0);
    }, 330_000);

    it('lands a create that met three 500s within 15 s, and settles a write never answered within 30 s', async () => {
      const { sandbox, target } = await customerSystem({ vendor: { indexLagMs: 5_000 } });

      // Three 500s, then the ATS works again: retried inside the handler, not after the ladder's 5 s + 30 s + 2 min.
      sandbox.state.setFaults({ failNext: { 'POST /api/candidates': 3 }, errorStatus: 500 });
      const started = Date.now();
      const created = publishCandidate(target.accountId);
      await eventually(
        () => sandbox.state.candidates().some((c) => c.Email === created.email),
        20_000,
        'the candidate after three 500s',
      );
      const landedAfterMs = Date.now() - started;
      expect(sandbox.state.faultConfig().failNext['POST /api/candidates']).toBe(0); // the three 500s were met
      expect(landedAfterMs).toBeLessThanOrEqual(15_000);
      await world.eventFor(RoutingKey.CandidateSynced, created.id, {}, 20_000);

      // The application is written, and its answer never comes (the line is held past the client's timeout).
      sandbox.state.setFaults({ timeoutAfterWrite: { 'POST /api/applications': 1 }, timeoutMs: 60_000 });
      const candidateId = sandbox.state.candidates().find((c) => c.Email === created.email)!.CandidateId;
      const applicationId = `app-${randomUUID().slice(0, 8)}`;
      const submitted = createEvent(RoutingKey.ApplicationSubmitted, target.accountId, {
        applicationId,
        candidateId: created.candidateId,
        vacancies: [{ connectorId: target.id, externalId: '3' }],
      });
      world.broker.publish(Exchange.PlatformEvents, submitted.type, submitted);
      const mine = () => sandbox.state.applications().filter((a) => a.Candidate.Id === candidateId);
      await eventually(() => mine().length === 1, 20_000, 'the application written in the ATS');
      // It was written as it arrived: its answer is lost once the client's timeout has run.
      const lostAt = Date.now() + ATS_TIMEOUT_MS;
      const synced = await world.eventFor(RoutingKey.ApplicationSynced, submitted.id, {}, 60_000);
      const settledAfterMs = Date.parse(synced.occurredAt) - lostAt;
      expect(synced.data).toMatchObject({ applicationId, externalId: String(mine()[0]!.ApplicationId) });
      expect(settledAfterMs).toBeLessThanOrEqual(30_000);
      // Looked up (after the sandbox's 5 s index lag), never written twice.
      expect(mine()).toHaveLength(1);
      expect(sandbox.state.duplicateApplications()).toBe(0);
      expect(worker().output.some((l) => l.includes('after an unsure create'))).toBe(true);
      expect(failures()).toEqual([]);
    }, 120_000);

    it('asks ATS-A for one token at a time across gateway processes; its 429 pauses, the others ask nothing', async () => {
      const { sandbox, target } = await customerSystem({ dailyLimit: { calls: 50, windowSeconds: 600 } });
      const access = (rejected?: string) =>
        world.rpc().request<AtsAccess>(
          createEvent(RoutingKey.CredentialsRequested, target.accountId, {
            connectorId: target.id,
            ...(rejected ? { rejected } : {}),
          }),
          20_000,
        );
      const current = await access();
      if (current.type !== 'ats-a') throw new Error(`expected ATS-A access, got ${current.type}`);
      // Another integration spent the day; then the ATS refuses our token and 20 workers ask for a new one.
      sandbox.state.setQuota({ used: 50, startWindow: true });
      const windowEnd = Date.parse(sandbox.state.quota().windowEnd);
      const tokenCalls = () => sandbox.state.callCounts().byEndpoint['POST /api/token'] ?? 0;
      const before = tokenCalls();
      const rejected = credentialFingerprint(current.accessToken);
      const gateways = world.processes.filter((p) => p.name === 'auth-gateway');
      const refusals = () =>
        Promise.all(
          gateways.map(async (g) =>
            metricValue(await scrapeMetrics(g.url), 'connector_oauth_refreshes_total', {
              ats: 'ats-a',
              outcome: 'rate_limited',
            }),
          ),
        );
      const refusedBefore = await refusals();
      const answers = await Promise.allSettled(Array.from({ length: 20 }, () => access(rejected)));

      expect(answers.map((a) => (a.status === 'rejected' ? (a.reason as RpcError).code : 'a token'))).toEqual(
        Array.from({ length: 20 }, () => 'RATE_LIMITED'),
      );
      // One token request reached the ATS (and met its 429); the customer system waits for the reset it named.
      expect(tokenCalls() - before).toBe(1);
      // Both gateway processes answered some of the 20 (the broker spreads them): the one-at-a-time is theirs.
      const refusedAfter = await refusals();
      expect(refusedAfter.map((n, i) => n - refusedBefore[i]! > 0)).toEqual([true, true]);
      expect(sandbox.state.callCounts().rateLimited['POST /api/token']).toBe(1);
      const { rows } = await pool.query<{ paused_until: Date | null }>(
        'SELECT paused_until FROM ats_quota WHERE key = $1',
        [atsAQuotaKey(target)],
      );
      expect(Math.abs((rows[0]?.paused_until?.getTime() ?? 0) - windowEnd)).toBeLessThan(2_000);
      // Still connected: a token refused for budget is not a refused secret.
      expect(world.events(RoutingKey.ConnectorStatusChanged)).toEqual([]);
    }, 60_000);
  });
});
