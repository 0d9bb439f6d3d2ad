import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions, RetentionJob, runMigrations } from '@connector/persistence';
import { createTestDatabase, type TestDatabase } from '@connector/testing';
import { RegistrySchema1763800000001 } from '../migrations/1763800000001-registry-schema';
import { DeadLetters1763800000002 } from '../migrations/1763800000002-dead-letters';
import { DeadLetterCandidate1763900000505 } from '../migrations/1763900000505-dead-letter-candidate';
import { CandidateErasure1763900000506 } from '../migrations/1763900000506-candidate-erasure';
import { AdminKeyFailure1763900002602 } from '../migrations/1763900002602-admin-key-failure';
import { registryRetention } from './registry-retention';

describe('connector-registry retention', () => {
  let database: TestDatabase;
  let db: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase('registry_retention');
    db = await new DataSource(
      dataSourceOptions({
        url: database.url,
        service: 'connector-registry',
        entities: [],
        migrations: [
          RegistrySchema1763800000001,
          DeadLetters1763800000002,
          DeadLetterCandidate1763900000505,
          CandidateErasure1763900000506,
          AdminKeyFailure1763900002602,
        ],
      }),
    ).initialize();
    await runMigrations(db);
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

    const job = new RetentionJob(
      db,
      registryRetention({ DEAD_LETTER_RETENTION_DAYS: 30, DELETED_CONNECTOR_RETENTION_DAYS: 30 }),
    );
    await job.runOnce();

    expect(await ids(`SELECT id::text AS id FROM connector`)).toEqual([live, recentlyGone].sort());
    expect(await ids(`SELECT connector_id::text AS id FROM job_mapping`)).toEqual(
      [live, recentlyGone].sort(),
    );
    expect(await ids(`SELECT connector_id::text AS id FROM run`)).toEqual([live, recentlyGone].sort());
    expect(await ids(`SELECT connector_id AS id FROM dead_letter`)).toEqual([live, 'not-a-uuid'].sort());
    expect(await ids(`SELECT candidate_id AS id FROM candidate_erasure`)).toEqual(['new', 'open']);
  });
});
