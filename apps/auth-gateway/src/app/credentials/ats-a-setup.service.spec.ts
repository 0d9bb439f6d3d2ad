import { OutboundGuard } from '@connector/ats-clients';
import type { PostgresDailyQuota, RateLimiter } from '@connector/rate-limiter';
import { loadConfig } from '@connector/service-kit';
import { AuthGatewayConfig } from '../auth-gateway.config';
import { AtsASetupService } from './ats-a-setup.service';

const productionConfig = () =>
  loadConfig(AuthGatewayConfig, {
    NODE_ENV: 'production',
    ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 1).toString('base64')}`,
    REQUEST_SEAL_KEYS: `k1:${Buffer.alloc(32, 2).toString('base64')}`,
    // Production takes no local default for these.
    DATABASE_URL: 'postgres://db.internal/connector',
    RABBITMQ_URL: 'amqps://mq.internal',
    RABBITMQ_USERS:
      'connector-registry:cr,auth-gateway:ag,vacancy-sync:vs,candidate-sync:cs,document-service:ds',
    ATS_B_CLIENT_ID: 'platform-client',
    ATS_B_CLIENT_SECRET: 'not-a-demo-secret',
    ATS_B_REDIRECT_URI: 'https://connectors.example.com/oauth/ats-b/callback',
  });

describe(AtsASetupService.name, () => {
  const config = productionConfig();
  const guard = new OutboundGuard({ allowance: config.ALLOW_PRIVATE_ADDRESSES });
  const quota = { snapshot: jest.fn() } as unknown as PostgresDailyQuota;
  // The connection-test limit always grants here: these tests are about the URL checks after it.
  const limiter = { acquire: jest.fn().mockResolvedValue({}) } as unknown as RateLimiter;
  const sut = new AtsASetupService(config, guard, quota, limiter);
  afterAll(() => guard.close());
  const atsA = (baseUrl: string) => ({ baseUrl, clientId: 'id', clientSecret: 'secret' });

  it.each([
    ['http://acme.example.com', /https/],
    ['https://127.0.0.1', /private|loopback|not allowed/i],
    ['https://169.254.169.254', /metadata address that the connector may not call/],
    ['https://[::ffff:0:10.0.0.1]', /translated address/],
    ['https://[2001::a00:1]', /tunnel address/],
    ['not a url', /./],
  ])('refuses %s before calling anything', async (baseUrl, message) => {
    const reply = await sut.test('acct', atsA(baseUrl));
    expect(reply).toEqual({
      ok: false,
      error: { code: 'INVALID_URL', message: expect.stringMatching(message) },
    });
  });
});
