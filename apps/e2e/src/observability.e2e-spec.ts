import { randomBytes, randomUUID } from 'node:crypto';
import type { RunningAtsASandbox } from '@connector/ats-a-sandbox';
import { type CandidateDataDto, createEvent, Exchange, RoutingKey } from '@connector/contracts';
import {
  adminApi,
  type CollectedSpan,
  eventually,
  metricValue,
  type MetricSample,
  type OtlpCollector,
  scrapeMetrics,
  startOtlpCollector,
} from '@connector/testing';
import { type TestWorld, testWorld } from '@connector/test-world';

/**
 * What an operator sees of real work, end to end: the five services as processes (with an OTLP collector
 * of this test), the ATS-A sandbox, a vacancy run, then candidates from the platform: one followed on its
 * own, one the ATS fails once, a burst, and an invalid message. Each service's /metrics counts exactly what
 * this caused; the followed candidate's log lines in every service it passes carry its correlationId as a
 * field; and its journey is one trace. ATS-A only: its endpoints and span names are what the checks read.
 */
const ACCOUNT = 'acct_obs';
const KEY = `key-${randomBytes(6).toString('hex')}`;
const CLIENT_SECRET = `secret-${randomBytes(8).toString('hex')}`;
const SERVICES = [
  'connector-registry',
  'auth-gateway',
  'vacancy-sync',
  'candidate-sync',
  'document-service',
] as const;
type Service = (typeof SERVICES)[number];
const BURST = 6;

const candidate = (overrides: Partial<CandidateDataDto> = {}): CandidateDataDto => {
  const id = randomUUID().slice(0, 8);
  return {
    candidateId: `cand-${id}`,
    firstName: 'Grace',
    lastName: 'Hopper',
    email: `grace.${id}@example.com`,
    ...overrides,
  };
};

