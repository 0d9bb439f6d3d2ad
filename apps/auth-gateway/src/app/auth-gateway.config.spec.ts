import { ConfigError, loadConfig, LOCAL_REQUEST_SEAL_KEYS } from '@connector/service-kit';
import { atsBAdapter } from '@connector/ats-b';
import { AuthGatewayConfig } from './auth-gateway.config';
import { atsSettingsOf } from './ats-settings';

describe('AuthGatewayConfig in production', () => {
  it('refuses to start on local defaults, naming every variable production needs', () => {
    let error: unknown;
    try {
      loadConfig(AuthGatewayConfig, { NODE_ENV: 'production' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    for (const name of [
      'DATABASE_URL',
      'RABBITMQ_URL',
      'RABBITMQ_USERS',
      'ENCRYPTION_KEYS',
      'REQUEST_SEAL_KEYS',
      'ATS_B_CLIENT_ID',
      'ATS_B_CLIENT_SECRET',
      'ATS_B_REDIRECT_URI',
    ]) {
      expect(message).toContain(`${name} is required when NODE_ENV=production`);
    }
    expect(message).not.toContain('platform-secret');
    expect(message).not.toContain(LOCAL_REQUEST_SEAL_KEYS);
  });

  it('starts with them', () => {
    const config = loadConfig(AuthGatewayConfig, {
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://db.internal/connector',
      RABBITMQ_URL: 'amqps://mq.internal',
      RABBITMQ_USERS:
        'connector-registry:cr,auth-gateway:ag,vacancy-sync:vs,candidate-sync:cs,document-service:ds',
      ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 7).toString('base64')}`,
      REQUEST_SEAL_KEYS: `k1:${Buffer.alloc(32, 8).toString('base64')}`,
      ATS_B_CLIENT_ID: 'client',
      ATS_B_CLIENT_SECRET: 'secret',
      ATS_B_REDIRECT_URI: 'https://connectors.example.com/oauth/ats-b/callback',
    });
    // ATS-B's OAuth client: its adapter's settings, under the names deployments set.
    expect(atsSettingsOf(config, atsBAdapter)).toMatchObject({
      ATS_B_CLIENT_SECRET: 'secret',
      ATS_B_AUTHORIZE_URL: '',
    });
  });
});

describe('AuthGatewayConfig ALLOW_PRIVATE_ADDRESSES', () => {
  const keys = { ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 7).toString('base64')}` };

  it('is none unless set, whatever NODE_ENV says (no environment name turns the SSRF guard off)', () => {
    for (const env of [
      { ...keys, NODE_ENV: 'development' },
      { ...keys, NODE_ENV: 'test' },
    ]) {
      expect(loadConfig(AuthGatewayConfig, env).ALLOW_PRIVATE_ADDRESSES).toBe('none');
    }
    expect(
      loadConfig(AuthGatewayConfig, { NODE_ENV: 'test', ...keys, ALLOW_PRIVATE_ADDRESSES: 'loopback' })
        .ALLOW_PRIVATE_ADDRESSES,
    ).toBe('loopback');
  });

  it('refuses a value it does not know, naming the variable', () => {
    expect(() =>
      loadConfig(AuthGatewayConfig, { NODE_ENV: 'test', ...keys, ALLOW_PRIVATE_ADDRESSES: 'true' }),
    ).toThrow(/ALLOW_PRIVATE_ADDRESSES must be one of the following values: none, loopback, private/);
  });
});
