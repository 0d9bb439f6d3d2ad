import { Pool } from 'pg';
import { createTestDatabase, type TestDatabase } from '@connector/testing';
import { DeletedConnectorMigration1763900000507 } from './deleted-connector.migration';
import {
  deletedConnectorRetention,
  type HistoryRetentionRule,
  purge,
  type RetentionRule,
  RetentionJob,
} from './retention';

describe(RetentionJob.name, () => {
  let database: TestDatabase;
  let pool: Pool;
  const now = new Date();

  /** Like the failure log: rows of several owners, each with its time. */
  const record = async (owner: string, id: string, ageDays: number) =>
    pool.query(`INSERT INTO record (owner, id, kept_at) VALUES ($1, $2, now() - make_interval(days => $3))`, [
      owner,
      id,
      ageDays,
    ]);
  const recordIds = async () =>
    (await pool.query(`SELECT owner || ':' || id AS id FROM record ORDER BY 1`)).rows.map(
      (row: { id: string }) => row.id,
    );
  const ofSvc = (keepDays: number): RetentionRule => ({
    name: `records of svc older than ${keepDays} days`,
    table: 'record',
    where: `"owner" = 'svc' AND "kept_at" < $1`,
    keepDays,
  });

  beforeAll(async () => {
    database = await createTestDatabase('retention');
    pool = new Pool({ connectionString: database.url, max: 4 });
    await pool.query(
      `CREATE TABLE record (owner text NOT NULL, id text NOT NULL, kept_at timestamptz NOT NULL)`,
    );
    await new DeletedConnectorMigration1763900000507().up(pool as never);
    await pool.query(`CREATE TABLE thing_link (connector_id text, candidate_id text)`);
  });

  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  it('deletes what is older than its days and keeps what is recent, and other services’ rows', async () => {
    await record('svc', 'old-1', 8);
    await record('svc', 'old-2', 30);
    await record('svc', 'new-1', 6);
    await record('svc', 'new-2', 0);
    await record('other', 'old-3', 30);
    const job = new RetentionJob(pool, [ofSvc(7)]);
    expect(await job.runOnce(now)).toEqual({ 'records of svc older than 7 days': 2 });
    expect(await recordIds()).toEqual(['other:old-3', 'svc:new-1', 'svc:new-2']);
  });

  it('shares a backlog between replicas deleting at once, in small batches', async () => {
    await pool.query(`DELETE FROM record`);
    for (let i = 0; i < 50; i++) await record('svc', `old-${i}`, 10);
    await record('svc', 'recent', 1);
    const rule = ofSvc(7);
    const counts = await Promise.all([
      purge(pool, rule, now, 4),
      purge(pool, rule, now, 4),
      purge(pool, rule, now, 4),
    ]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(50);
    expect(await recordIds()).toEqual(['svc:recent']);
  });

  it("deletes a deleted connector's rows once its retention has passed", async () => {
    await pool.query(`INSERT INTO thing_link VALUES ('gone-long', 'c1'), ('gone-now', 'c2'), ('live', 'c3')`);
    await pool.query(
      `INSERT INTO deleted_connector (connector_id, deleted_at) VALUES
         ('gone-long', now() - interval '31 days'), ('gone-now', now() - interval '1 day')`,
    );
    expect(await purge(pool, deletedConnectorRetention('thing_link', 30), now)).toBe(1);
    const { rows } = await pool.query(`SELECT connector_id FROM thing_link ORDER BY 1`);
    expect(rows.map((row: { connector_id: string }) => row.connector_id)).toEqual(['gone-now', 'live']);
  });

  it('runs a rule without days, whose condition has an OR, as one condition', async () => {
    await pool.query(
      `CREATE TABLE state_like (used_at timestamptz, expires_at timestamptz NOT NULL, marker text)`,
    );
    await pool.query(
      `INSERT INTO state_like VALUES (now(), now() + interval '1 hour', 'used'),
         (NULL, now() - interval '1 second', 'expired'), (NULL, now() + interval '1 hour', 'pending')`,
    );
    const rule = {
      name: 'done states',
      table: 'state_like',
      where: `"used_at" IS NOT NULL OR "expires_at" <= now()`,
    };
    expect(await purge(pool, rule, now, 1)).toBe(2);
    const { rows } = await pool.query(`SELECT marker FROM state_like`);
    expect(rows).toEqual([{ marker: 'pending' }]);
  });

  describe('histories', () => {
    /** Like runs: an owner table, and rows of each owner, some open. */
    const history: HistoryRetentionRule = {
      name: 'runs beyond 3 a connector or 10 days',
      table: 'hist_run',
      owners: { table: 'hist_owner', key: 'id' },
      ownerColumn: 'owner_id',
      timeColumn: 'queued_at',
      where: `"status" <> 'open'`,
      keepNewest: 3,
      keepDays: 10,
    };
    const run = (owner: string, id: string, ageDays: number, status = 'done') =>
      pool.query(
        `INSERT INTO hist_run (owner_id, id, status, queued_at) VALUES ($1, $2, $3, now() - make_interval(days => $4))`,
        [owner, id, status, ageDays],
      );
    const runIds = async () =>
      (await pool.query(`SELECT id FROM hist_run ORDER BY id`)).rows.map((row: { id: string }) => row.id);

    beforeAll(async () => {
      await pool.query(`CREATE TABLE hist_owner (id uuid PRIMARY KEY)`);
      await pool.query(
        `CREATE TABLE hist_run (owner_id uuid NOT NULL, id text NOT NULL, status text NOT NULL, queued_at timestamptz NOT NULL)`,
      );
      await pool.query(`CREATE INDEX ON hist_run (owner_id, queued_at)`);
    });
    beforeEach(async () => {
      await pool.query(`TRUNCATE hist_run, hist_owner`);
    });

    it("keeps each owner's newest rows, and none past the days but its newest; open rows stay", async () => {
      const [busy, idle, fresh] = [
        '00000000-0000-4000-8000-000000000001',
        '00000000-0000-4000-8000-000000000002',
        '00000000-0000-4000-8000-000000000003',
      ];
      await pool.query(`INSERT INTO hist_owner VALUES ($1), ($2), ($3)`, [busy, idle, fresh]);
      // busy: 6 recent finished runs and an old open one: the 3 newest finished and the open one stay.
      for (let i = 1; i <= 6; i++) await run(busy, `busy-${i}`, i);
      await run(busy, 'busy-open', 40, 'open');
      // idle: nothing for 2 months: its last run stays whatever its age, the older ones go.
      await run(idle, 'idle-1', 60);
      await run(idle, 'idle-2', 61);
      // fresh: fewer than the limit, all recent: all stay.
      await run(fresh, 'fresh-1', 1);
      await run(fresh, 'fresh-2', 2);

      expect(await purge(pool, history, now)).toBe(4);
      expect(await runIds()).toEqual([
        'busy-1',
        'busy-2',
        'busy-3',
        'busy-open',
        'fresh-1',
        'fresh-2',
        'idle-1',
      ]);
    });

    it('goes through every page of owners, in batches, and replicas share the work', async () => {
      const owners = Array.from(
        { length: 250 },
        (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      );
      await pool.query(`INSERT INTO hist_owner SELECT unnest($1::uuid[])`, [owners]);
      await pool.query(
        `INSERT INTO hist_run SELECT o, o || '-' || n, 'done', now() - make_interval(hours => n)
           FROM unnest($1::uuid[]) o, generate_series(1, 8) n`,
        [owners],
      );
      const counts = await Promise.all([purge(pool, history, now, 7), purge(pool, history, now, 7)]);
      expect(counts[0] + counts[1]).toBe(250 * 5);
      const { rows } = await pool.query(
        `SELECT count(*)::int AS kept, count(DISTINCT owner_id)::int AS owners, max(queued_at) < now() - interval '4 hours' AS old FROM hist_run`,
      );
      expect(rows).toEqual([{ kept: 250 * 3, owners: 250, old: false }]);
    });
  });
});
