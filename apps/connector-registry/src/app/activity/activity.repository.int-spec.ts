import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { migratedDataSource } from '@connector/persistence/testing';
import { createTestDatabase, type TestDatabase } from '@connector/testing';
import { SERVICE_NAME } from '../connector-registry.config';
import { CONNECTOR_REGISTRY_SCHEMA } from '../connector-registry.schema';
import { ConnectorRepository } from '../repositories/connector.repository';
import { ActivityRepository } from './activity.repository';

const DAY_MS = 86_400_000;
const utcDay = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY_MS).toISOString().slice(0, 10);
/** Noon UTC `offsetDays` from today: safely inside that day. */
const noon = (offsetDays: number) => new Date(`${utcDay(offsetDays)}T12:00:00.000Z`);

describe(ActivityRepository.name, () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let sut: ActivityRepository;
  const connectorId = randomUUID();

  beforeAll(async () => {
    database = await createTestDatabase('registry_activity');
    // The registry's tables as its migrations build them.
    dataSource = await migratedDataSource(database.url, {
      service: SERVICE_NAME,
      ...CONNECTOR_REGISTRY_SCHEMA,
    });
    sut = new ActivityRepository(dataSource);
    await connector(connectorId, 'ats-a', 'connected');
  });

  async function connector(id: string, type: string, status: string, deleted = false) {
    await dataSource.query(
      `INSERT INTO connector (id, account_id, type, name, status, deleted_at) VALUES ($1, 'acct', $2, 'c', $3, $4)`,
      [id, type, status, deleted ? new Date() : null],
    );
  }

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  async function run(finishedAt: Date, status: string, apiCalls: number, upserted: number, closed: number) {
    await dataSource.query(
      `INSERT INTO run (id, connector_id, account_id, status, mode, counts, api_calls, errors, queued_at, started_at, finished_at)
       VALUES ($1, $2, 'acct', $3, 'full', $4, $5, '[]', $6, $6, $6)`,
      [
        randomUUID(),
        connectorId,
        status,
        { fetched: 9, upserted, unchanged: 1, closed },
        apiCalls,
        finishedAt,
      ],
    );
  }

  async function deadLetter(failedAt: Date, forConnector = connectorId, accountId = 'acct') {
    await dataSource.query(
      `INSERT INTO dead_letter (id, queue, routing_key, account_id, connector_id, body, reasons, retryable, failed_at)
       VALUES ($1, 'candidate-sync.events', 'candidate.created', $4, $2, '\\x7b7d', '["x"]', false, $3)`,
      [randomUUID(), forConnector, failedAt, accountId],
    );
  }

  it('counts a record written once however often its event arrives', async () => {
    const eventId = randomUUID();
    await sut.recordWritten(eventId, connectorId, utcDay(0));
    await sut.recordWritten(eventId, connectorId, utcDay(0));
    await sut.recordWritten(randomUUID(), connectorId, utcDay(0));
    await sut.recordWritten(randomUUID(), connectorId, utcDay(-2));
    const days = await sut.days('acct', connectorId, 14);
    expect(days.at(-1)).toMatchObject({ day: utcDay(0), recordsWritten: 2 });
    expect(days.at(-3)).toMatchObject({ day: utcDay(-2), recordsWritten: 1 });
  });

  it('gives the last days oldest first, zeros where nothing happened, runs and failures on the day they ended', async () => {
    await run(noon(-1), 'succeeded', 12, 5, 2);
    await run(noon(-1), 'failed', 3, 0, 0);
    await run(noon(-20), 'succeeded', 99, 99, 99); // before the window
    await deadLetter(noon(-1));
    await deadLetter(noon(-3));
    await deadLetter(noon(-1), randomUUID()); // another connector's
    // Another account's message naming this connector's id (a wrong or forged connectorId): not ours.
    await deadLetter(noon(-1), connectorId, 'acct_other');
    const days = await sut.days('acct', connectorId, 14);
    expect(days).toHaveLength(14);
    expect(days.map((d) => d.day)).toEqual(Array.from({ length: 14 }, (_, i) => utcDay(i - 13)));
    expect(days.at(-2)).toEqual({
      day: utcDay(-1),
      apiCalls: 15,
      vacanciesPublished: 7,
      recordsWritten: 0,
      failures: 2,
    });
    expect(days.at(-4)).toMatchObject({ failures: 1, apiCalls: 0 });
    expect(days.slice(0, 10).every((d) => d.apiCalls + d.vacanciesPublished + d.failures === 0)).toBe(true);
  });

  it('forgets counted event ids older than 15 days when a new day begins', async () => {
    const old = randomUUID();
    await sut.recordWritten(old, connectorId, utcDay(-20));
    await sut.recordWritten(randomUUID(), connectorId, utcDay(-3));
    const [{ n }] = (await dataSource.query(
      `SELECT count(*)::int AS n FROM connector_activity_event WHERE event_id = $1`,
      [old],
    )) as Array<{ n: number }>;
    expect(n).toBe(0);
  });

  it('counts live connectors per ATS type and status (for the metrics)', async () => {
    await connector(randomUUID(), 'ats-b', 'auth_failed');
    await connector(randomUUID(), 'ats-b', 'auth_failed');
    await connector(randomUUID(), 'ats-b', 'auth_failed', true);
    const counts = await new ConnectorRepository(dataSource).countByTypeAndStatus();
    expect(counts).toEqual(
      expect.arrayContaining([
        { type: 'ats-a', status: 'connected', count: 1 },
        { type: 'ats-b', status: 'auth_failed', count: 2 },
      ]),
    );
    expect(counts).toHaveLength(2);
  });
});
