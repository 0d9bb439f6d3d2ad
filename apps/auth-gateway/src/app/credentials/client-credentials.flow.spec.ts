import { randomUUID } from 'node:crypto';
import { OutboundGuard } from '@connector/ats-http';
import { AtsRegistry } from '@connector/ats-core';
import { atsRegistry } from '@connector/ats-registry';
import {
  FAKE_ATS,
  FAKE_ATS_GOOD_KEY,
  fakeAtsAdapter,
  fakeAtsClientCredentials,
} from '@connector/ats-testing';
import { AuthErrorCode, createEvent, type EventEnvelope, RoutingKey } from '@connector/contracts';
import type { PostgresDailyQuota, RateLimiter } from '@connector/rate-limiter';
import { LOCAL_REQUEST_SEAL_KEYS, loadConfig, RequestSeal } from '@connector/service-kit';
import { AuthGatewayConfig } from '../auth-gateway.config';
import { ClientCredentialsFlow } from './client-credentials.flow';
import { CredentialsSaveHandler } from './credentials-save.handler';
import type { CredentialsService } from './credentials.service';

const productionConfig = () =>
  loadConfig(AuthGatewayConfig, {
    NODE_ENV: 'production',
    ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 1).toString('base64')}`,
    REQUEST_SEAL_KEYS: LOCAL_REQUEST_SEAL_KEYS,
    // Production takes no local default for these.
    DATABASE_URL: 'postgres://db.internal/connector',
    RABBITMQ_URL: 'amqps://mq.internal',
    RABBITMQ_USERS:
      'connector-registry:cr,auth-gateway:ag,vacancy-sync:vs,candidate-sync:cs,document-service:ds',
    ATS_B_CLIENT_ID: 'platform-client',
    ATS_B_CLIENT_SECRET: 'not-a-demo-secret',
    ATS_B_REDIRECT_URI: 'https://connectors.example.com/oauth/ats-b/callback',
  });

describe(ClientCredentialsFlow.name, () => {
  const config = productionConfig();
  const guard = new OutboundGuard({ allowance: config.ALLOW_PRIVATE_ADDRESSES });
  const quota = { snapshot: jest.fn() } as unknown as PostgresDailyQuota;
  // The connection-test limit always grants here: these tests are about what comes after it.
  const limiter = { acquire: jest.fn().mockResolvedValue({}) } as unknown as RateLimiter;
  const seal = RequestSeal.fromEnv(LOCAL_REQUEST_SEAL_KEYS);
  afterAll(() => guard.close());

  /** A set-up request as connector-registry builds it: `secretFields` sealed for this very request. */
  const request = (
    routingKey: string,
    data: { type: string; connectorId?: string; config: Record<string, unknown> },
    secretFields: readonly string[],
  ): EventEnvelope<string, typeof data> => {
    const id = randomUUID();
    const scope = { type: routingKey, accountId: 'acct', requestId: id, connectorId: data.connectorId };
    const config = { ...data.config };
    for (const field of secretFields) config[field] = seal.seal(String(config[field]), scope);
    return createEvent(routingKey, 'acct', { ...data, config }, { id });
  };

  describe('with the registered ATSs', () => {
    const sut = new ClientCredentialsFlow(config, guard, quota, limiter, seal, atsRegistry);
    const atsA = (baseUrl: string) =>
      request(
        RoutingKey.AuthConnectionTest,
        { type: 'ats-a', config: { baseUrl, clientId: 'id', clientSecret: 'secret' } },
        ['clientSecret'],
      );

    it.each([
      ['http://acme.example.com', /https/],
      ['https://127.0.0.1', /private|loopback|not allowed/i],
      ['https://169.254.169.254', /metadata address that the connector may not call/],
      ['https://[::ffff:0:10.0.0.1]', /translated address/],
      ['https://[2001::a00:1]', /tunnel address/],
      ['not a url', /./],
    ])('refuses %s before calling anything', async (baseUrl, message) => {
      const reply = await sut.test('acct', sut.open(atsA(baseUrl)));
      expect(reply).toEqual({
        ok: false,
        error: { code: 'INVALID_URL', message: expect.stringMatching(message) },
      });
    });

    it('has the set-up of every registered ATS that declares client-credentials', () => {
      const types = atsRegistry.typesWith('client-credentials');
      expect(types.filter((type) => !atsRegistry.get(type).clientCredentials)).toEqual([]);
      expect(types).not.toEqual([]);
    });

    it('refuses, INVALID_REQUEST, an ATS without client credentials or not registered', () => {
      for (const type of [...atsRegistry.types().filter((t) => t !== 'ats-a'), 'nobody']) {
        const other = request(RoutingKey.AuthConnectionTest, { type, config: {} }, []);
        expect(() => sut.open(other)).toThrow(
          expect.objectContaining({
            code: AuthErrorCode.InvalidRequest,
            message: `type must be one of the following values: ${atsRegistry.typesWith('client-credentials').join(', ')}`,
          }),
        );
      }
    });
  });

  describe('a third ATS from its own folder (the throwaway fake ATS), with no change to auth-gateway', () => {
    const registry = new AtsRegistry(atsRegistry.all());
    registry.register({
      ...fakeAtsAdapter,
      capabilities: [...fakeAtsAdapter.capabilities, 'client-credentials'],
      clientCredentials: fakeAtsClientCredentials,
    });
    const sut = new ClientCredentialsFlow(config, guard, quota, limiter, seal, registry);
    const fake = (routingKey: string, apiKey: string, connectorId?: string) =>
      request(routingKey, { type: FAKE_ATS, ...(connectorId ? { connectorId } : {}), config: { apiKey } }, [
        'apiKey',
      ]);

    it('tests its credentials with its own steps and words', async () => {
      await expect(
        sut.test('acct', sut.open(fake(RoutingKey.AuthConnectionTest, FAKE_ATS_GOOD_KEY))),
      ).resolves.toEqual({ ok: true });
      await expect(sut.test('acct', sut.open(fake(RoutingKey.AuthConnectionTest, 'wrong')))).resolves.toEqual(
        {
          ok: false,
          error: { code: AuthErrorCode.AuthFailed, message: 'The Fake ATS refused the API key.' },
        },
      );
    });

    it('saves them: the secret opened from its seal, stored under its type', async () => {
      const store = jest.fn().mockResolvedValue(undefined);
      const credentials = {
        requireOwner: jest.fn().mockResolvedValue(undefined),
        store,
      } as unknown as CredentialsService;
      const handler = new CredentialsSaveHandler(credentials, sut);
      const save = fake(RoutingKey.AuthCredentialsSave, FAKE_ATS_GOOD_KEY, 'c1');
      const saved = await handler.handle({ ...save, data: { ...save.data, connectorId: 'c1' } });
      expect(saved).toEqual({ baseUrl: '', openStatuses: ['open'] });
      expect(store).toHaveBeenCalledWith(
        expect.objectContaining({
          connectorId: 'c1',
          accountId: 'acct',
          atsType: FAKE_ATS,
          secret: FAKE_ATS_GOOD_KEY,
        }),
      );
    });

    it('refuses its secret in clear, and a config its own class refuses, before any step', () => {
      const clear = createEvent(RoutingKey.AuthConnectionTest, 'acct', {
        type: FAKE_ATS,
        config: { apiKey: FAKE_ATS_GOOD_KEY },
      });
      expect(() => sut.open(clear)).toThrow(
        expect.objectContaining({
          code: AuthErrorCode.InvalidRequest,
          message: 'config.apiKey must be sealed (REQUEST_SEAL_KEYS), never sent in clear',
        }),
      );
      expect(() => sut.open(fake(RoutingKey.AuthConnectionTest, ''))).toThrow(
        expect.objectContaining({
          code: AuthErrorCode.InvalidRequest,
          message: 'config.apiKey should not be empty',
        }),
      );
    });
  });
});
