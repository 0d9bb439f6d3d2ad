import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IsString, MinLength } from 'class-validator';
import {
  brokerUserProblem,
  ConfigError,
  loadConfig,
  RequiredInProduction,
  requiredInProductionOf,
  ServiceConfig,
} from './service-config';

class TestConfig extends ServiceConfig {
  @IsString() @MinLength(32) ENCRYPTION_KEY = '';
}

class DemoSecretConfig extends TestConfig {
  @RequiredInProduction() @IsString() CLIENT_SECRET = 'demo-secret';
}

const PER_SERVICE_USERS =
  'connector-registry:cr,auth-gateway:ag,vacancy-sync:vs,candidate-sync:cs,document-service:ds';

function problemsOf(load: () => unknown): string {
  try {
    load();
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe(loadConfig.name, () => {
  const key = 'k'.repeat(32);

  it('applies production rules to a service started without NODE_ENV, saying how to ask for local mode', () => {
    const message = problemsOf(() => loadConfig(TestConfig, { ENCRYPTION_KEY: key }));
    expect(message).toMatch(
      /DATABASE_URL is required when NODE_ENV=production \(no local default there, the default; NODE_ENV=development for local mode\)/,
    );
    expect(message).toMatch(/RABBITMQ_USERS is required when NODE_ENV=production/);
  });

  it('uses defaults and converts types', () => {
    const config = loadConfig(TestConfig, { NODE_ENV: 'test', ENCRYPTION_KEY: key, PORT: '4001' });
    expect(config.PORT).toBe(4001);
    expect(config.RABBITMQ_URL).toBe('amqp://guest:guest@127.0.0.1:5672');
    expect(config).toBeInstanceOf(TestConfig);
  });

  it('names every bad variable without echoing its value', () => {
    let error: unknown;
    try {
      loadConfig(TestConfig, {
        NODE_ENV: 'test',
        ENCRYPTION_KEY: 'short-secret',
        PORT: 'abc',
        DATABASE_URL: 'mysql://x',
      });
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

  it('lists the variables production requires, inherited ones included', () => {
    expect(requiredInProductionOf(DemoSecretConfig)).toEqual([
      'CLIENT_SECRET',
      'DATABASE_URL',
      'RABBITMQ_URL',
      'RABBITMQ_USERS',
    ]);
    expect(requiredInProductionOf(TestConfig)).toEqual(['DATABASE_URL', 'RABBITMQ_URL', 'RABBITMQ_USERS']);
  });

  it('refuses local defaults in production, naming each missing variable and no default value', () => {
    const message = problemsOf(() =>
      loadConfig(DemoSecretConfig, { NODE_ENV: 'production', ENCRYPTION_KEY: key, CLIENT_SECRET: '' }),
    );
    expect(message).toMatch(/DATABASE_URL is required when NODE_ENV=production/);
    expect(message).toMatch(/RABBITMQ_URL is required when NODE_ENV=production/);
    expect(message).toMatch(/RABBITMQ_USERS is required when NODE_ENV=production/);
    expect(message).toMatch(/CLIENT_SECRET is required when NODE_ENV=production/);
    expect(message).not.toContain('demo-secret');
    expect(message).not.toContain('127.0.0.1');
  });

  it('starts in production when every required variable is given', () => {
    const config = loadConfig(DemoSecretConfig, {
      NODE_ENV: 'production',
      ENCRYPTION_KEY: key,
      CLIENT_SECRET: 'real-secret',
      DATABASE_URL: 'postgres://db.internal/connector',
      RABBITMQ_URL: 'amqps://mq.internal',
      RABBITMQ_USERS: PER_SERVICE_USERS,
    });
    expect(config.CLIENT_SECRET).toBe('real-secret');
    expect(config.DATABASE_URL).toBe('postgres://db.internal/connector');
  });

  it('keeps the local defaults outside production', () => {
    const config = loadConfig(DemoSecretConfig, { NODE_ENV: 'test', ENCRYPTION_KEY: key });
    expect(config.CLIENT_SECRET).toBe('demo-secret');
  });

  it('reads <NAME>_FILE when the variable itself is not set, and says when the file cannot be read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'config-'));
    writeFileSync(join(dir, 'key'), `${key}\n`);
    expect(
      loadConfig(TestConfig, { NODE_ENV: 'test', ENCRYPTION_KEY_FILE: join(dir, 'key') }).ENCRYPTION_KEY,
    ).toBe(key);
    expect(
      loadConfig(TestConfig, {
        NODE_ENV: 'test',
        ENCRYPTION_KEY: 'x'.repeat(32),
        ENCRYPTION_KEY_FILE: join(dir, 'key'),
      }).ENCRYPTION_KEY,
    ).toBe('x'.repeat(32));
    expect(
      problemsOf(() =>
        loadConfig(TestConfig, { NODE_ENV: 'test', ENCRYPTION_KEY_FILE: join(dir, 'missing') }),
      ),
    ).toMatch(/ENCRYPTION_KEY_FILE: cannot read/);
  });
});

describe('the broker in production', () => {
  const key = 'k'.repeat(32);
  const production = {
    NODE_ENV: 'production',
    ENCRYPTION_KEY: key,
    DATABASE_URL: 'postgres://db.internal/connector',
    RABBITMQ_USERS: PER_SERVICE_USERS,
  };

  it('refuses plain amqp:// to another host, unless a private network is allowed explicitly', () => {
    expect(
      problemsOf(() =>
        loadConfig(TestConfig, {
          ...production,
          RABBITMQ_URL: 'amqp://cr:secret-pw@mq.internal',
        }),
      ),
    ).toMatch(/RABBITMQ_URL must be amqps:\/\/ when NODE_ENV=production/);
    expect(
      problemsOf(() =>
        loadConfig(TestConfig, {
          ...production,
          RABBITMQ_URL: 'amqp://cr:secret-pw@mq.internal',
        }),
      ),
    ).not.toContain('secret-pw');
    for (const url of [
      'amqps://mq.internal',
      'amqp://127.0.0.1:5672',
      'amqp://localhost',
      'amqp://[::1]:5672',
    ]) {
      expect(loadConfig(TestConfig, { ...production, RABBITMQ_URL: url }).RABBITMQ_URL).toBe(url);
    }
    expect(
      loadConfig(TestConfig, {
        ...production,
        RABBITMQ_URL: 'amqp://rabbitmq:5672',
        RABBITMQ_ALLOW_PLAIN_AMQP: 'true',
      }).RABBITMQ_ALLOW_PLAIN_AMQP,
    ).toBe(true);
    expect(
      loadConfig(TestConfig, { NODE_ENV: 'test', ENCRYPTION_KEY: key, RABBITMQ_URL: 'amqp://mq.internal' }),
    ).toBeDefined();
  });

  it('wants a broker user per service there, and says which RABBITMQ_USERS entry is wrong', () => {
    const url = { RABBITMQ_URL: 'amqps://mq.internal' };
    expect(
      problemsOf(() => loadConfig(TestConfig, { ...production, ...url, RABBITMQ_USERS: '*:shared' })),
    ).toMatch(/RABBITMQ_USERS .*production needs a broker user per service/);
    expect(
      problemsOf(() =>
        loadConfig(TestConfig, {
          ...production,
          ...url,
          RABBITMQ_USERS: 'auth-gateway:ag',
        }),
      ),
    ).toMatch(/RABBITMQ_USERS .*no user for connector-registry/);
    expect(
      loadConfig(TestConfig, { NODE_ENV: 'test', ENCRYPTION_KEY: key, RABBITMQ_USERS: '*:guest' })
        .RABBITMQ_USERS,
    ).toBe('*:guest');
  });

  it('wants each service to connect as the user RABBITMQ_USERS names for it', () => {
    const config = loadConfig(TestConfig, {
      ...production,
      RABBITMQ_URL: 'amqps://ag:pw@mq.internal',
    });
    expect(brokerUserProblem('auth-gateway', config)).toBeUndefined();
    expect(brokerUserProblem('vacancy-sync', config)).toBe(
      'RABBITMQ_URL connects as broker user "ag", but RABBITMQ_USERS names "vs" for vacancy-sync',
    );
    // Local mode: every service is the user of its RABBITMQ_URL.
    expect(
      brokerUserProblem('vacancy-sync', loadConfig(TestConfig, { NODE_ENV: 'test', ENCRYPTION_KEY: key })),
    ).toBeUndefined();
  });
});
