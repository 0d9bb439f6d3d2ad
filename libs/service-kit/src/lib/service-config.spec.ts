import { IsString, MinLength } from 'class-validator';
import { ConfigError, loadConfig, ServiceConfig } from './service-config';

class TestConfig extends ServiceConfig {
  @IsString() @MinLength(32) ENCRYPTION_KEY = '';
}

describe(loadConfig.name, () => {
  const key = 'k'.repeat(32);

  it('uses defaults and converts types', () => {
    const config = loadConfig(TestConfig, { ENCRYPTION_KEY: key, PORT: '4001' });
    expect(config.PORT).toBe(4001);
    expect(config.RABBITMQ_URL).toBe('amqp://guest:guest@127.0.0.1:5672');
    expect(config).toBeInstanceOf(TestConfig);
  });

  it('names every bad variable without echoing its value', () => {
    let error: unknown;
    try {
      loadConfig(TestConfig, { ENCRYPTION_KEY: 'short-secret', PORT: 'abc', DATABASE_URL: 'mysql://x' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toMatch(/ENCRYPTION_KEY must be longer than or equal to 32 characters/);
    expect(message).toMatch(/PORT must be an integer/);
    expect(message).toMatch(/DATABASE_URL must be a postgres:\/\/ URL/);
    expect(message).not.toContain('short-secret');
  });
});
