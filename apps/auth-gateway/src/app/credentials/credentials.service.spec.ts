import { randomBytes } from 'node:crypto';
import { register } from 'prom-client';
import { AtsError, outboundGuard } from '@connector/ats-http';
import { AtsBCredentialIssuer, type AtsBOAuthClient, type AtsBTokenSet } from '@connector/ats-b';
import type { CredentialIssuer, IssuedAccess } from '@connector/ats-core';
import type { EventEnvelope } from '@connector/contracts';
import type { OutboxMessage, OutboxRelay } from '@connector/persistence';
import { RateLimiterErrorCode, RateLimitExceededError } from '@connector/rate-limiter';
import { atsRegistry } from '@connector/ats-registry';
import { credentialBinding } from '../crypto/seal-binding';
import { SecretBox } from '../crypto/secret-box';
import type { ConnectorCredentialEntity } from './connector-credential.entity';
import type { CredentialsRepository, LeasedCredential } from './credentials.repository';
import { CredentialsService, REFRESH_IN_FLIGHT_MS } from './credentials.service';
import { OperatorAlert, OperatorAlerts } from './operator-alerts';

/** One row in memory, with the same lease handle shape the Postgres repository gives. */
class MemoryCredentials {
  row: ConnectorCredentialEntity | null = null;
  /** What was written to the outbox, each with the change it announces. */
  announced: EventEnvelope[] = [];
  find = async () => (this.row ? { ...this.row } : null);
  update = async (_id: string, changes: Partial<ConnectorCredentialEntity>) => {
    if (this.row) this.row = { ...this.row, ...changes };
  };
  save = async (row: ConnectorCredentialEntity) => {
    this.row = { ...row };
  };
  delete = async () => {
    this.row = null;
  };
  markInUse = async () => {
    if (this.row) this.row = { ...this.row, inUse: true };
  };
  withRenewalLease = async <T>(
    _id: string,
    work: (locked: LeasedCredential, row: ConnectorCredentialEntity) => Promise<T>,
  ) => ({
    leased: true as const,
    value: await work(
      {
        find: this.find,
        update: async (changes, announce: OutboxMessage[] = []) => {
          await this.update(_id, changes);
          this.announced.push(...announce.map((m) => m.envelope));
        },
        saveRotation: async (changes, marker) => {
          if (this.row?.refreshMarker !== marker) throw new Error('marker lost');
          await this.update(_id, changes);
        },
      },
      // The claim answers the row as it is.
      { ...this.row! },
    ),
  });
}

/** Longer ago than any refresh can still be running. */
const longAgo = () => new Date(Date.now() - REFRESH_IN_FLIGHT_MS - 1_000);

const oauthError = (code: string, status: number) =>
  new AtsError(`ATS-B answered ${code}`, { kind: 'auth', endpoint: 'POST /oauth/token', status, code });

