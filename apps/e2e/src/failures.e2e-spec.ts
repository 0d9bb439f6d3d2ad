import { createEvent, Exchange, RoutingKey } from '@connector/contracts';
import {
  adminApi,
  createSuiteInfrastructure,
  eventually,
  startService,
  type ServiceProcess,
  TestBroker,
  type TestDatabase,
  type TestVhost,
  type SuiteInfrastructure,
} from '@connector/testing';

/**
 * The operator's failure log: a message a service dead-letters is kept by connector-registry, listed for
 * its account (and only that account) with its reasons, and can be replayed into the queue it failed in.
 */
describe('failures: list and replay dead letters', () => {
  let vhost: TestVhost;
  let database: TestDatabase;
  let registry: ServiceProcess;
  let candidateSync: ServiceProcess;
  let broker: TestBroker;
  let infra: SuiteInfrastructure;

  const registryApi = adminApi({ baseUrl: () => `${registry.url}/api/v1`, key: 'key-a' });
  // Status and body only: the assertions compare whole answers.
  const api = async (method: string, path: string, key = 'key-a') => {
    const { status, body } = await registryApi(method, path, { key });
    return { status, body };
  };

  beforeAll(async () => {
    infra = await createSuiteInfrastructure('e2e_failures');
    ({ vhost, database } = infra);
    const env = { DATABASE_URL: database.url, RABBITMQ_URL: vhost.url };
    [registry, candidateSync] = await Promise.all([
      startService('connector-registry', { ...env, ADMIN_API_KEYS: 'acct_a:key-a,acct_b:key-b' }),
      startService('candidate-sync', env),
    ]);
    broker = await TestBroker.connect();
  }, 120_000);

  afterAll(async () => {
    await Promise.all([registry?.stop(), candidateSync?.stop()]);
    await broker?.close();
    await infra?.drop();
  });

  it('keeps a dead-lettered message for its account, and replays it into its queue', async () => {
    // Missing its email: candidate-sync's transport dead-letters it at once.
    const invalid = createEvent(RoutingKey.CandidateCreated, 'acct_a', {
      candidateId: 'c-9',
      firstName: 'Ada',
      lastName: 'L',
    });
    broker.publish(Exchange.PlatformEvents, RoutingKey.CandidateCreated, invalid);

    const listed = await eventually(
      async () => {
        const { body } = await api('GET', '/failures');
        const failures = body.failures as Array<Record<string, unknown>>;
        return failures.length > 0 ? failures : undefined;
      },
      15_000,
      'the failure in the log',
    );
    expect(listed).toEqual([
      expect.objectContaining({
        type: RoutingKey.CandidateCreated,
        messageId: invalid.id,
        retryable: false,
        reasons: expect.arrayContaining([expect.stringMatching(/^data\.email: /)]),
        replayCount: 0,
      }),
    ]);
    const id = String(listed[0].id);
    expect((await api('GET', `/failures/${id}`)).body).toMatchObject({ message: invalid });
    // Another account sees nothing of it.
    expect((await api('GET', '/failures', 'key-b')).body).toEqual({ failures: [] });
    expect((await api('GET', `/failures/${id}`, 'key-b')).status).toBe(404);
    expect((await api('POST', `/failures/${id}/replay`, 'key-b')).status).toBe(404);

    expect(await api('POST', `/failures/${id}/replay`)).toEqual({ status: 202, body: { replayed: true } });
    // Still invalid, so candidate-sync dead-letters the replay again: a second entry, the first marked replayed.
    const after = await eventually(
      async () => {
        const failures = (await api('GET', '/failures')).body.failures as Array<Record<string, unknown>>;
        return failures.length === 2 ? failures : undefined;
      },
      15_000,
      'the replayed message to fail again',
    );
    expect(after.find((f) => f.id === id)).toMatchObject({ replayCount: 1, replayedAt: expect.any(String) });
    expect(
      candidateSync.output.some((line) =>
        line.includes(`dead-lettering ${RoutingKey.CandidateCreated} ${invalid.id}`),
      ),
    ).toBe(true);
  });
});
