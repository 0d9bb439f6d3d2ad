import { loadConfig } from '@connector/service-kit';
import { AuthGatewayConfig } from '../auth-gateway.config';
import { AtsASetupService } from './ats-a-setup.service';

const productionConfig = () =>
  loadConfig(AuthGatewayConfig, {
    NODE_ENV: 'production',
    ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 1).toString('base64')}`,
    ATS_ALLOW_INSECURE_HTTP: 'false',
    ATS_ALLOW_PRIVATE_NETWORKS: 'false',
    // Production takes no local default for these.
    DATABASE_URL: 'postgres://db.internal/connector',
    RABBITMQ_URL: 'amqps://mq.internal',
    ATS_B_CLIENT_ID: 'platform-client',
    ATS_B_CLIENT_SECRET: 'not-a-demo-secret',
    ATS_B_REDIRECT_URI: 'https://connectors.example.com/oauth/ats-b/callback',
  });

describe(AtsASetupService.name, () => {
  const sut = new AtsASetupService(productionConfig());
  const config = (baseUrl: string) => ({ baseUrl, clientId: 'id', clientSecret: 'secret' });

  it.each([
    ['http://acme.example.com', /https/],
    ['https://127.0.0.1', /private|loopback|not allowed/i],
    ['https://169.254.169.254', /metadata address that the connector may not call/],
    ['not a url', /./],
  ])('refuses %s before calling anything', async (baseUrl, message) => {
    const reply = await sut.test(config(baseUrl));
    expect(reply).toEqual({
      ok: false,
      error: { code: 'INVALID_URL', message: expect.stringMatching(message) },
    });
  });
});
