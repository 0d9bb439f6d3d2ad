import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { ATS_TYPES, atsRegistry } from '@connector/ats-registry';
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

  it("with a real registry, gives its address to every sandbox's login callback and to the registry itself", async () => {
    const world = await testWorld({
      name: `world_real_${randomBytes(3).toString('hex')}`,
      registry: 'real',
      sandboxes: ATS_TYPES,
      serviceEnv: { 'connector-registry': { ADMIN_API_KEYS: 'acct_world:world-key' } },
    });
    try {
      const registryUrl = world.registryUrl!;
      const settings = ATS_TYPES.flatMap((type) => Object.entries(world.sandbox(type).serviceEnv));
      // No callback left at `npm start`'s address, where no registry of this suite listens.
      expect(settings.filter(([, value]) => value.includes('127.0.0.1:3000'))).toEqual([]);
      const registry = await world.startService('connector-registry');
      expect(registry.url).toBe(registryUrl);
      // A second one (e.g. behind a proxy) gets an address of its own.
      expect((await world.startService('connector-registry')).url).not.toBe(registryUrl);
      await expect(world.connect(ATS_TYPES[0]!, { accountId: 'acct_world' })).rejects.toThrow(/admin API/);
    } finally {
      await world.close();
    }
  }, 120_000);

  it('names an ATS whose folder has no test driver, before it starts anything', async () => {
    const name = `world_nodriver_${randomBytes(3).toString('hex')}`;
    await expect(testWorld({ name, sandboxes: ['no-such-ats'] })).rejects.toThrow(
      /no-such-ats has no test driver/,
    );
    expect(await databasesNamed(name)).toEqual([]);
  });
});
