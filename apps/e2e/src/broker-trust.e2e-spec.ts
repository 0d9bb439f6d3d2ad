import { randomBytes } from 'node:crypto';
import amqplib from 'amqplib';
import { Client } from 'pg';
import { createEvent, type EventEnvelope, Exchange, Header, Queue, RoutingKey } from '@connector/contracts';
import {
  BrokerUsers,
  type BrokerPrincipal,
  queueExchangeName,
  RabbitConnection,
  replyQueueName,
  RpcClient,
} from '@connector/messaging';
import { setUpVhostBrokerUsers, type VhostBrokerUsers } from '@connector/messaging/testing';
import { adminApi, eventually } from '@connector/testing';
import { type TestWorld, testWorld, type WorldService } from '@connector/test-world';

/**
 * The broker is a trust boundary: connector-registry, auth-gateway, vacancy-sync and document-service run as
 * processes, each as its own broker user (as `npm start` and the deployments run them). A message one
 * service forges in another's name is refused, dead-lettered with the reason and changes nothing; the same
 * message from the service that may send it is applied. The world's vhost and database; its services are
 * started once the vhost's users exist, each with its own user's broker settings.
 */
const ACCOUNT = 'acct_trust';
const KEY = `key-${randomBytes(6).toString('hex')}`;

