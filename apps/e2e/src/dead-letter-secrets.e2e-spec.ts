import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { adminApi, eventually, type ServiceProcess } from '@connector/testing';
import { type TestWorld, testWorld } from '@connector/test-world';

/**
 * A request to auth-gateway carries the customer's ATS-A client secret and expires with its timeout; with
 * auth-gateway stalled (SIGSTOP, as an operator's bad day goes) the broker dead-letters what expires. The
 * failure log drops it unread: the secret is nowhere in the database, the failure log or the logs, and no
 * Replay exists for it.
 */
const ACCOUNT = 'acct_secrets';
const KEY = `key-${randomBytes(6).toString('hex')}`;
const SECRET = `s3cr3t-${randomBytes(12).toString('hex')}`;

describe('no secret in a dead letter', () => {
  let world: TestWorld;
  let registry: ServiceProcess;
  let gateway: ServiceProcess;
  let db: Client;
  const api = adminApi({ baseUrl: () => `${registry.url}/api/v1`, key: KEY });

  beforeAll(async () => {
    world = await testWorld({
      name: 'e2e_dl_secrets',
      services: ['connector-registry', 'auth-gateway'],
      serviceEnv: {
        'connector-registry': { ADMIN_API_KEYS: `${ACCOUNT}:${KEY}`, AUTH_GATEWAY_TIMEOUT_MS: '2000' },
        // One request in hand at a time: the next ones wait in the queue, and expire there.
        'auth-gateway': { PREFETCH: '1' },
      },
    });
    registry = world.service('connector-registry');
    gateway = world.service('auth-gateway');
    db = new Client({ connectionString: world.env.DATABASE_URL });
    await db.connect();
  }, 180_000);

  afterAll(async () => {
    gateway?.child.kill('SIGCONT');
    await db?.end();
    await world?.close();
  });

  it("keeps nothing of an admin's save request that expired while auth-gateway was stalled", async () => {
    gateway.child.kill('SIGSTOP');
    try {
      for (let press = 0; press < 3; press += 1) {
        const saved = await api('POST', '/connectors', {
          body: {
            type: 'ats-a',
            name: 'Stalled',
            config: { baseUrl: 'https://ats-a.example.com', clientId: 'acme', clientSecret: SECRET },
          },
        });
        expect(saved.status).toBe(503);
      }
      await eventually(
        () => registry.output.some((line) => line.includes('dropped request auth.')),
        20_000,
        'the failure log dropping an expired auth-gateway request (it kept it, or it never expired)',
      );
    } finally {
      gateway.child.kill('SIGCONT');
    }

    const stored = await db.query<{ count: string }>(
      `SELECT count(*) FROM dead_letter
        WHERE routing_key LIKE 'auth.%' OR type LIKE 'auth.%'
           OR position($1::bytea IN body) > 0 OR reasons::text LIKE '%' || $2 || '%'`,
      [Buffer.from(SECRET), SECRET],
    );
    expect(stored.rows[0]!.count).toBe('0');
    const { body } = await api('GET', '/failures');
    expect(body).toEqual({ failures: [] });
    // auth-gateway, back, answers the request it held to nobody; neither log ever shows the secret.
    await eventually(
      async () => (await fetch(`${gateway.url}/health`)).ok,
      20_000,
      'auth-gateway answering again after SIGCONT',
    );
    expect([...registry.output, ...gateway.output].filter((line) => line.includes(SECRET))).toEqual([]);
  });
});
