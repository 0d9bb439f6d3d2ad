import { ConfigError, loadConfig } from '@connector/service-kit';
import { ConnectorRegistryConfig } from './connector-registry.config';

describe('ConnectorRegistryConfig in production', () => {
  it('requires ADMIN_API_KEYS and the addresses of Postgres and RabbitMQ', () => {
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
    // One line per variable: the format complaint about the empty default is not repeated.
    expect(message).not.toContain('ADMIN_API_KEYS must be');
  });
});
