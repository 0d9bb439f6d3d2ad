import type { DataSource } from 'typeorm';
import { CandidateLocks } from '@connector/exactly-once';
import { NotReadyError } from '@connector/messaging';
import { LeaseLostError } from '@connector/persistence';
import { migratedDataSource } from '@connector/persistence/testing';
import { createTestDatabase, type TestDatabase } from '@connector/testing';
import { SERVICE_NAME } from '../candidate-sync.config';
import { CANDIDATE_SYNC_SCHEMA } from '../candidate-sync.schema';
import { ApplicationLinkRepository } from './application-link.repository';

describe(ApplicationLinkRepository.name, () => {
  let database: TestDatabase;
  let db: DataSource;
  let applications: ApplicationLinkRepository;
  let locks: CandidateLocks;
  const key = { connectorId: 'c1', candidateId: 'cand-1', vacancyExternalId: 'v1' };
  const event = { id: 'evt-1', occurredAt: '2026-11-01T10:00:00.000Z' };
  const answers = { q1: 'h1' };
  /** evt-1 applied, the application it created linked with it. */
  const created = { event, contentHash: 'hash', answers, created: { externalId: '42' } };

  /** The lock and claimOrFind in one statement, as ApplicationSyncService takes them; released after. */
  const claimOrFind = (eventId: string, waitMs?: number) =>
    (waitMs === undefined ? locks : new CandidateLocks(db, { namespace: 'candidate-sync', waitMs })).runBy(
      applications.claimOrFind(key, { accountId: 'acct', applicationId: 'app-1', eventId }),
      async ({ token }, found) => ({ token, found }),
    );

  const candidateInAts = () =>
    db.query(
      `INSERT INTO "candidate_link" ("connector_id", "candidate_id", "account_id", "external_id", "state")
       VALUES ('c1', 'cand-1', 'acct', '7', 'linked')`,
    );

  beforeAll(async () => {
    database = await createTestDatabase('application_links');
    db = await migratedDataSource(database.url, { service: SERVICE_NAME, ...CANDIDATE_SYNC_SCHEMA });
    applications = new ApplicationLinkRepository(db);
    locks = new CandidateLocks(db, { namespace: 'candidate-sync', waitMs: 1_000 });
  });

  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  beforeEach(() =>
    db.query(
      `DELETE FROM "application_link"; DELETE FROM "candidate_link"; DELETE FROM "erased_candidate";
       DELETE FROM "keyed_lease"`,
    ),
  );

  describe('claimOrFind', () => {
    it('takes the lock, reads the candidate and claims the create of a new application, in one statement', async () => {
      await candidateInAts();
      const { token, found } = await claimOrFind('evt-1');
      expect(found).toEqual({ erased: false, candidateExternalId: '7', claimed: true });
      expect(await applications.find(key)).toMatchObject({
        state: 'pending',
        externalId: null,
        applicationId: 'app-1',
        createdEventId: 'evt-1',
        fence: String(token),
      });
      expect(await db.query(`SELECT 1 FROM "keyed_lease"`)).toHaveLength(0);
    });

    it('claims nothing while its candidate is not in the ATS', async () => {
      expect((await claimOrFind('evt-1')).found).toEqual({ erased: false, candidateExternalId: null });
      await db.query(
        `INSERT INTO "candidate_link" ("connector_id", "candidate_id", "account_id", "state")
         VALUES ('c1', 'cand-1', 'acct', 'pending')`,
      );
      expect((await claimOrFind('evt-1')).found).toEqual({ erased: false, candidateExternalId: null });
      expect(await applications.find(key)).toBeUndefined();
    });

    it('claims nothing while another worker holds the candidate lock', async () => {
      await candidateInAts();
      let release!: () => void;
      const holding = locks.run('c1', 'cand-1', () => new Promise<void>((resolve) => (release = resolve)));
      await new Promise((resolve) => setTimeout(resolve, 50));
      await expect(claimOrFind('evt-2', 200)).rejects.toBeInstanceOf(NotReadyError);
      expect(await applications.find(key)).toBeUndefined();
      release();
      await holding;
    });

    it('reads an existing link under a later token and claims nothing', async () => {
      await candidateInAts();
      const first = await claimOrFind('evt-1');
      await applications.applied(key, { ...created, fence: first.token });
      const { token, found } = await claimOrFind('evt-2');
      expect(token).toBeGreaterThan(first.token);
      expect(found).toMatchObject({
        erased: false,
        candidateExternalId: '7',
        claimed: false,
        link: { state: 'linked', externalId: '42', createdEventId: 'evt-1', fence: String(token), answers },
      });
      // The first holder is refused from now on: a later holder has read the record.
      await expect(
        applications.applied(key, { event, contentHash: 'hash', answers, fence: first.token }),
      ).rejects.toThrow(LeaseLostError);
    });

    it('is refused when a later holder has fenced the row, and lets the lock go', async () => {
      await candidateInAts();
      await claimOrFind('evt-1');
      await db.query(`UPDATE "application_link" SET "fence" = 9000000000`);
      await expect(claimOrFind('evt-2')).rejects.toBeInstanceOf(NotReadyError);
      expect(await db.query(`SELECT 1 FROM "keyed_lease"`)).toHaveLength(0);
    });

    it('reports an erased candidate and writes nothing', async () => {
      await candidateInAts();
      await db.query(
        `INSERT INTO "erased_candidate" ("account_id", "candidate_id") VALUES ('acct', 'cand-1')`,
      );
      expect((await claimOrFind('evt-1')).found).toEqual({ erased: true });
      expect(await applications.find(key)).toBeUndefined();
    });
  });

  it('applied without a created record keeps the link and its creator, and records the event', async () => {
    await candidateInAts();
    const first = await claimOrFind('evt-1');
    await applications.applied(key, { ...created, fence: first.token });
    const later = { id: 'evt-2', occurredAt: '2026-11-02T10:00:00.000Z' };
    const { token } = await claimOrFind('evt-2');
    await applications.applied(key, {
      event: later,
      contentHash: 'hash-2',
      answers: { q1: 'h2' },
      fence: token,
    });
    expect(await applications.find(key)).toMatchObject({
      state: 'linked',
      externalId: '42',
      createdEventId: 'evt-1',
      lastEventId: 'evt-2',
      lastOccurredAt: new Date(later.occurredAt),
      contentHash: 'hash-2',
      answers: { q1: 'h2' },
      fence: String(token),
    });
  });

  it('lets the lock go with the last write, in the same statement', async () => {
    await candidateInAts();
    await locks.runBy(
      applications.claimOrFind(key, { accountId: 'acct', applicationId: 'app-1', eventId: 'evt-1' }),
      async ({ token, release }) => {
        expect(await db.query(`SELECT 1 FROM "keyed_lease"`)).toHaveLength(1);
        await applications.applied(key, { ...created, fence: token, release });
        expect(await db.query(`SELECT 1 FROM "keyed_lease"`)).toHaveLength(0);
      },
    );
    expect(await applications.find(key)).toMatchObject({
      state: 'linked',
      externalId: '42',
      lastEventId: 'evt-1',
    });
    expect((await claimOrFind('evt-2', 100)).found).toMatchObject({ claimed: false });
  });
});
