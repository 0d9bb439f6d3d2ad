import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { ConsumeMessage } from 'amqplib';
import { startAtsBSandbox, type RunningAtsBSandbox } from '@connector/ats-b-sandbox';
import { driveLoginForm } from '@connector/ats-b-sandbox/testing';
import { createEvent, Exchange, RoutingKey } from '@connector/contracts';
import { setUpVhostBrokerUsers, type VhostBrokerUsers } from '@connector/messaging/testing';
import {
  adminApi,
  createSuiteInfrastructure,
  type FileServer,
  startFileServer,
  startService,
  type ServiceProcess,
  type TestDatabase,
  TestBroker,
  type TestVhost,
  waitForEvent,
  type SuiteInfrastructure,
} from '@connector/testing';

/**
 * A connector change takes effect at once: connector-registry, auth-gateway, candidate-sync and
 * document-service as processes, each as its own broker user (the permissions of production), the platform's
 * events published as the platform's user, the ATS-B sandbox over HTTP. The admin turns "Send Smart CV" on and a Smart
 * CV sent right after the 200 is uploaded, although document-service had the old options in hand a moment
 * before.
 */
const KEY = `key-${randomBytes(6).toString('hex')}`;
const ACCOUNT = 'acct_changes';
const USER_PASSWORD = `pass-${randomBytes(6).toString('hex')}`;

describe('connector changes reach every worker at once', () => {
  let vhost: TestVhost;
  let database: TestDatabase;
  let atsB: RunningAtsBSandbox;
  let broker: TestBroker;
  let platform: TestBroker;
  let users: VhostBrokerUsers;
  let out: ConsumeMessage[];
  let files: FileServer;
  let registry: ServiceProcess;
  const processes: ServiceProcess[] = [];
  let infra: SuiteInfrastructure;

  const registryApi = adminApi({ baseUrl: () => `${registry.url}/api/v1`, key: KEY });
  const api = (method: string, path: string, body?: unknown) => registryApi(method, path, { body });
  const publish = (type: string, data: object) => {
    const event = createEvent(type, ACCOUNT, data);
    platform.publish(Exchange.PlatformEvents, type, event);
    return event;
  };
  const eventFor = (type: string, sourceId: string) => waitForEvent(() => out, type, sourceId, {}, 30_000);
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
    infra = await createSuiteInfrastructure('e2e_changes');
    ({ vhost, database } = infra);
    atsB = await startAtsBSandbox({ users: [{ username: 'recruiter', password: USER_PASSWORD }] });
    files = await startFileServer();
    broker = await TestBroker.connect();
    out = await broker.tap(Exchange.ConnectorEvents, '#');
    // The workers below retry sooner than production: the broker set-up declares their queues so.
    const retryDelaysMs = [300, 600, 1_000, 2_000];
    users = await setUpVhostBrokerUsers(vhost.url, {
      'document-service': { retryDelaysMs },
      'candidate-sync': { retryDelaysMs },
    });
    platform = await TestBroker.connect(users.urlOf('platform'));

    const env = (service: Parameters<VhostBrokerUsers['envOf']>[0]) => ({
      DATABASE_URL: database.url,
      ...users.envOf(service),
    });
    registry = await startService('connector-registry', {
      ...env('connector-registry'),
      ADMIN_API_KEYS: `${ACCOUNT}:${KEY}`,
    });
    const retries = { RETRY_DELAYS_MS: retryDelaysMs.join(',') };
    processes.push(
      registry,
      await startService('auth-gateway', {
        ...env('auth-gateway'),
        ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
        ATS_B_OAUTH_URL: atsB.oauthUrl,
        ATS_B_REST_LOGIN_URL: atsB.restLoginUrl,
        ATS_B_REDIRECT_URI: `${registry.url}/oauth/ats-b/callback`,
      }),
      await startService('document-service', { ...env('document-service'), ...retries }),
      await startService('candidate-sync', { ...env('candidate-sync'), ...retries }),
    );
  }, 120_000);

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await broker?.close();
    await platform?.close();
    await users?.remove();
    await files?.close();
    await atsB?.close();
    await infra?.drop();
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
    expect(atsB.state.files().filter((f) => f.candidateId === externalId)).toHaveLength(1);
  });

  it('did all of it within the broker permissions: nothing refused, by the broker or by a consumer', () => {
    const refusals = processes
      .flatMap((p) => p.output.map((line) => `${p.name}: ${line}`))
      .filter((line) =>
        /ACCESS_REFUSED|PRECONDITION_FAILED|refused \S+ (from broker user|without user_id)/.test(line),
      );
    expect(refusals).toEqual([]);
  });
});
