import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { LOCAL_DATABASE_URL } from './test-services';

export interface TestDatabase {
  /** URL of a database that exists only for this suite. */
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** Creates an empty database for one test suite, so suites never see each other's rows. */
export async function createTestDatabase(prefix = 'test'): Promise<TestDatabase> {
  const adminUrl = process.env.DATABASE_URL ?? LOCAL_DATABASE_URL;
  const name = `${prefix.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`;
  await withClient(adminUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () =>
      withClient(adminUrl, async (client) => {
        await sessionsGone(client, name);
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      }),
  };
}

/**
 * Waits (up to 2 s) for the suite's own sessions to end: a closed pool's last connections may still be on their
 * way out, and forcing them would hand their pool an error after the suite has stopped listening.
 */
async function sessionsGone(client: Client, database: string): Promise<void> {
  for (let waited = 0; waited < 2_000; waited += 50) {
    const { rows } = await client.query<{ open: number }>(
      `SELECT count(*)::int AS open FROM pg_stat_activity WHERE datname = $1`,
      [database],
    );
    if (rows[0].open === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
