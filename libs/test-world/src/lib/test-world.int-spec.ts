import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { atsRegistry } from '@connector/ats-registry';
import { LOCAL_DATABASE_URL, rabbitUrl } from '@connector/testing';
import { testWorld } from './test-world';

/** A world that fails half way stops what it had started: no suite leaves a database or vhost behind. */
describe('testWorld', () => {
  const databasesNamed = async (prefix: string): Promise<string[]> => {
    const client = new Client({ connectionString: process.env.DATABASE_URL ?? LOCAL_DATABASE_URL });
    await client.connect();
    try {
      const { rows } = await client.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE datname LIKE $1 || '%'`,
        [prefix],
      );
      return rows.map((r) => r.datname);
    } finally {
      await client.end();
    }
  };

  it('stops its sandboxes and drops its database and vhost when a service fails to start', async () => {
    const name = `world_fail_${randomBytes(3).toString('hex')}`;
    const before = rabbitUrl();
    await expect(
      testWorld({
        name,
        services: ['candidate-sync'],
        // Refused by its config at boot.
        serviceEnv: { 'candidate-sync': { RETRY_DELAYS_MS: 'soon' } },
        sandboxes: atsRegistry.typesWith('candidates'),
      }),
    ).rejects.toThrow(/candidate-sync exited/);
    expect(await databasesNamed(name)).toEqual([]);
    expect(rabbitUrl()).toBe(before);
  }, 120_000);

  it('names an ATS whose folder has no test driver, before it starts anything', async () => {
    const name = `world_nodriver_${randomBytes(3).toString('hex')}`;
    await expect(testWorld({ name, sandboxes: ['no-such-ats'] })).rejects.toThrow(
      /no-such-ats has no test driver/,
    );
    expect(await databasesNamed(name)).toEqual([]);
  });
});
