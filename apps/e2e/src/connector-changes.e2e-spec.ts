import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { RunningAtsBSandbox } from '@connector/ats-b-sandbox';
import { driveLoginForm } from '@connector/ats-b-sandbox/testing';
import { createEvent, Exchange, RoutingKey } from '@connector/contracts';
import { setUpVhostBrokerUsers, type VhostBrokerUsers } from '@connector/messaging/testing';
import { adminApi, type FileServer, startFileServer, TestBroker } from '@connector/testing';
import { type TestWorld, testWorld } from '@connector/test-world';

/**
 * A connector change takes effect at once: connector-registry, auth-gateway, candidate-sync and
 * document-service as processes, each as its own broker user (the permissions of production), the platform's
 * events published as the platform's user, the ATS-B sandbox over HTTP. The admin turns "Send Smart CV" on and a Smart
 * CV sent right after the 200 is uploaded, although document-service had the old options in hand a moment
 * before. "Send Smart CV" is an ATS-B option: the whole suite is ATS-B's. The services are started by the
 * world once each has its own broker user (`setUpVhostBrokerUsers`, which the world does not do).
 */
const KEY = `key-${randomBytes(6).toString('hex')}`;
const ACCOUNT = 'acct_changes';
const USER_PASSWORD = `pass-${randomBytes(6).toString('hex')}`;

describe('connector changes reach every worker at once (ATS-B)', () => {
  let world: TestWorld;
  let platform: TestBroker;
  let users: VhostBrokerUsers;
  let files: FileServer;
  const atsB = () => world.sandbox('ats-b').running as RunningAtsBSandbox;

  const registryApi = adminApi({
    baseUrl: () => `${world.service('connector-registry').url}/api/v1`,
    key: KEY,
  });
  const api = (method: string, path: string, body?: unknown) => registryApi(method, path, { body });
  const publish = (type: string, data: object) => {
    const event = createEvent(type, ACCOUNT, data);
    platform.publish(Exchange.PlatformEvents, type, event);
    return event;
  };
  const eventFor = (type: string, sourceId: string) => world.eventFor(type, sourceId, {}, 30_000);
  const smartCv = (candidateId: string) => {
    const content = Buffer.from(`%PDF-1.7 smart CV ${randomUUID()}`);
    return {
      documentId: `doc-${randomUUID().slice(0, 8)}`,
      candidateId,
      kind: 'smart-cv',
      fileName: 'smart-cv.pdf',
      contentType: 'application/pdf',
      sizeBytes: content.length,
      sha256: createHash('sha256').update(content).digest('hex'),
      url: files.serve(content),
    };
  };

  beforeAll(async () => {
    // The workers below retry sooner than production: the broker set-up declares their queues so.
    const retryDelaysMs = [300, 600, 1_000, 2_000];
    const retries = { RETRY_DELAYS_MS: retryDelaysMs.join(',') };
    world = await testWorld({
      name: 'e2e_changes',
      registry: 'real',
      sandboxes: ['ats-b'],
      vendorSandboxOptions: { 'ats-b': { users: [{ username: 'recruiter', password: USER_PASSWORD }] } },
      serviceEnv: {
        'connector-registry': { ADMIN_API_KEYS: `${ACCOUNT}:${KEY}` },
        'document-service': retries,
        'candidate-sync': retries,
      },
      tap: [Exchange.ConnectorEvents],
    });
    files = await startFileServer();
    users = await setUpVhostBrokerUsers(world.env.RABBITMQ_URL, {
      'document-service': { retryDelaysMs },
      'candidate-sync': { retryDelaysMs },
    });
    platform = await TestBroker.connect(users.urlOf('platform'));
    const services = ['connector-registry', 'auth-gateway', 'document-service', 'candidate-sync'] as const;
    // One after another, as before the world: four at once start slower on two cores (measured).
    for (const name of services) await world.startService(name, users.envOf(name));
  }, 120_000);

  afterAll(async () => {
    await platform?.close();
    await files?.close();
    await world?.close();
    await users?.remove();
  });

  it('PATCH sendSmartCv true, then a Smart CV right after the 200: it is uploaded', async () => {
    const created = await api('POST', '/connectors', {
      type: 'ats-b',
      name: 'Bullhorn',
      config: { routine: 'api-oauth', sendSmartCv: false },
    });
    const id = String(created.body.id);
    const authorize = await api('POST', `/connectors/${id}/authorize`);
    const cookie = (authorize.headers.get('set-cookie') ?? '').split(';')[0];
    const redirect = await driveLoginForm(String(authorize.body.authorizeUrl), {
      username: 'recruiter',
      password: USER_PASSWORD,
    });
    expect((await fetch(redirect, { headers: { cookie }, redirect: 'manual' })).status).toBe(302);
    expect((await api('GET', `/connectors/${id}`)).body).toMatchObject({ status: 'connected' });

    const candidateId = `cand-${randomUUID().slice(0, 8)}`;
    const candidate = publish(RoutingKey.CandidateCreated, {
      candidateId,
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: `ada.${candidateId}@example.com`,
    });
    const synced = await eventFor(RoutingKey.CandidateSynced, candidate.id);
    const externalId = Number(synced.data.externalId);

    // With the option off, document-service skips it (and now holds the connector's snapshot).
    const before = publish(RoutingKey.DocumentUploaded, smartCv(candidateId));
    expect((await eventFor(RoutingKey.DocumentSynced, before.id)).data).toMatchObject({ action: 'skipped' });

    expect(await api('PATCH', `/connectors/${id}`, { options: { sendSmartCv: true } })).toMatchObject({
      status: 200,
      body: { options: { sendSmartCv: true } },
    });
    const after = publish(RoutingKey.DocumentUploaded, smartCv(candidateId));
    expect((await eventFor(RoutingKey.DocumentSynced, after.id)).data).toMatchObject({ action: 'uploaded' });
    expect(
      atsB()
        .state.files()
        .filter((f) => f.candidateId === externalId),
    ).toHaveLength(1);
  });

  it('did all of it within the broker permissions: nothing refused, by the broker or by a consumer', () => {
    const refusals = world.processes
      .flatMap((p) => p.output.map((line) => `${p.name}: ${line}`))
      .filter((line) =>
        /ACCESS_REFUSED|PRECONDITION_FAILED|refused \S+ (from broker user|without user_id)/.test(line),
      );
    expect(refusals).toEqual([]);
  });
});
