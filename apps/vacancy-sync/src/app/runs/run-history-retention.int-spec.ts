import type { DataSource } from 'typeorm';
import { RetentionJob } from '@connector/persistence';
import { migratedDataSource } from '@connector/persistence/testing';
import { createTestDatabase, type TestDatabase } from '@connector/testing';
import { SERVICE_NAME } from '../vacancy-sync.config';
import { VACANCY_SYNC_SCHEMA } from '../vacancy-sync.schema';
import { runHistoryRetention } from './run-history-retention';
import { SyncRunRepository } from './sync-run.repository';

describe('vacancy-sync run history retention', () => {
  let database: TestDatabase;
  let db: DataSource;
  let runs: SyncRunRepository;
  const rule = runHistoryRetention({ RUN_HISTORY_DAYS: 30, RUN_HISTORY_PER_CONNECTOR: 20 });

  beforeAll(async () => {
    database = await createTestDatabase('sync_run_history');
    db = await migratedDataSource(database.url, { service: SERVICE_NAME, ...VACANCY_SYNC_SCHEMA });
    runs = new SyncRunRepository(db);
  });

  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  const run = async (connectorId: string, runId: string, status: string, ageHours: number) =>
    db.query(
      `INSERT INTO sync_run (run_id, connector_id, account_id, trigger, status, created_at)
       VALUES ($1, $2, 'acct', 'scheduled', $3, now() - make_interval(hours => $4))`,
      [runId, connectorId, status, ageHours],
    );
  const runIds = async (connectorId: string) =>
    (
      (await db.query(`SELECT run_id FROM sync_run WHERE connector_id = $1 ORDER BY created_at DESC`, [
        connectorId,
      ])) as Array<{ run_id: string }>
    ).map((row) => row.run_id);

  it('keeps the newest runs of each connector for their days, its last run and open runs always', async () => {
    for (const connectorId of ['busy', 'idle', 'parked']) await runs.registerConnector(connectorId, 'acct');
    // busy: a run every hour for 30 hours.
    for (let hour = 1; hour <= 30; hour++)
      await run('busy', `busy-${hour}`, hour % 5 ? 'succeeded' : 'failed', hour);
    // idle: its last runs were 40 and 50 days ago: the newer is kept.
    await run('idle', 'idle-40', 'failed', 40 * 24);
    await run('idle', 'idle-50', 'succeeded', 50 * 24);
    // parked: a run paused 45 days ago (waiting for budget), a queued one behind it, and old finished ones.
    await run('parked', 'parked-paused', 'paused', 45 * 24);
    await run('parked', 'parked-queued', 'queued', 44 * 24);
    await run('parked', 'parked-done', 'succeeded', 46 * 24);

    const deleted = await new RetentionJob(db, [rule]).runOnce();

    expect(deleted[rule.name]).toBe(10 + 1 + 1);
    expect(await runIds('busy')).toEqual(Array.from({ length: 20 }, (_, i) => `busy-${i + 1}`));
    expect(await runIds('idle')).toEqual(['idle-40']);
    expect(await runIds('parked')).toEqual(['parked-queued', 'parked-paused']);
    // What the scheduler reads: the head run of a connector is still its oldest open one.
    expect((await runs.headRun('parked'))?.runId).toBe('parked-paused');
    // A second pass finds nothing more.
    expect((await new RetentionJob(db, [rule]).runOnce())[rule.name]).toBe(0);
  });
});