describe(CredentialsService.name, () => {
  const keyK1 = randomBytes(32).toString('base64');
  const secrets = SecretBox.fromEnv(`k1:${keyK1}`);
  let store: MemoryCredentials;
  let outbox: { wake: jest.Mock };
  /** The status changes announced through the outbox. */
  const published = () => store.announced;
  let alerts: OperatorAlerts;
  let oauth: { refresh: jest.Mock; login: jest.Mock; checkDataCentre: jest.Mock };
  let atsA: { renew: jest.Mock };

  const build = () => {
    const atsAIssuer: CredentialIssuer = {
      atsType: 'ats-a',
      renew: (...args) => atsA.renew(...args) as Promise<IssuedAccess>,
      revalidate: async () => undefined,
      toAtsAccess: (input, access, expiresAt) => ({
        type: 'ats-a',
        baseUrl: input.baseUrl ?? '',
        accessToken: access.accessToken,
        expiresAt: expiresAt.toISOString(),
      }),
      fingerprintOf: (access) => access.accessToken,
    };
    return new CredentialsService(
      store as unknown as CredentialsRepository,
      secrets,
      [atsAIssuer, new AtsBCredentialIssuer(oauth as unknown as AtsBOAuthClient, outboundGuard())],
      outbox as unknown as OutboxRelay,
      alerts,
      { CREDENTIAL_RECHECK_SECONDS: 300 },
      atsRegistry,
    );
  };

  beforeEach(() => {
    store = new MemoryCredentials();
    outbox = { wake: jest.fn() };
    alerts = new OperatorAlerts();
    oauth = { refresh: jest.fn(), login: jest.fn(), checkDataCentre: jest.fn() };
    atsA = { renew: jest.fn() };
  });

  const storeAtsB = async (sut: CredentialsService) =>
    sut.store({ connectorId: 'c1', accountId: 'acct', atsType: 'ats-b', secret: 'rt-1' });
  /** The ATS-B row's binding: no address or client id of its own. */
  const atsBRow = { connectorId: 'c1', atsType: 'ats-b', baseUrl: null, clientId: null };
  const storedSecret = () =>
    store.row?.secret ? secrets.open(store.row.secret, credentialBinding(store.row, 'secret')) : null;
  const tokens = (refreshToken: string): AtsBTokenSet => ({
    accessToken: `at-${refreshToken}`,
    refreshToken,
    expiresInSeconds: 600,
    oauthUrl: 'https://auth.bullhornstaffing.com/oauth',
  });

  it("gives another account's request nothing: an unknown connector, no renewal, no erasure", async () => {
    const sut = build();
    await storeAtsB(sut);
    await expect(sut.getAccessFor('acct_other', 'c1')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(oauth.refresh).not.toHaveBeenCalled();
    await expect(sut.requireOwner('acct_other', 'c1')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(sut.eraseFor('acct_other', 'c1')).resolves.toBe(false);
    expect(storedSecret()).toBe('rt-1');
  });

  it("serves and erases the connector's own account", async () => {
    const sut = build();
    await storeAtsB(sut);
    oauth.refresh.mockResolvedValue(tokens('rt-2'));
    oauth.login.mockResolvedValue({ bhRestToken: 'bh', restUrl: 'https://rest/x/' });
    await expect(sut.getAccessFor('acct', 'c1')).resolves.toMatchObject({ type: 'ats-b', bhRestToken: 'bh' });
    await expect(sut.requireOwner('acct', 'c-new')).resolves.toBeUndefined();
    await expect(sut.eraseFor('acct', 'c1')).resolves.toBe(true);
    expect(store.row).toBeFalsy();
  });

  it('records the in-flight marker before the refresh token is spent, and clears it with the rotated one', async () => {
    const sut = build();
    await storeAtsB(sut);
    oauth.refresh.mockImplementation(async () => {
      expect(store.row?.refreshMarker).toEqual(expect.any(String));
      return tokens('rt-2');
    });
    oauth.login.mockResolvedValue({ bhRestToken: 'bh', restUrl: 'https://rest/x/' });
    await expect(sut.getAccess('c1')).resolves.toMatchObject({ type: 'ats-b', bhRestToken: 'bh' });
    expect(storedSecret()).toBe('rt-2');
    expect(store.row).toMatchObject({ state: 'active', refreshMarker: null });
  });

  it('keeps the rotated refresh token when the old one was sealed under an older key', async () => {
    const oldKey = `k0:${randomBytes(32).toString('base64')}`;
    const before = SecretBox.fromEnv(oldKey);
    const sut = build();
    await storeAtsB(sut);
    await store.update('c1', { secret: before.seal('rt-1', credentialBinding(atsBRow, 'secret')) });
    // The gateway now seals with k1 and still opens k0.
    const rotatedBox = SecretBox.fromEnv(`k1:${keyK1},${oldKey}`);
    const withRotation = new CredentialsService(
      store as unknown as CredentialsRepository,
      rotatedBox,
      [new AtsBCredentialIssuer(oauth as unknown as AtsBOAuthClient, outboundGuard())],
      outbox as unknown as OutboxRelay,
      alerts,
      { CREDENTIAL_RECHECK_SECONDS: 300 },
      atsRegistry,
    );
    oauth.refresh.mockResolvedValue(tokens('rt-2'));
    oauth.login.mockResolvedValue({ bhRestToken: 'bh', restUrl: 'https://rest/x/' });
    await withRotation.getAccess('c1');
    expect(store.row?.secret?.kid).toBe('k1');
    expect(rotatedBox.open(store.row!.secret!, credentialBinding(atsBRow, 'secret'))).toBe('rt-2');
  });

  it('keeps every refresh token and alerts the operator when ATS-B refuses the platform client (invalid_client)', async () => {
    const sut = build();
    await storeAtsB(sut);
    oauth.refresh.mockRejectedValue(oauthError('invalid_client', 401));
    await expect(sut.getAccess('c1')).rejects.toMatchObject({ code: 'ATS_ERROR' });
    expect(storedSecret()).toBe('rt-1');
    expect(store.row).toMatchObject({ state: 'active', refreshMarker: null });
    expect(alerts.count(OperatorAlert.OAuthClientRejected)).toBe(1);
    expect(published()).toEqual([]);
  });

  it('ends the authorization on invalid_grant: auth_failed announced with the change, the dead token gone, the row kept', async () => {
    const sut = build();
    await storeAtsB(sut);
    oauth.refresh.mockRejectedValue(oauthError('invalid_grant', 400));
    await expect(sut.getAccess('c1')).rejects.toMatchObject({ code: 'AUTHORIZATION_REQUIRED' });
    expect(store.row).toMatchObject({ state: 'authorization_required', secret: null, accountId: 'acct' });
    expect(published()).toEqual([
      expect.objectContaining({
        accountId: 'acct',
        data: { connectorId: 'c1', status: 'auth_failed', reason: 'auth_failed' },
      }),
    ]);
    expect(outbox.wake).toHaveBeenCalled(); // the relay publishes it now, or once the broker is back
    expect(alerts.count(OperatorAlert.RefreshLostInFlight)).toBe(0);
  });

  it('alerts instead of wiping when invalid_grant follows a refresh that never finished', async () => {
    const sut = build();
    await storeAtsB(sut);
    // An earlier process spent the token and died before storing the answer: its marker is still there,
    // older than any refresh can run.
    await store.update('c1', { refreshMarker: 'earlier', refreshStartedAt: longAgo() });
    oauth.refresh.mockRejectedValue(oauthError('invalid_grant', 400));
    await expect(sut.getAccess('c1')).rejects.toMatchObject({ code: 'AUTHORIZATION_REQUIRED' });
    expect(alerts.count(OperatorAlert.RefreshLostInFlight)).toBe(1);
    expect(storedSecret()).toBe('rt-1');
    expect(store.row?.state).toBe('authorization_required');
  });

  it('does not spend the refresh token while another process may still be refreshing it (its marker is fresh)', async () => {
    const sut = build();
    await storeAtsB(sut);
    // Process A marked its refresh and sent rt-1; its lock connection dropped, so this process got the lock.
    await store.update('c1', {
      refreshMarker: 'process-a',
      refreshStartedAt: new Date(Date.now() - REFRESH_IN_FLIGHT_MS + 5_000),
    });
    oauth.refresh.mockRejectedValue(oauthError('invalid_grant', 400));
    await expect(sut.getAccess('c1')).rejects.toMatchObject({
      code: 'ATS_ERROR',
      message: expect.stringContaining('in progress'),
    });
    expect(oauth.refresh).not.toHaveBeenCalled();
    // Nothing of A's refresh is touched: its rotated token can still be stored under its marker.
    expect(store.row).toMatchObject({ state: 'active', refreshMarker: 'process-a' });
    expect(storedSecret()).toBe('rt-1');
    expect(alerts.count(OperatorAlert.RefreshLostInFlight)).toBe(0);
  });

  it('keeps the marker when the refresh ends without a clear refusal (a 502), so a later invalid_grant alerts', async () => {
    const sut = build();
    await storeAtsB(sut);
    oauth.refresh.mockRejectedValueOnce(
      new AtsError('bad gateway', { kind: 'transient', endpoint: 'POST /oauth/token', status: 502 }),
    );
    await expect(sut.getAccess('c1')).rejects.toMatchObject({ code: 'ATS_ERROR' });
    expect(store.row?.refreshMarker).toEqual(expect.any(String));
    // Once no refresh can still be running, the marker is one whose answer was lost.
    await store.update('c1', { refreshStartedAt: longAgo() });
    oauth.refresh.mockRejectedValueOnce(oauthError('invalid_grant', 400));
    await expect(sut.getAccess('c1')).rejects.toMatchObject({ code: 'AUTHORIZATION_REQUIRED' });
    expect(alerts.count(OperatorAlert.RefreshLostInFlight)).toBe(1);
    expect(storedSecret()).toBe('rt-1');
  });

  it('answers RATE_LIMITED when ATS-B limits the token endpoint, and frees the refresh token it did not spend', async () => {
    const sut = build();
    await storeAtsB(sut);
    oauth.refresh.mockRejectedValueOnce(
      new AtsError('ATS-B POST /oauth/token answered 429', {
        kind: 'rate_limited',
        endpoint: 'POST /oauth/token',
        status: 429,
        retryAt: new Date(Date.now() + 1_000),
      }),
    );
    await expect(sut.getAccess('c1')).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    // A 429 is a refusal: the token was not spent, so the next try may spend it at once.
    expect(store.row).toMatchObject({ refreshMarker: null, state: 'active' });
    expect(storedSecret()).toBe('rt-1');
  });

  it('never wipes the refresh token just saved when the REST login right after the refresh answers 401', async () => {
    const sut = build();
    await storeAtsB(sut);
    oauth.refresh.mockResolvedValue(tokens('rt-2'));
    oauth.login.mockRejectedValueOnce(
      new AtsError('401', { kind: 'auth', endpoint: 'POST /rest-services/login', status: 401 }),
    );
    await expect(sut.getAccess('c1')).rejects.toMatchObject({ code: 'ATS_ERROR' });
    expect(storedSecret()).toBe('rt-2');
    expect(store.row?.state).toBe('active');
    expect(published()).toEqual([]);
    // The next request logs in with the access token that came with it: no second refresh is spent.
    oauth.login.mockResolvedValue({ bhRestToken: 'bh', restUrl: 'https://rest/x/' });
    await expect(sut.getAccess('c1')).resolves.toMatchObject({ bhRestToken: 'bh' });
    expect(oauth.refresh).toHaveBeenCalledTimes(1);
    expect(oauth.login).toHaveBeenLastCalledWith('at-rt-2', undefined);
  });

  it('never erases an ATS-A secret the ATS refuses: auth_failed, kept, and connected again once it is accepted', async () => {
    const sut = build();
    await sut.store({
      connectorId: 'c1',
      accountId: 'acct',
      atsType: 'ats-a',
      baseUrl: 'https://ats',
      clientId: 'id',
      secret: 'client-secret',
    });
    atsA.renew.mockRejectedValue(
      new AtsError('maintenance', {
        kind: 'auth',
        endpoint: 'POST /api/token',
        status: 400,
        code: 'invalid_client',
      }),
    );
    await expect(sut.getAccess('c1')).rejects.toMatchObject({ code: 'AUTHORIZATION_REQUIRED' });
    expect(storedSecret()).toBe('client-secret');
    expect(store.row).toMatchObject({ state: 'rejected', recheckAt: expect.any(Date) });
    expect(published().map((e) => (e.data as { status: string }).status)).toEqual(['auth_failed']);

    // Before the re-check time nobody calls the ATS; after it, an accepted secret brings the connector back.
    await expect(sut.getAccess('c1')).rejects.toMatchObject({ code: 'AUTHORIZATION_REQUIRED' });
    expect(atsA.renew).toHaveBeenCalledTimes(1);
    await store.update('c1', { recheckAt: new Date(Date.now() - 1) });
    const expiresAt = new Date(Date.now() + 3_600_000);
    atsA.renew.mockResolvedValue({
      access: { accessToken: 'tok', accessTokenExpiresAt: expiresAt.toISOString() },
      expiresAt,
    });
    await expect(sut.getAccess('c1')).resolves.toMatchObject({ type: 'ats-a', accessToken: 'tok' });
    expect(store.row).toMatchObject({ state: 'active', recheckAt: null });
    expect(published().map((e) => (e.data as { status: string }).status)).toEqual([
      'auth_failed',
      'connected',
    ]);
  });

  it('answers RATE_LIMITED, not a failure, when an ATS-A token call met 429 or found no budget; the secret stays active', async () => {
    const sut = build();
    await sut.store({
      connectorId: 'c1',
      accountId: 'acct',
      atsType: 'ats-a',
      baseUrl: 'https://ats',
      clientId: 'id',
      secret: 'client-secret',
    });
    const reset = new Date(Date.now() + 120_000);
    atsA.renew.mockRejectedValueOnce(
      new AtsError('ATS-A POST /api/token answered 429', {
        kind: 'rate_limited',
        endpoint: 'POST /api/token',
        status: 429,
        retryAt: reset,
      }),
    );
    await expect(sut.getAccess('c1')).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    atsA.renew.mockRejectedValueOnce(
      new RateLimitExceededError(RateLimiterErrorCode.Paused, 'ats-a:https://ats', reset),
    );
    await expect(sut.getAccess('c1')).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringContaining(reset.toISOString()),
    });
    expect(store.row).toMatchObject({ state: 'active' });
    expect(storedSecret()).toBe('client-secret');
    expect(published()).toEqual([]);
  });

  it('counts renewals by ATS and outcome: renewed, rejected (a login is needed), failed', async () => {
    const count = async (outcome: string) => {
      const metric = register.getSingleMetric('connector_oauth_refreshes_total');
      const values = metric ? (await metric.get()).values : [];
      return values.find((v) => v.labels['ats'] === 'ats-b' && v.labels['outcome'] === outcome)?.value ?? 0;
    };
    const before = {
      renewed: await count('renewed'),
      rejected: await count('rejected'),
      failed: await count('failed'),
    };
    oauth.login.mockResolvedValue({ bhRestToken: 'bh', restUrl: 'https://rest/x/' });
    oauth.refresh.mockResolvedValueOnce(tokens('rt-2'));
    const sut = build();
    await storeAtsB(sut);
    await sut.getAccess('c1');
    await storeAtsB(sut);
    oauth.refresh.mockRejectedValueOnce(oauthError('invalid_client', 401));
    await expect(sut.getAccess('c1')).rejects.toMatchObject({ code: 'ATS_ERROR' });
    oauth.refresh.mockRejectedValueOnce(oauthError('invalid_grant', 400));
    await expect(sut.getAccess('c1')).rejects.toMatchObject({ code: 'AUTHORIZATION_REQUIRED' });
    expect({
      renewed: (await count('renewed')) - before.renewed,
      rejected: (await count('rejected')) - before.rejected,
      failed: (await count('failed')) - before.failed,
    }).toEqual({ renewed: 1, rejected: 1, failed: 1 });
  });
});
