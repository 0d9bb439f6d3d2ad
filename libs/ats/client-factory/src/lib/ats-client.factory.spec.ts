import { atsAAdapter } from '@connector/ats-a';
import { outboundGuard } from '@connector/ats-http';
import { atsRegistry } from '@connector/ats-registry';
import { type AtsAdapter, type AtsClientRequest, AtsRegistry } from '@connector/ats-core';
import { AuthErrorCode, type ConnectorSnapshot, credentialFingerprint } from '@connector/contracts';
import { DeferredMessageError, RpcError } from '@connector/messaging';
import { type PostgresDailyQuota, type RateLimiter, RateLimitExceededError } from '@connector/rate-limiter';
import type { AtsAccessProvider } from './ats-access.provider';
import { AtsClientFactory } from './ats-client.factory';
import { toMessageError } from './to-message-error';

describe(AtsClientFactory.name, () => {
  const connector: ConnectorSnapshot = {
    id: 'c1',
    accountId: 'acct_1',
    type: 'ats-a',
    name: 'A',
    status: 'connected',
    options: {},
    // A second copy of the address that disagrees with the one auth-gateway verified and holds.
    config: { baseUrl: 'https://stale.example.com', clientId: 'id' },
    mapping: { version: 1, mapping: {} },
    version: 1,
    updatedAt: '2026-11-23T00:00:00.000Z',
  };
  const limiter = {
    configure: () => undefined,
    acquire: async () => ({ waitedMs: 0 }),
    pauseUntil: async () => undefined,
  } as unknown as RateLimiter;

  // The daily quota always has budget here: this spec is about where the calls go.
  const quota = {
    acquire: async () => ({ waitedMs: 0 }),
    observe: async () => undefined,
    done: async () => undefined,
  } as unknown as PostgresDailyQuota;

  afterEach(() => jest.restoreAllMocks());

  it('calls ATS-A at the address that comes with the access from auth-gateway, not the connector config', async () => {
    const access = {
      access: jest.fn(async () => ({
        type: 'ats-a' as const,
        baseUrl: 'https://acme.example.com',
        accessToken: 'token-1',
        expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
      })),
    } as unknown as AtsAccessProvider;
    const called: string[] = [];
    const guard = outboundGuard();
    jest.spyOn(guard, 'request').mockImplementation(async (url) => {
      called.push(url);
      return {
        status: 200,
        headers: new Headers({ 'content-type': 'application/json' }),
        text: JSON.stringify([{ Id: 1, Description: 'Open' }]),
      };
    });
    const client = new AtsClientFactory(atsRegistry, access, limiter, quota, guard).client(
      atsAAdapter,
      connector,
      {
        priority: 'sync',
      },
    );
    await client.getVacancyStatuses();
    expect(called).toEqual(['https://acme.example.com/api/options/dropdown/50']);
  });

  it('checks the address of every call again: a private one from the gateway is refused before any request', async () => {
    const access = {
      access: jest.fn(async () => ({
        type: 'ats-a' as const,
        baseUrl: 'https://10.0.0.5',
        accessToken: 'token-1',
        expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
      })),
    } as unknown as AtsAccessProvider;
    const guard = outboundGuard();
    const fetched = jest.spyOn(globalThis, 'fetch');
    const requested = jest.spyOn(guard.dispatcher, 'request');
    const client = new AtsClientFactory(atsRegistry, access, limiter, quota, guard).client(
      atsAAdapter,
      connector,
      {
        priority: 'sync',
      },
    );
    await expect(client.getVacancyStatuses()).rejects.toMatchObject({
      kind: 'permanent',
      code: 'blocked_address',
    });
    expect(fetched).not.toHaveBeenCalled();
    expect(requested).not.toHaveBeenCalled();
  });

  it('makes a token refused for budget (the gateway met 429 or a spent quota) a wait until the pause, not a failure', async () => {
    const pausedUntil = Date.now() + 90_000;
    const waits: Date[] = [];
    const pausedQuota = {
      ...quota,
      snapshot: async () => ({ pausedUntil, resumesAt: pausedUntil, resetAt: pausedUntil }),
      waiting: async (_key: string, _id: string, _kind: string, until: Date) => {
        waits.push(until);
      },
    } as unknown as PostgresDailyQuota;
    const access = {
      access: jest.fn(async () => {
        throw new RpcError(AuthErrorCode.RateLimited, 'POST /api/token answered 429');
      }),
    } as unknown as AtsAccessProvider;
    const client = new AtsClientFactory(atsRegistry, access, limiter, pausedQuota, outboundGuard()).client(
      atsAAdapter,
      connector,
      {
        priority: 'push',
        waiter: { id: 'message-1', kind: 'message' },
      },
    );
    const error = await client.getVacancyStatuses().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitExceededError);
    expect((error as RateLimitExceededError).retryAt.getTime()).toBe(pausedUntil);
    expect(waits.map((d) => d.getTime())).toEqual([pausedUntil]);
    const decision = toMessageError(error, connector.id);
    expect(decision).toBeInstanceOf(DeferredMessageError);
    expect((decision as DeferredMessageError).until.getTime()).toBe(pausedUntil);
  });

  it("builds a third ATS's client from its adapter alone, with its access and its budget", async () => {
    // A third ATS, in a registry of this test's own (ats-testing's fake imports this lib, which may not import it back).
    class ThirdClient {
      constructor(readonly request: AtsClientRequest) {}
      callKey = async (rejected?: string) => (await this.request.access(rejected))['apiKey'];
    }
    const third: AtsAdapter = {
      ...atsRegistry.get('ats-b'),
      type: 'third',
      label: 'Third',
      capabilities: ['candidates'],
      budget: () => ({
        kind: 'token-bucket',
        key: 'third',
        bucket: { capacity: 1, refillPerSecond: 1, reserve: 0 },
      }),
      makeClients: () => (request) => new ThirdClient(request),
    };
    const access = {
      access: jest.fn(async () => ({ type: 'third', expiresAt: '2030-01-01T00:00:00Z', apiKey: 'key-2' })),
    } as unknown as AtsAccessProvider;
    const registry = new AtsRegistry([...atsRegistry.all(), third]);
    const factory = new AtsClientFactory(registry, access, limiter, quota, outboundGuard());

    const client = factory.for({ ...connector, id: 'c3', type: 'third' }, { priority: 'sync' });

    expect(client).toBeInstanceOf(ThirdClient);
    await expect((client as ThirdClient).callKey('key-1')).resolves.toBe('key-2');
    expect(access.access).toHaveBeenCalledWith('c3', 'acct_1', credentialFingerprint('key-1'));
    expect(await factory.pushBudgetWait({ ...connector, type: 'third' })).toBeUndefined();
  });
});