describe('observability of real work (ats-a)', () => {
  let world: TestWorld;
  let atsA: RunningAtsASandbox;
  let collector: OtlpCollector;
  const service = (name: Service) => world.service(name);
  const api = adminApi({ baseUrl: () => `${service('connector-registry').url}/api/v1`, key: KEY });
  let connectorId = '';
  /** The candidate followed through logs and traces, published as the platform would with a traceparent. */
  const followed = {
    event: createEvent(RoutingKey.CandidateCreated, ACCOUNT, candidate(), {
      correlationId: `corr-${randomUUID()}`,
    }),
    traceId: randomBytes(16).toString('hex'),
    platformSpanId: randomBytes(8).toString('hex'),
  };
  const metrics = {} as Record<Service, MetricSample[]>;

  const publish = (body: object | string, headers: Record<string, unknown> = {}) =>
    world.broker.channel.publish(
      Exchange.PlatformEvents,
      RoutingKey.CandidateCreated,
      Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
      { persistent: true, contentType: 'application/json', headers },
    );
  const syncedFor = (candidateId: string) =>
    eventually(
      () => world.events(RoutingKey.CandidateSynced).find((e) => e.data['candidateId'] === candidateId),
      30_000,
      `candidate.synced of ${candidateId}`,
    );

  beforeAll(async () => {
    collector = await startOtlpCollector();
    world = await testWorld({
      name: 'e2e_observability',
      services: SERVICES,
      env: { LOG_LEVEL: 'debug', OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_BSP_SCHEDULE_DELAY: '200' },
      serviceEnv: {
        'connector-registry': { ADMIN_API_KEYS: `${ACCOUNT}:${KEY}` },
        'vacancy-sync': { SCHEDULER_TICK_MS: '60000', RUN_INLINE_WAIT_MAX_MS: '0' },
        // A first retry after 2 s: time enough to lift the ATS fault before it.
        'candidate-sync': { RETRY_DELAYS_MS: '2000,3000,5000' },
      },
      sandboxes: ['ats-a'],
      vendorSandboxOptions: {
        'ats-a': {
          clients: [{ clientId: 'obs-client', clientSecret: CLIENT_SECRET }],
          seed: { vacancies: 8, seed: 3 },
        },
      },
      tap: [Exchange.ConnectorEvents],
    });
    atsA = world.sandbox('ats-a').running as RunningAtsASandbox;
  }, 120_000);

  afterAll(async () => {
    await world?.close();
    await collector?.close();
  });

  it('runs the work: a connector, a vacancy run, candidates (one failing once at the ATS, one invalid)', async () => {
    const created = await api('POST', '/connectors', {
      body: {
        type: 'ats-a',
        name: 'Observed ATS-A',
        config: { baseUrl: atsA.url, clientId: 'obs-client', clientSecret: CLIENT_SECRET },
      },
    });
    expect(created.status).toBe(201);
    connectorId = String(created.body['id']);

    const run = await api('POST', `/connectors/${connectorId}/runs`, { body: { mode: 'full' } });
    expect(run.status).toBe(202);
    await eventually(
      async () => {
        const runs = (await api('GET', `/connectors/${connectorId}/runs`)).body['runs'] as Array<{
          status: string;
        }>;
        return runs.length > 0 && runs.every((r) => r.status === 'succeeded');
      },
      30_000,
      'the run to succeed',
    );

    // The followed candidate on its own, so the lookups and credentials it needs are its own.
    publish(followed.event, { traceparent: `00-${followed.traceId}-${followed.platformSpanId}-01` });
    await syncedFor(followed.event.data.candidateId);

    // The ATS answers 503 to the next 4 creates: the first try and the 3 quick retries candidate-sync makes
    // within 10 s in the handler (for blips); then the message rides the retry ladder and goes through. A blip
    // of a known length, not a fault lifted by the test: a loaded machine's late lift would fail the ladder's
    // attempt too and count it twice.
    atsA.state.setFaults({ failNext: { 'POST /api/candidates': 4 }, errorStatus: 503 });
    const flaky = createEvent(RoutingKey.CandidateCreated, ACCOUNT, candidate());
    publish(flaky);
    await eventually(
      async () =>
        metricValue(await scrapeMetrics(service('candidate-sync').url), 'connector_messages_retried_total', {
          event_type: 'candidate.created',
        }) === 1,
      25_000,
      'the retry after the ATS failure',
    );
    atsA.state.setFaults({});

    const burst = Array.from({ length: BURST }, () =>
      createEvent(RoutingKey.CandidateCreated, ACCOUNT, candidate()),
    );
    for (const event of burst) publish(event);
    publish({
      ...createEvent(RoutingKey.CandidateCreated, ACCOUNT, candidate()),
      data: { candidateId: 'no-name' },
    });
    for (const event of [flaky, ...burst]) await syncedFor(event.data.candidateId);

    // Everything downstream has settled: the registry and document-service took every candidate.synced, and
    // the invalid message is in the registry's failure log.
    await eventually(
      async () => {
        const [registry, documents, failures] = await Promise.all([
          scrapeMetrics(service('connector-registry').url),
          scrapeMetrics(service('document-service').url),
          api('GET', '/failures'),
        ]);
        const synced = { event_type: 'candidate.synced' };
        return (
          metricValue(registry, 'connector_messages_handled_total', synced) === BURST + 2 &&
          metricValue(documents, 'connector_messages_handled_total', synced) === BURST + 2 &&
          (failures.body['failures'] as unknown[]).length === 1
        );
      },
      20_000,
      'the registry and document-service to take every candidate.synced, the failure log its dead letter',
    );
    for (const name of SERVICES) metrics[name] = await scrapeMetrics(service(name).url);
  }, 120_000);

  it("counts in each service's /metrics what that work caused", () => {
    const value = (name: Service, metric: string, labels: Record<string, string> = {}) =>
      metricValue(metrics[name], metric, labels);
    const created = BURST + 2;

    // candidate-sync: every valid candidate handled once, the ATS failure retried once (after its quick
    // retries), the invalid dead-lettered.
    const cs = { queue: 'candidate-sync.events', event_type: 'candidate.created' };
    expect({
      handled: value('candidate-sync', 'connector_messages_handled_total', cs),
      retried: value('candidate-sync', 'connector_messages_retried_total', cs),
      invalid: value('candidate-sync', 'connector_messages_dead_lettered_total', {
        ...cs,
        reason: 'invalid',
      }),
      otherDeadLetters: value('candidate-sync', 'connector_messages_dead_lettered_total') - 1,
      creates: value('candidate-sync', 'connector_ats_requests_total', {
        ats: 'ats-a',
        endpoint: 'POST /api/candidates',
        status_class: '2xx',
      }),
      failedCreates: value('candidate-sync', 'connector_ats_requests_total', {
        ats: 'ats-a',
        endpoint: 'POST /api/candidates',
        status_class: '5xx',
      }),
      handlerFailures: value('candidate-sync', 'connector_message_handler_duration_seconds_count', {
        ...cs,
        outcome: 'failure',
      }),
      consumers: value('candidate-sync', 'connector_queue_consumers', { queue: 'candidate-sync.events' }),
    }).toEqual({
      handled: created,
      retried: 1,
      invalid: 1,
      otherDeadLetters: 0,
      creates: created,
      failedCreates: 4, // the first try and its 3 quick retries
      handlerFailures: 1,
      consumers: 1,
    });

    // vacancy-sync: the run, its ATS calls, the request it took.
    const runs = value('vacancy-sync', 'connector_vacancy_runs_total', {
      ats: 'ats-a',
      outcome: 'succeeded',
    });
    expect(runs).toBeGreaterThanOrEqual(1);
    expect(value('vacancy-sync', 'connector_vacancy_runs_total', { outcome: 'failed' })).toBe(0);
    expect(value('vacancy-sync', 'connector_vacancy_run_duration_seconds_count', { ats: 'ats-a' })).toBe(
      runs,
    );
    expect(
      value('vacancy-sync', 'connector_ats_requests_total', {
        ats: 'ats-a',
        endpoint: 'POST /api/vacancies/search',
      }),
    ).toBeGreaterThan(0);
    expect(value('vacancy-sync', 'connector_messages_handled_total', { event_type: 'run.requested' })).toBe(
      1,
    );

    // auth-gateway: the connection test and the save of the admin's POST, the workers' credential requests.
    expect(
      value('auth-gateway', 'connector_messages_handled_total', { event_type: 'auth.credentials.save' }),
    ).toBe(1);
    expect(
      value('auth-gateway', 'connector_messages_handled_total', { event_type: 'credentials.requested' }),
    ).toBeGreaterThanOrEqual(2);
    expect(
      value('auth-gateway', 'connector_ats_requests_total', {
        ats: 'ats-a',
        endpoint: 'POST /api/token',
        status_class: '2xx',
      }),
    ).toBeGreaterThanOrEqual(1);

    // connector-registry: what it consumed, its one connector, the customer's budget, its HTTP API.
    const registry = (event_type: string) =>
      value('connector-registry', 'connector_messages_handled_total', {
        queue: 'connector-registry.events',
        event_type,
      });
    expect([registry('candidate.synced'), registry('run.completed')]).toEqual([created, runs]);
    expect(value('connector-registry', 'connector_connectors', { ats: 'ats-a', status: 'connected' })).toBe(
      1,
    );
    expect(value('connector-registry', 'connector_connectors', { status: 'auth_failed' })).toBe(0);
    // The customer's budget, counted and summed: never a series per customer system.
    const used = value('connector-registry', 'connector_ats_budget_used_calls');
    expect(used).toBeGreaterThan(created);
    expect(value('connector-registry', 'connector_ats_budget_limit_calls')).toBeGreaterThan(used);
    expect(value('connector-registry', 'connector_ats_budget_systems', { state: 'available' })).toBe(1);
    expect(value('connector-registry', 'connector_ats_budget_exhausted_early_systems')).toBe(0);
    expect(
      value('connector-registry', 'connector_http_requests_total', {
        method: 'POST',
        route: '/api/v1/connectors',
        status_class: '2xx',
      }),
    ).toBe(1);

    // document-service: the candidates' synced events (it learns where each candidate lives).
    expect(
      value('document-service', 'connector_messages_handled_total', { event_type: 'candidate.synced' }),
    ).toBe(created);

    // Every service: its queue as the broker sees it, and its process.
    const queues: Record<Service, string> = {
      'connector-registry': 'connector-registry.events',
      'auth-gateway': 'auth-gateway.commands',
      'vacancy-sync': 'vacancy-sync.commands',
      'candidate-sync': 'candidate-sync.events',
      'document-service': 'document-service.events',
    };
    for (const name of SERVICES) {
      expect([name, value(name, 'connector_queue_consumers', { queue: queues[name] })]).toEqual([name, 1]);
      expect([name, value(name, 'process_resident_memory_bytes')]).toEqual([name, expect.any(Number)]);
      expect(value(name, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    }
  });

  it('follows the candidate through the log lines of every service it passes, by correlationId as a field', () => {
    const linesOf = (name: Service) =>
      service(name).output.flatMap((line) => {
        try {
          const json = JSON.parse(line) as Record<string, unknown>;
          return json['correlationId'] === followed.event.correlationId ? [json] : [];
        } catch {
          return [];
        }
      });
    const passed: Service[] = ['candidate-sync', 'connector-registry', 'auth-gateway', 'document-service'];
    for (const name of passed) expect([name, linesOf(name).length > 0]).toEqual([name, true]);
    // vacancy-sync has no part in a candidate's journey.
    expect(linesOf('vacancy-sync')).toEqual([]);

    const candidateSync = linesOf('candidate-sync');
    expect(candidateSync).toContainEqual(
      expect.objectContaining({
        service: 'candidate-sync',
        messageId: followed.event.id,
        eventType: 'candidate.created',
        accountId: ACCOUNT,
        connectorId,
        msg: expect.stringContaining('created in the ATS'),
      }),
    );
    // The lookups and the credential request it caused, answered with its correlation id.
    expect(linesOf('connector-registry')).toContainEqual(
      expect.objectContaining({ eventType: 'connectors.by-account.requested', accountId: ACCOUNT }),
    );
    expect(linesOf('auth-gateway')).toContainEqual(
      expect.objectContaining({ eventType: 'credentials.requested', connectorId }),
    );
    expect(linesOf('document-service')).toContainEqual(
      expect.objectContaining({ eventType: 'candidate.synced', connectorId }),
    );
    // Other candidates' lines are theirs: every candidate.created line with this correlation id is its own.
    expect(
      candidateSync.filter((l) => l['eventType'] === 'candidate.created').map((l) => l['messageId']),
    ).toEqual(
      candidateSync.filter((l) => l['eventType'] === 'candidate.created').map(() => followed.event.id),
    );
    // Secrets stay out, whatever the fields.
    const everything = SERVICES.flatMap((name) => service(name).output).join('\n');
    expect(everything).not.toContain(CLIENT_SECRET);
  });

  it('is one trace from the platform event through candidate-sync, auth-gateway and the ATS call to candidate.synced', async () => {
    const inTrace = () => collector.spans.filter((span) => span.traceId === followed.traceId);
    const find = (service: string, name: string) =>
      inTrace().find((span) => span.service === service && span.name === name);
    const spans = await eventually(
      () =>
        find('document-service', 'candidate.synced process') &&
        find('connector-registry', 'candidate.synced process')
          ? inTrace()
          : undefined,
      20_000,
      'the spans of the followed candidate',
    );
    const byId = new Map(spans.map((span) => [span.spanId, span]));
    /** The chain of parents up to the platform's span. */
    const ancestry = (span: CollectedSpan | undefined): string[] => {
      const names: string[] = [];
      for (let s = span; s; s = s.parentSpanId ? byId.get(s.parentSpanId) : undefined) {
        names.push(`${s.service}: ${s.name}`);
      }
      return names;
    };
    const processed = find('candidate-sync', 'candidate.created process');
    expect(processed).toMatchObject({ kind: 5, parentSpanId: followed.platformSpanId });
    expect(ancestry(find('auth-gateway', 'credentials.requested process'))).toEqual([
      'auth-gateway: credentials.requested process',
      'candidate-sync: credentials.requested request',
      'candidate-sync: candidate.created process',
    ]);
    expect(ancestry(find('connector-registry', 'connectors.by-account.requested process'))).toEqual([
      'connector-registry: connectors.by-account.requested process',
      'candidate-sync: connectors.by-account.requested request',
      'candidate-sync: candidate.created process',
    ]);
    const atsCall = find('candidate-sync', 'ATS-A POST /api/candidates');
    expect(atsCall).toMatchObject({ kind: 3, attributes: { 'ats.endpoint': 'POST /api/candidates' } });
    expect(Number(atsCall?.attributes['http.response.status_code'])).toBeLessThan(300);
    expect(ancestry(atsCall).at(-1)).toBe('candidate-sync: candidate.created process');
    for (const consumer of ['document-service', 'connector-registry']) {
      const names = ancestry(find(consumer, 'candidate.synced process'));
      expect(names.slice(1)).toEqual(
        expect.arrayContaining([
          'candidate-sync: candidate.synced publish',
          'candidate-sync: candidate.created process',
        ]),
      );
    }
    // Postgres work of the journey is in it too.
    const postgres = (span: CollectedSpan) =>
      span.attributes['db.system'] === 'postgresql' || span.attributes['db.system.name'] === 'postgresql';
    expect(spans.some((span) => span.service === 'candidate-sync' && postgres(span))).toBe(true);

    // The admin's HTTP request is the root of the work it started: saving the credentials, the token call.
    const all = new Map(collector.spans.map((span) => [span.spanId, span]));
    const up = (span: CollectedSpan | undefined): CollectedSpan[] =>
      span ? [span, ...up(span.parentSpanId ? all.get(span.parentSpanId) : undefined)] : [];
    const save = collector.spans.find(
      (s) => s.service === 'auth-gateway' && s.name === 'auth.credentials.save process',
    );
    const chain = up(save);
    expect(chain.map((s) => `${s.service}: ${s.name}`).slice(0, 2)).toEqual([
      'auth-gateway: auth.credentials.save process',
      'connector-registry: auth.credentials.save request',
    ]);
    const root = chain.at(-1);
    expect(root).toMatchObject({ service: 'connector-registry', kind: 2 });
    expect(root?.attributes['http.request.method'] ?? root?.attributes['http.method']).toBe('POST');
    const token = collector.spans.find(
      (s) =>
        s.service === 'auth-gateway' && s.name === 'ATS-A POST /api/token' && s.traceId === save?.traceId,
    );
    expect(up(token).map((s) => s.spanId)).toContain(save?.spanId);
  });

  it("keeps the OAuth callback's code and state out of the HTTP spans", async () => {
    const code = `code-${randomUUID()}`;
    const state = `state-${randomUUID()}`;
    await fetch(`${service('connector-registry').url}/oauth/ats-b/callback?code=${code}&state=${state}`, {
      redirect: 'manual',
    });
    const callback = await eventually(
      () =>
        collector.spans.find(
          (span) =>
            span.service === 'connector-registry' &&
            String(span.attributes['url.path'] ?? '') === '/oauth/ats-b/callback',
        ),
      15_000,
      'the callback request span',
    );
    expect(callback.attributes['url.query']).toBe('code=REDACTED&state=REDACTED');
    const everything = JSON.stringify(collector.spans);
    expect(everything).not.toContain(code);
    expect(everything).not.toContain(state);
  });
});
