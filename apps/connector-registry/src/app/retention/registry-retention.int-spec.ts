import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { RetentionJob } from '@connector/persistence';
import { migratedDataSource } from '@connector/persistence/testing';
import { createTestDatabase, type TestDatabase } from '@connector/testing';
import { ActivityRepository } from '../activity/activity.repository';
import { CONNECTOR_REGISTRY_SCHEMA } from '../connector-registry.schema';
import { RunRepository } from '../repositories/run.repository';
import { registryRetention } from './registry-retention';

const LIMITS = {
  DEAD_LETTER_RETENTION_DAYS: 30,
  DELETED_CONNECTOR_RETENTION_DAYS: 30,
  RUN_HISTORY_DAYS: 30,
  RUN_HISTORY_PER_CONNECTOR: 20,
};

describe('connector-registry retention', () => {
  let database: TestDatabase;
  let db: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase('registry_retention');
    db = await migratedDataSource(database.url, {
      service: 'connector-registry',
      ...CONNECTOR_REGISTRY_SCHEMA,
    });
  });

  afterAll(async () => {
    await db?.destroy();
    await database.drop();
  });

  const connector = async (deletedDaysAgo: number | null) => {
    const id = randomUUID();
    await db.query(
      `INSERT INTO connector (id, account_id, type, name, status, deleted_at)
       VALUES ($1, 'acct', 'ats-a', 'c', 'disabled', CASE WHEN $2::int IS NULL THEN NULL ELSE now() - make_interval(days => $2::int) END)`,
      [id, deletedDaysAgo],
    );
    await db.query(
      `INSERT INTO job_mapping (connector_id, version, mapping, created_by) VALUES ($1, 1, '{}', 'admin')`,
      [id],
    );
    await db.query(
      `INSERT INTO run (id, connector_id, account_id, status, mode, counts, queued_at)
       VALUES ($1, $2, 'acct', 'succeeded', 'full', '{}', now())`,
      [randomUUID(), id],
    );
    return id;
  };
  const deadLetter = async (connectorId: string | null, ageDays: number) =>
    db.query(
      `INSERT INTO dead_letter (id, queue, routing_key, message_id, account_id, connector_id, body, reasons, retryable, failed_at)
       VALUES ($1, 'q', 'candidate.created', $4, 'acct', $2, '\\x7b7d', '[]', false, now() - make_interval(days => $3))`,
      [randomUUID(), connectorId, ageDays, randomUUID()],
    );
  const ids = async (sql: string) =>
    ((await db.query(sql)) as Array<{ id: string }>).map((row) => row.id).sort();

  it('deletes old failures, and connectors deleted long ago with everything of theirs; keeps the rest', async () => {
    const live = await connector(null);
    const gone = await connector(31);
    const recentlyGone = await connector(2);
    await deadLetter(live, 31); // old: goes
    await deadLetter(live, 3); // recent: stays
    await deadLetter(gone, 1); // recent, but its connector went long ago: goes
    await deadLetter('not-a-uuid', 1); // any text in connector_id: stays, no error
    await db.query(
      `INSERT INTO candidate_erasure (account_id, candidate_id, completion_event_id, completed_at) VALUES
         ('acct', 'old', $1, now() - interval '40 days'), ('acct', 'new', $2, now()), ('acct', 'open', $3, NULL)`,
      [randomUUID(), randomUUID(), randomUUID()],
    );

    const job = new RetentionJob(db, registryRetention(LIMITS));
    await job.runOnce();

    expect(await ids(`SELECT id::text AS id FROM connector`)).toEqual([live, recentlyGone].sort());
    expect(await ids(`SELECT connector_id::text AS id FROM job_mapping`)).toEqual(
      [live, recentlyGone].sort(),
    );
    expect(await ids(`SELECT connector_id::text AS id FROM run`)).toEqual([live, recentlyGone].sort());
    expect(await ids(`SELECT connector_id AS id FROM dead_letter`)).toEqual([live, 'not-a-uuid'].sort());
    expect(await ids(`SELECT candidate_id AS id FROM candidate_erasure`)).toEqual(['new', 'open']);
  });

  describe('run history of live connectors', () => {
    const run = async (connectorId: string, status: string, ageHours: number) => {
      const id = randomUUID();
      await db.query(
        `INSERT INTO run (id, connector_id, account_id, status, mode, counts, queued_at, finished_at)
         VALUES ($1, $2, 'acct', $3, 'incremental', '{}', now() - make_interval(hours => $4),
                 CASE WHEN $3 IN ('succeeded', 'failed') THEN now() - make_interval(hours => $4) END)`,
        [id, connectorId, status, ageHours],
      );
      return id;
    };
    const runsOf = async (connectorId: string) =>
      (
        (await db.query(`SELECT id::text AS id FROM run WHERE connector_id = $1`, [connectorId])) as Array<{
          id: string;
        }>
      )
        .map((row) => row.id)
        .sort();

    it('keeps the newest runs of each connector for their days, its last run and an open one always', async () => {
      const busy = await connector(null);
      const idle = await connector(null);
      await db.query(`DELETE FROM run WHERE connector_id IN ($1, $2)`, [busy, idle]);
      // busy: a run every hour for 30 hours, and one still running that started 35 days ago.
      const open = await run(busy, 'running', 35 * 24);
      const finished: string[] = [];
      for (let hour = 1; hour <= 30; hour++)
        finished.push(await run(busy, hour % 4 ? 'succeeded' : 'failed', hour));
      // idle: its last runs were 40, 45 and 50 days ago: the newest of them is its "last run" and stays.
      const idleLast = await run(idle, 'failed', 40 * 24);
      await run(idle, 'succeeded', 45 * 24);
      await run(idle, 'succeeded', 50 * 24);

      const deleted = await new RetentionJob(db, registryRetention(LIMITS)).runOnce();

      expect(deleted[registryRetention(LIMITS)[0].name]).toBe(10 + 2);
      expect(await runsOf(busy)).toEqual([open, ...finished.slice(0, 20)].sort());
      expect(await runsOf(idle)).toEqual([idleLast]);
      // What the admin page reads: each connector's last run, and the history newest first.
      const runs = new RunRepository(db);
      const latest = await runs.latest([busy, idle]);
      expect(latest.get(busy)?.id).toBe(finished[0]);
      expect(latest.get(idle)?.id).toBe(idleLast);
      expect((await runs.list(busy, 20)).map((r) => r.id)).toEqual(finished.slice(0, 20));
      expect((await runs.list(busy, 100)).map((r) => r.id)).toEqual([...finished.slice(0, 20), open]);
    });

    it("keeps the connector's 14 days of activity whole when its runs go", async () => {
      const busy = await connector(null);
      await db.query(`DELETE FROM run WHERE connector_id = $1`, [busy]);
      // A run every 6 hours for 10 days, 3 calls and a vacancy published each, every fifth failed.
      for (let i = 1; i <= 40; i++) {
        await db.query(
          `INSERT INTO run (id, connector_id, account_id, status, mode, counts, api_calls, queued_at, finished_at)
           VALUES ($1, $2, 'acct', $3, 'incremental', '{"fetched": 5, "upserted": 1, "unchanged": 4, "closed": 0}', 3,
                   now() - make_interval(hours => $4 * 6), now() - make_interval(hours => $4 * 6))`,
          [randomUUID(), busy, i % 5 ? 'succeeded' : 'failed', i],
        );
      }
      const activity = new ActivityRepository(db);
      const before = await activity.days('acct', busy, 14);
      expect(before.reduce((sum, day) => sum + day.apiCalls, 0)).toBe(120);

      const rules = registryRetention(LIMITS);
      expect((await new RetentionJob(db, rules).runOnce())[rules[0].name]).toBe(20);
      expect(await runsOf(busy)).toHaveLength(20);
      expect(await activity.days('acct', busy, 14)).toEqual(before);
      // Another pass deletes nothing and counts nothing twice.
      await new RetentionJob(db, rules).runOnce();
      expect(await activity.days('acct', busy, 14)).toEqual(before);
    });
  });
});
