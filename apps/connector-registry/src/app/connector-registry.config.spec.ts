import { ConfigError, loadConfig } from '@connector/service-kit';
import { ConnectorRegistryConfig } from './connector-registry.config';

describe('ConnectorRegistryConfig in production', () => {
  it('requires ADMIN_API_KEYS, REQUEST_SEAL_KEYS and the addresses of Postgres and RabbitMQ', () => {
    let error: unknown;
    try {
      loadConfig(ConnectorRegistryConfig, { NODE_ENV: 'production' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toContain('ADMIN_API_KEYS is required when NODE_ENV=production');
    expect(message).toContain('DATABASE_URL is required when NODE_ENV=production');
    expect(message).toContain('RABBITMQ_URL is required when NODE_ENV=production');
    expect(message).toContain('RABBITMQ_USERS is required when NODE_ENV=production');
    // The local key is published: production never seals with it.
    expect(message).toContain('REQUEST_SEAL_KEYS is required when NODE_ENV=production');
    // One line per variable: the format complaint about the empty default is not repeated.
    expect(message).not.toContain('ADMIN_API_KEYS must be');
  });
});

describe('ConnectorRegistryConfig run history', () => {
  const KEYS = { NODE_ENV: 'test', ADMIN_API_KEYS: 'acct_1:some-key' };
  it('keeps 30 days and 500 runs a connector unless told, and refuses a history shorter than the admin page', () => {
    const config = loadConfig(ConnectorRegistryConfig, KEYS);
    expect([config.RUN_HISTORY_DAYS, config.RUN_HISTORY_PER_CONNECTOR]).toEqual([30, 500]);
    expect(() => loadConfig(ConnectorRegistryConfig, { ...KEYS, RUN_HISTORY_PER_CONNECTOR: '5' })).toThrow(
      /RUN_HISTORY_PER_CONNECTOR must not be less than 20/,
    );
    expect(() => loadConfig(ConnectorRegistryConfig, { ...KEYS, RUN_HISTORY_DAYS: 'forever' })).toThrow(
      /RUN_HISTORY_DAYS/,
    );
  });
});
