import { createEvent, Exchange, Header, RoutingKey } from '@connector/contracts';
import { adminApi, eventually, timesHandled } from '@connector/testing';
import { type TestWorld, testWorld } from '@connector/test-world';

/**
 * The operator's failure log: a message a service dead-letters is kept by connector-registry, listed for
 * its account (and only that account) with its reasons, and can be replayed into the queue it failed in.
 */
describe('failures: list and replay dead letters', () => {
  let world: TestWorld;
  const registryApi = adminApi({
    baseUrl: () => `${world.service('connector-registry').url}/api/v1`,
    key: 'key-a',
  });
  // Status and body only: the assertions compare whole answers.
  const api = async (method: string, path: string, key = 'key-a') => {
    const { status, body } = await registryApi(method, path, { key });
    return { status, body };
  };

  beforeAll(async () => {
    world = await testWorld({
      name: 'e2e_failures',
      services: ['connector-registry', 'candidate-sync'],
      serviceEnv: {
        'connector-registry': { ADMIN_API_KEYS: 'acct_a:key-a,acct_b:key-b' },
        'candidate-sync': { LOG_LEVEL: 'debug' },
      },
    });
  }, 120_000);

  afterAll(() => world?.close());

  it('keeps a dead-lettered message for its account; an invalid one is never replayed', async () => {
    // Missing its email: candidate-sync's transport dead-letters it at once.
    const invalid = createEvent(RoutingKey.CandidateCreated, 'acct_a', {
      candidateId: 'c-9',
      firstName: 'Ada',
      lastName: 'L',
    });
    world.broker.publish(Exchange.PlatformEvents, RoutingKey.CandidateCreated, invalid);

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

    // Invalid, so not retryable: the failure log does not replay it, and says why.
    const refused = await api('POST', `/failures/${id}/replay`);
    expect(refused).toMatchObject({ status: 409, body: { code: 'NOT_REPLAYABLE' } });
    expect((await api('GET', `/failures/${id}`)).body).toMatchObject({
      replayCount: 0,
      reasons: expect.arrayContaining([
        expect.stringMatching(/^replay refused: not retryable: data\.email: /),
      ]),
    });
    expect(
      world
        .service('candidate-sync')
        .output.some((line) => line.includes(`dead-lettering ${RoutingKey.CandidateCreated} ${invalid.id}`)),
    ).toBe(true);
  });

  it('replays a retryable failure into its queue, where it is handled', async () => {
    // As candidate-sync's transport dead-letters a message whose ATS stayed down (as its broker user: local
    // mode, every service is the vhost's user).
    const valid = createEvent(RoutingKey.CandidateCreated, 'acct_a', {
      candidateId: 'c-10',
      firstName: 'Grace',
      lastName: 'H',
      email: 'grace@example.com',
    });
    world.broker.channel.publish('', 'candidate-sync.events.dead', Buffer.from(JSON.stringify(valid)), {
      userId: decodeURIComponent(new URL(world.env.RABBITMQ_URL).username) || 'guest',
      messageId: valid.id,
      headers: {
        [Header.DeadLetterReasons]: JSON.stringify(['gave up after 8 attempts: ATS answered 503']),
        [Header.OriginalRoutingKey]: RoutingKey.CandidateCreated,
        [Header.Retryable]: true,
        // Where its consumer saw it come in (publisher-check.ts).
        [Header.PublishedBy]: 'platform.events',
      },
    });
    const failure = await eventually(
      async () => {
        const failures = (await api('GET', '/failures')).body.failures as Array<Record<string, unknown>>;
        return failures.find((f) => f.messageId === valid.id);
      },
      15_000,
      'the retryable failure in the log',
    );
    expect(failure).toMatchObject({ retryable: true });
    const id = String(failure.id);
    expect(await api('POST', `/failures/${id}/replay`)).toEqual({ status: 202, body: { replayed: true } });
    await eventually(
      () => timesHandled([world.service('candidate-sync')], RoutingKey.CandidateCreated, valid.id) === 1,
      15_000,
      'candidate-sync handling the replayed message',
    );
    expect((await api('GET', `/failures/${id}`)).body).toMatchObject({ replayCount: 1 });
  });
});