describe('the broker as a trust boundary', () => {
  let world: TestWorld;
  let users: VhostBrokerUsers;
  let db: Client;
  const registry = () => world.service('connector-registry');

  const api = adminApi({ baseUrl: () => `${registry().url}/api/v1`, key: KEY });
  const statusOf = async (id: string) => (await api('GET', `/connectors/${id}`)).body.status as string;
  const failures = async () =>
    ((await api('GET', '/failures')).body.failures ?? []) as Array<{
      id: string;
      messageId: string;
      routingKey: string;
      reasons: string[];
      retryable: boolean;
      replayCount: number;
    }>;
  const failureOf = (messageId: string, count = 1) =>
    eventually(
      async () => {
        const found = (await failures()).filter((failure) => failure.messageId === messageId);
        return found.length >= count ? found : undefined;
      },
      15_000,
      `the failure of ${messageId} in the log`,
    );

  /** Publishes as `principal` on a confirm channel; the broker's refusal, or 'ok'. */
  /** Publishes as `principal`'s own broker user, or (`admin`) as the vhost's administrator without user_id. */
  async function publishAs(
    principal: BrokerPrincipal | 'admin',
    exchange: string,
    routingKey: string,
    event: EventEnvelope,
    headers: Record<string, unknown> = {},
    properties: { replyTo?: string; correlationId?: string } = {},
  ): Promise<string> {
    const admin = principal === 'admin';
    const connection = await amqplib.connect(admin ? world.infra.vhost.url : users.urlOf(principal));
    const channel = await connection.createConfirmChannel();
    let refusal: string | undefined;
    channel.on('error', (error: Error) => (refusal = error.message));
    try {
      await new Promise<void>((resolve, reject) =>
        channel.publish(
          exchange,
          routingKey,
          Buffer.from(JSON.stringify(event)),
          {
            ...(admin ? {} : { userId: users.userOf(principal) }),
            persistent: true,
            contentType: 'application/json',
            headers,
            ...properties,
          },
          (error) => (error ? reject(error) : resolve()),
        ),
      );
    } catch (error) {
      refusal ??= (error as Error).message;
    } finally {
      await connection.close().catch(() => undefined);
    }
    return refusal ?? 'ok';
  }

  /**
   * Straight into a queue through the default exchange (which reaches every queue by name): refused to every
   * service's user; only an administrator can, and what that puts in carries no `user_id`.
   */
  const intoQueue = (
    principal: BrokerPrincipal | 'admin',
    queue: string,
    event: EventEnvelope,
    headers = {},
  ) => publishAs(principal, '', queue, event, { [Header.OriginalRoutingKey]: event.type, ...headers });

  const defaultExchangeRefused = (principal: BrokerPrincipal) =>
    new RegExp(
      `ACCESS_REFUSED - access to exchange 'amq.default' in vhost '[^']+' refused for user '${users.userOf(principal).replace(/\./g, '\\.')}'`,
    );

  /** A request put straight into a queue by the administrator (no user_id); the raw reply, as the registry. */
  async function askStraight(queue: string, request: EventEnvelope): Promise<unknown> {
    const connection = await amqplib.connect(world.infra.vhost.url);
    try {
      const channel = await connection.createChannel();
      const replyQueue = replyQueueName('connector-registry');
      await channel.assertQueue(replyQueue, { exclusive: true });
      await channel.bindQueue(replyQueue, Exchange.Replies, replyQueue);
      const reply = new Promise<unknown>(
        (resolve) =>
          void channel.consume(
            replyQueue,
            (message) => message && resolve(JSON.parse(message.content.toString())),
            { noAck: true },
          ),
      );
      channel.publish('', queue, Buffer.from(JSON.stringify(request)), {
        replyTo: replyQueue,
        correlationId: request.id,
        headers: { [Header.OriginalRoutingKey]: request.type },
      });
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise(
        (resolve) => (timer = setTimeout(() => resolve('no reply within 10 s'), 10_000)),
      );
      try {
        return await Promise.race([reply, late]);
      } finally {
        clearTimeout(timer);
      }
    } finally {
      await connection.close().catch(() => undefined);
    }
  }

  async function requestAs<T>(principal: BrokerPrincipal, request: EventEnvelope): Promise<T> {
    const connection = new RabbitConnection({ url: users.urlOf(principal), name: `e2e-${principal}` });
    const answerers = BrokerUsers.parse(users.envOf('connector-registry').RABBITMQ_USERS, '');
    const rpc = new RpcClient(connection, principal, answerers);
    try {
      return await rpc.request<T>(request, 10_000);
    } finally {
      await rpc.close();
      await connection.close();
    }
  }

  beforeAll(async () => {
    world = await testWorld({
      name: 'e2e_trust',
      serviceEnv: {
        'connector-registry': { ADMIN_API_KEYS: `${ACCOUNT}:${KEY}` },
        // No ATS login here: its addresses lead nowhere.
        'auth-gateway': {
          ATS_B_OAUTH_URL: 'http://127.0.0.1:9/oauth',
          ATS_B_REST_LOGIN_URL: 'http://127.0.0.1:9/rest',
        },
      },
    });
    users = await setUpVhostBrokerUsers(world.infra.vhost.url);
    const asOwnUser = (name: WorldService) => world.startService(name, users.envOf(name));
    await asOwnUser('connector-registry');
    await Promise.all([asOwnUser('auth-gateway'), asOwnUser('vacancy-sync'), asOwnUser('document-service')]);
    db = new Client({ connectionString: world.env.DATABASE_URL });
    await db.connect();
  }, 180_000);

  afterAll(async () => {
    await db?.end();
    await world?.close();
    await users?.remove();
  });

  it("refuses a connector.status_changed in another service's name; the same from auth-gateway is applied", async () => {
    const created = await api('POST', '/connectors', {
      body: { type: 'ats-b', name: 'Trust', config: { routine: 'api-oauth', sendSmartCv: false } },
    });
    expect(created.status).toBe(201);
    const id = String(created.body.id);
    expect(await statusOf(id)).toBe('pending_authorization');
    const forged = createEvent(RoutingKey.ConnectorStatusChanged, ACCOUNT, {
      connectorId: id,
      status: 'connected',
    });

    // On connector.events the broker itself refuses: vacancy-sync may not publish that type.
    expect(await publishAs('vacancy-sync', Exchange.ConnectorEvents, forged.type, forged)).toMatch(
      /ACCESS_REFUSED - access to topic 'connector.status_changed' in exchange 'connector.events'/,
    );
    // Straight into the registry's queue, claiming to be a replay of auth-gateway's: the broker refuses
    // vacancy-sync, through the default exchange and through the queue's own; what only an administrator can
    // still put there (without user_id) the registry refuses: its x-original-routing-key is not believed (no
    // copy of ours), so it is read under the key it came with, the queue's name.
    const claims = { [Header.PublishedBy]: users.userOf('auth-gateway'), [Header.ReplayOf]: 'made-up' };
    expect(await intoQueue('vacancy-sync', Queue.ConnectorRegistry, forged, claims)).toMatch(
      defaultExchangeRefused('vacancy-sync'),
    );
    const registryExchange = queueExchangeName(Queue.ConnectorRegistry);
    expect(
      await publishAs('vacancy-sync', registryExchange, Queue.ConnectorRegistry, forged, claims),
    ).toMatch(/ACCESS_REFUSED - access to exchange 'connector-registry.events.dlx'/);
    expect(await intoQueue('admin', Queue.ConnectorRegistry, forged, claims)).toBe('ok');
    const [failure] = await failureOf(forged.id);
    expect(failure!.reasons).toEqual([
      'type "connector.status_changed" does not match routing key "connector-registry.events"',
    ]);
    expect(await statusOf(id)).toBe('pending_authorization');
    expect(registry().output.join('\n')).toContain(`dead-lettering ${Queue.ConnectorRegistry} ${forged.id}`);

    // Not retryable, so the failure log does not replay it (and says why).
    const replay = await api('POST', `/failures/${failure!.id}/replay`);
    expect(replay.status).toBe(409);
    expect(replay.body).toMatchObject({ code: 'NOT_REPLAYABLE' });
    expect(await statusOf(id)).toBe('pending_authorization');

    const genuine = createEvent(RoutingKey.ConnectorStatusChanged, ACCOUNT, {
      connectorId: id,
      status: 'connected',
    });
    expect(await publishAs('auth-gateway', Exchange.ConnectorEvents, genuine.type, genuine)).toBe('ok');
    await eventually(async () => (await statusOf(id)) === 'connected', 15_000, 'connected by auth-gateway');
  });

  it("keeps document-service's candidate links from a candidate.synced not sent by candidate-sync", async () => {
    const linkOf = async (candidateId: string) =>
      (
        await db.query<{ external_id: string }>(
          'SELECT external_id FROM candidate_ref WHERE connector_id = $1 AND candidate_id = $2',
          ['conn-links', candidateId],
        )
      ).rows[0]?.external_id;
    const synced = (externalId: string) =>
      createEvent(RoutingKey.CandidateSynced, ACCOUNT, {
        connectorId: 'conn-links',
        candidateId: 'cand-1',
        externalId,
        action: 'created' as const,
      });

    const genuine = synced('ats-1');
    expect(await publishAs('candidate-sync', Exchange.ConnectorEvents, genuine.type, genuine)).toBe('ok');
    await eventually(
      async () => (await linkOf('cand-1')) === 'ats-1',
      15_000,
      'the link from candidate-sync',
    );

    const forged = synced('ats-elsewhere');
    expect(await publishAs('vacancy-sync', Exchange.ConnectorEvents, forged.type, forged)).toMatch(
      /ACCESS_REFUSED/,
    );
    const claims = { [Header.PublishedBy]: users.userOf('candidate-sync') };
    expect(await intoQueue('vacancy-sync', Queue.DocumentService, forged, claims)).toMatch(
      defaultExchangeRefused('vacancy-sync'),
    );
    expect(await intoQueue('admin', Queue.DocumentService, forged, claims)).toBe('ok');
    const [failure] = await failureOf(forged.id);
    // Its claimed key (x-original-routing-key) is not believed from an administrator's message either.
    expect(failure!.reasons[0]).toBe(
      'type "candidate.synced" does not match routing key "document-service.events"',
    );
    expect(await linkOf('cand-1')).toBe('ats-1');
  });

  it("refuses a platform event that one of our services put straight into document-service's queue", async () => {
    const uploaded = createEvent(RoutingKey.DocumentUploaded, ACCOUNT, {
      documentId: 'doc-forged',
      candidateId: 'cand-1',
      kind: 'cv' as const,
      fileName: 'cv.pdf',
      contentType: 'application/pdf',
      sizeBytes: 10,
      sha256: 'a'.repeat(64),
      url: 'https://files.example.com/cv.pdf',
    });
    expect(await intoQueue('vacancy-sync', Queue.DocumentService, uploaded)).toMatch(
      defaultExchangeRefused('vacancy-sync'),
    );
    expect(await intoQueue('admin', Queue.DocumentService, uploaded)).toBe('ok');
    const [failure] = await failureOf(uploaded.id);
    expect(failure!.reasons).toEqual([
      'type "document.uploaded" does not match routing key "document-service.events"',
    ]);
  });

  it("refuses to replay a dead letter forged into document-service's dead-letter queue", async () => {
    const forgedSynced = (candidateId: string) =>
      createEvent(RoutingKey.CandidateSynced, ACCOUNT, {
        connectorId: 'conn-forged',
        candidateId,
        externalId: 'ats-forged',
        action: 'created' as const,
      });
    const claims = {
      [Header.DeadLetterReasons]: JSON.stringify(['ATS answered 503']),
      [Header.OriginalRoutingKey]: RoutingKey.CandidateSynced,
      [Header.PublishedBy]: users.userOf('candidate-sync'),
      [Header.Retryable]: true,
    };
    const dead = `${Queue.DocumentService}.dead`;
    const replayOf = async (messageId: string) => {
      const [failure] = await failureOf(messageId);
      const replay = await api('POST', `/failures/${failure!.id}/replay`);
      expect(replay.status).toBe(409);
      expect(replay.body).toMatchObject({ code: 'NOT_REPLAYABLE' });
      return { failure: failure!, after: (await failures()).find((f) => f.id === failure!.id)! };
    };

    // Headers claiming candidate-sync's retryable dead letter: vacancy-sync cannot write them there at all
    // (neither through the default exchange nor document-service's own); from an administrator, not believed.
    const plain = forgedSynced('cand-forged-1');
    expect(await publishAs('vacancy-sync', '', dead, plain, claims)).toMatch(
      defaultExchangeRefused('vacancy-sync'),
    );
    expect(
      await publishAs('vacancy-sync', queueExchangeName(Queue.DocumentService), dead, plain, claims),
    ).toMatch(/ACCESS_REFUSED - access to exchange 'document-service.events.dlx'/);
    expect(await publishAs('admin', '', dead, plain, claims)).toBe('ok');
    const first = await replayOf(plain.id);
    const written = `written straight into ${dead} by a publisher without user_id, not dead-lettered by its service`;
    expect(first.failure).toMatchObject({ retryable: false, reasons: [written] });
    expect(first.after.reasons).toEqual([written, `replay refused: not retryable: ${written}`]);

    // With a made-up x-death it passes for an expired message; it still has no sender that may publish it.
    const expired = forgedSynced('cand-forged-2');
    const death = {
      reason: 'expired',
      queue: Queue.DocumentService,
      'routing-keys': [expired.type],
      count: 1,
    };
    expect(await publishAs('admin', '', dead, expired, { ...claims, 'x-death': [death] })).toBe('ok');
    const second = await replayOf(expired.id);
    expect(second.failure).toMatchObject({ retryable: true, routingKey: RoutingKey.CandidateSynced });
    expect(second.after.reasons).toContain(
      'replay refused: refused candidate.synced without user_id: only candidate-sync may publish it',
    );
    const links = await db.query(`SELECT 1 FROM candidate_ref WHERE connector_id = 'conn-forged'`);
    expect(links.rowCount).toBe(0);
  });

  it('answers credential requests and erasures only from the services that may send them', async () => {
    const credentials = createEvent(RoutingKey.CredentialsRequested, ACCOUNT, {
      connectorId: 'conn-unknown',
    });
    // A worker may ask (and learns that there is no such connector); the registry may not even send it.
    await expect(requestAs('document-service', credentials)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await publishAs('connector-registry', Exchange.Internal, credentials.type, credentials)).toMatch(
      /ACCESS_REFUSED - access to topic 'credentials.requested'/,
    );
    // Candidate-sync cannot put an erasure into auth-gateway's queue; one an administrator puts there (no
    // user_id, a claimed x-original-routing-key that is not believed) is no request under its own key: never
    // answered nor done, and dropped unread by the failure log (it names a request type).
    const erase = createEvent(RoutingKey.AuthCredentialsErase, ACCOUNT, { connectorId: 'conn-unknown' });
    expect(await intoQueue('candidate-sync', Queue.AuthGateway, erase)).toMatch(
      defaultExchangeRefused('candidate-sync'),
    );
    expect(await askStraight(Queue.AuthGateway, erase)).toBe('no reply within 10 s');
    await eventually(
      async () => registry().output.join('\n').includes(`dropped request auth.credentials.erase ${erase.id}`),
      15_000,
      "the registry's collector dropping the administrator's erasure unread",
    );
    await expect(requestAs('connector-registry', erase)).resolves.toEqual({ erased: true });
  });
});
