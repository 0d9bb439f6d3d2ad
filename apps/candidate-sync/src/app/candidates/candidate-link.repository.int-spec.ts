import type { DataSource } from 'typeorm';
import { CandidateLocks, orderOf } from '@connector/exactly-once';
import { NotReadyError } from '@connector/messaging';
import { LeaseLostError } from '@connector/persistence';
import { migratedDataSource } from '@connector/persistence/testing';
import { createTestDatabase, type TestDatabase } from '@connector/testing';
import { SERVICE_NAME } from '../candidate-sync.config';
import { CANDIDATE_SYNC_SCHEMA } from '../candidate-sync.schema';
import { CandidateLinkRepository } from './candidate-link.repository';

describe(CandidateLinkRepository.name, () => {
  let database: TestDatabase;
  let db: DataSource;
  let links: CandidateLinkRepository;
  let locks: CandidateLocks;
  const event = { id: 'evt-1', occurredAt: '2026-11-01T10:00:00.000Z' };
  const sent = { fields: { FirstName: 'h1' }, children: {} };
  const key = { connectorId: 'c1', candidateId: 'cand-1' };
  /** evt-1 applied, the record it created linked with it. */
  const created = { event, contentHash: 'hash', sent, created: { externalId: '42' } };

  /** The lock and claimOrFind in one statement, as CandidateSyncService takes them; the lease is released after. */
  const claimOrFind = (eventId: string, waitMs?: number) =>
    (waitMs === undefined ? locks : new CandidateLocks(db, { namespace: 'candidate-sync', waitMs })).runBy(
      links.claimOrFind(key, { accountId: 'acct', eventId }),
      async ({ token }, found) => ({ token, found }),
    );

  beforeAll(async () => {
    database = await createTestDatabase('candidate_links');
    db = await migratedDataSource(database.url, { service: SERVICE_NAME, ...CANDIDATE_SYNC_SCHEMA });
    links = new CandidateLinkRepository(db);
    locks = new CandidateLocks(db, { namespace: 'candidate-sync', waitMs: 1_000 });
  });

  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  beforeEach(() =>
    db.query(`DELETE FROM "candidate_link"; DELETE FROM "erased_candidate"; DELETE FROM "keyed_lease"`),
  );

  describe('claimOrFind', () => {
    it('takes the lock and claims the create of a candidate without a link, in one statement', async () => {
      const { token, found } = await claimOrFind('evt-1');
      expect(found).toEqual({ erased: false, claimed: true });
      expect(await links.find(key)).toMatchObject({
        state: 'pending',
        externalId: null,
        createdEventId: 'evt-1',
        fence: String(token),
      });
      // Released once the work is done.
      expect(await db.query(`SELECT 1 FROM "keyed_lease"`)).toHaveLength(0);
    });

    it('claims nothing while another worker holds the lock', async () => {
      let release!: () => void;
      const holding = locks.run('c1', 'cand-1', () => new Promise<void>((resolve) => (release = resolve)));
      await new Promise((resolve) => setTimeout(resolve, 50));
      await expect(claimOrFind('evt-2', 200)).rejects.toBeInstanceOf(NotReadyError);
      expect(await links.find(key)).toBeUndefined();
      release();
      await holding;
    });

    it('reads an existing link under a later token and claims nothing', async () => {
      const first = await claimOrFind('evt-1');
      await links.applied(key, { ...created, fence: first.token });
      const { token, found } = await claimOrFind('evt-2');
      expect(token).toBeGreaterThan(first.token);
      expect(found).toMatchObject({
        erased: false,
        claimed: false,
        link: { state: 'linked', externalId: '42', createdEventId: 'evt-1', fence: String(token), sent },
      });
      // The first holder is refused from now on: a later holder has read the record.
      await expect(
        links.applied(key, { event, contentHash: 'hash', sent, fence: first.token }),
      ).rejects.toThrow(LeaseLostError);
    });

    it('keeps the claim time of a pending row it reads (the unsure wait counts from it)', async () => {
      await claimOrFind('evt-1');
      await db.query(`UPDATE "candidate_link" SET "updated_at" = now() - interval '1 hour'`);
      const { found } = await claimOrFind('evt-2');
      if (found.erased || found.claimed) throw new Error('expected the pending link');
      expect(found.link.state).toBe('pending');
      expect(Date.now() - (found.link.updatedAt?.getTime() ?? Date.now())).toBeGreaterThan(3_000_000);
    });

    it('is refused when a later holder has fenced the row, and lets the lock go', async () => {
      await claimOrFind('evt-1');
      await db.query(`UPDATE "candidate_link" SET "fence" = 9000000000`);
      await expect(claimOrFind('evt-2')).rejects.toBeInstanceOf(NotReadyError);
      expect(await db.query(`SELECT 1 FROM "keyed_lease"`)).toHaveLength(0);
    });

    it('reports an erased candidate and writes nothing', async () => {
      await db.query(
        `INSERT INTO "erased_candidate" ("account_id", "candidate_id") VALUES ('acct', 'cand-1')`,
      );
      expect((await claimOrFind('evt-1')).found).toEqual({ erased: true });
      expect(await links.find(key)).toBeUndefined();
    });
  });

  it('applied with the created record links it and records the event in one statement', async () => {
    const { token } = await claimOrFind('evt-1');
    await links.applied(key, { ...created, fence: token });
    expect(await links.find(key)).toMatchObject({
      state: 'linked',
      externalId: '42',
      createdEventId: 'evt-1',
      lastEventId: 'evt-1',
      contentHash: 'hash',
      sent,
    });
  });

  it('applied without a created record keeps the link and its creator, and records the event', async () => {
    const first = await claimOrFind('evt-1');
    await links.applied(key, { ...created, fence: first.token });
    const later = { id: 'evt-2', occurredAt: '2026-11-02T10:00:00.000Z' };
    const newer = { fields: { FirstName: 'h2' }, children: {} };
    const { token } = await claimOrFind('evt-2');
    await links.applied(key, { event: later, contentHash: 'hash-2', sent: newer, fence: token });
    expect(await links.find(key)).toMatchObject({
      state: 'linked',
      externalId: '42',
      createdEventId: 'evt-1',
      lastEventId: 'evt-2',
      lastOccurredAt: new Date(later.occurredAt),
      contentHash: 'hash-2',
      sent: newer,
      fence: String(token),
    });
  });

  it('keeps the time of an event partly applied, so an older one is stale and this one applies again', async () => {
    const first = await claimOrFind('evt-1');
    await links.applied(key, { ...created, fence: first.token });
    // evt-3 sends the candidate's fields, then fails on a child record: never marked applied.
    const third = { id: 'evt-3', occurredAt: '2026-11-03T10:00:00.000Z' };
    const { token } = await claimOrFind('evt-3');
    await links.saveSent(key, {
      sent: { fields: { FirstName: 'h3' }, children: {} },
      fence: token,
      occurredAt: third.occurredAt,
    });
    const link = await links.find(key);
    expect(link).toMatchObject({ lastEventId: 'evt-1', lastOccurredAt: new Date(third.occurredAt) });
    // evt-2, older than what the ATS has now, would overwrite it: stale. evt-3 again finishes its work.
    expect(orderOf({ id: 'evt-2', occurredAt: '2026-11-02T10:00:00.000Z' }, 'hash-2', link)).toBe('stale');
    expect(orderOf(third, 'hash-3', link)).toBe('apply');
  });

  it('lets the lock go with the last write, in the same statement', async () => {
    await locks.runBy(
      links.claimOrFind(key, { accountId: 'acct', eventId: 'evt-1' }),
      async ({ token, release }) => {
        expect(await db.query(`SELECT 1 FROM "keyed_lease"`)).toHaveLength(1);
        await links.applied(key, { ...created, fence: token, release });
        expect(await db.query(`SELECT 1 FROM "keyed_lease"`)).toHaveLength(0);
      },
    );
    expect(await links.find(key)).toMatchObject({ state: 'linked', externalId: '42' });
    // The next holder takes it at once.
    expect((await claimOrFind('evt-2', 100)).found).toMatchObject({ claimed: false });
  });
});
