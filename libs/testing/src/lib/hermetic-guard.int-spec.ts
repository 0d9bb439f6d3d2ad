import amqplib from 'amqplib';
import amqpConnectionManager from 'amqp-connection-manager';
import { Client, Pool } from 'pg';
import { HermeticGuardError, START_DATABASE } from './hermetic-guard';
import { spawnService } from './service-process';
import { LOCAL_RABBITMQ_URL } from './test-services';
import { createTestVhost, type TestVhost } from './test-vhost';

// The guard is installed by the integration config's setupFiles: these show that it bites.
describe('hermetic guard', () => {
  const admin = new URL(process.env.RABBITMQ_URL ?? LOCAL_RABBITMQ_URL);
  admin.pathname = '';
  // No path and "/" spelled out: both are the default vhost.
  const defaultVhostUrls = [admin.toString(), `${admin.toString().replace(/\/$/, '')}/%2F`];
  const startDatabaseUrl = (() => {
    const url = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
    url.pathname = `/${START_DATABASE}`;
    return url.toString();
  })();
  let vhost: TestVhost;

  beforeAll(async () => {
    vhost = await createTestVhost('guard');
  });

  afterAll(async () => {
    await vhost.drop();
  });

  it.each(defaultVhostUrls)('refuses amqplib.connect to the default vhost (%s)', async (url) => {
    await expect(amqplib.connect(url)).rejects.toThrow(HermeticGuardError);
  });

  it('refuses the default vhost to amqp-connection-manager, which services use', async () => {
    const manager = amqpConnectionManager.connect([defaultVhostUrls[0]], {
      reconnectTimeInSeconds: 60,
    });
    const failed = new Promise<Error>((resolve) => manager.once('connectFailed', ({ err }) => resolve(err)));
    try {
      await expect(failed).resolves.toBeInstanceOf(HermeticGuardError);
    } finally {
      await manager.close();
    }
  });

  it("lets the suite's own vhost through", async () => {
    const connection = await amqplib.connect(vhost.url);
    await connection.close();
  });

  it('refuses a pg client and a pool on the database `npm start` uses', async () => {
    await expect(new Client({ connectionString: startDatabaseUrl }).connect()).rejects.toThrow(
      HermeticGuardError,
    );
    const pool = new Pool({ connectionString: startDatabaseUrl });
    try {
      await expect(pool.query('SELECT 1')).rejects.toThrow(HermeticGuardError);
    } finally {
      await pool.end();
    }
  });

  it('refuses to start a service process on the default vhost or the start database', () => {
    expect(() => spawnService('auth-gateway', { RABBITMQ_URL: defaultVhostUrls[0] }, 0)).toThrow(
      HermeticGuardError,
    );
    expect(() =>
      spawnService('auth-gateway', { RABBITMQ_URL: vhost.url, DATABASE_URL: startDatabaseUrl }, 0),
    ).toThrow(HermeticGuardError);
  });
});
