import { Column, DataSource, Entity, PrimaryColumn } from 'typeorm';
import { NotReadyError } from '@connector/messaging';
import { ERASED_CANDIDATE_SCHEMA, KEYED_LEASE_SCHEMA, LeaseLostError } from '@connector/persistence';
import { migratedDataSource } from '@connector/persistence/testing';
import { createTestDatabase, type TestDatabase } from '@connector/testing';
import { CandidateLocks } from './candidate-locks';
import { LinkColumns, LinkTable } from './link-table';
import type { LinkTableDescriptor } from './link-table.sql';

@Entity('thing_link')
class ThingLinkEntity extends LinkColumns {
  @PrimaryColumn('text', { name: 'connector_id' }) connectorId!: string;
  @PrimaryColumn('text', { name: 'candidate_id' }) candidateId!: string;
  @PrimaryColumn('text', { name: 'record_id' }) recordId!: string;
  @Column('text', { nullable: true }) note!: string | null;
}

interface ThingKey {
  connectorId: string;
  candidateId: string;
  recordId: string;
}

const THING_LINKS: LinkTableDescriptor<ThingKey, { note: string }> = {
  table: 'thing_link',
  key: { connectorId: 'connector_id', candidateId: 'candidate_id', recordId: 'record_id' },
  claim: { note: 'note' },
  reclaim: ['note'],
};

/** A thing's prerequisite: a row of `thing_ready` for its candidate. */
const WAITING_THINGS: LinkTableDescriptor<ThingKey, { note: string }> = {
  ...THING_LINKS,
  prerequisite: (p) => `SELECT "ready" FROM "thing_ready" WHERE "candidate_id" = ${p.candidateId}`,
};

describe(LinkTable.name, () => {
  let database: TestDatabase;
  let db: DataSource;
  let table: LinkTable<ThingLinkEntity, ThingKey, { note: string }>;
  let locks: CandidateLocks;
  const key = { connectorId: 'c1', candidateId: 'cand-1', recordId: 'r1' };

  /** A holder's claim-or-find under the candidate lock: its token and what it found. */
  const claimOrFind = (note: string, links = table) =>
    locks.runBy(links.claimOrFind(key, { accountId: 'acct', note }), async ({ token }, found) => ({
      token,
      found,
    }));

  beforeAll(async () => {
    database = await createTestDatabase('link_table');
    const shared = [KEYED_LEASE_SCHEMA, ERASED_CANDIDATE_SCHEMA];
    db = await migratedDataSource(database.url, {
      service: 'link-table-test',
      entities: [ThingLinkEntity],
      migrations: [],
      shared,
    });
    await db.query(`
      CREATE TABLE "thing_link" (
        "connector_id" text, "candidate_id" text, "record_id" text, "external_id" text, "state" text NOT NULL,
        "note" text, "fence" bigint, "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(), PRIMARY KEY ("connector_id", "candidate_id", "record_id"));
      CREATE TABLE "thing_ready" ("candidate_id" text PRIMARY KEY, "ready" text)`);
    table = new LinkTable(db, ThingLinkEntity, THING_LINKS);
    locks = new CandidateLocks(db, { namespace: 'link-table-test', waitMs: 1_000 });
  });

  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  beforeEach(() =>
    db.query(
      `DELETE FROM "thing_link"; DELETE FROM "thing_ready"; DELETE FROM "erased_candidate"; DELETE FROM "keyed_lease"`,
    ),
  );

  it("refuses a stale holder's claim and writes once a later holder has read the record", async () => {
    // The first holder claims and is about to create; its lease lapses and a second holder reads the record.
    const first = await claimOrFind('by first');
    expect(first.found).toEqual({ erased: false, claimed: true });
    const second = await claimOrFind('by second');
    expect(second.token).toBeGreaterThan(first.token);
    expect(second.found).toMatchObject({
      claimed: false,
      link: { state: 'pending', fence: String(second.token), note: 'by first' },
    });

    const stale = { fence: first.token };
    await expect(table.claim(key, { note: 'by first again', ...stale })).rejects.toBeInstanceOf(
      LeaseLostError,
    );
    await expect(table.link(key, { externalId: 'ats-1', ...stale })).rejects.toBeInstanceOf(LeaseLostError);
    await table.release(key, stale); // refused quietly: the claim stays for the second holder
    expect(await table.find(key)).toMatchObject({ state: 'pending', note: 'by first', externalId: null });

    // The second holder goes on.
    await table.claim(key, { note: 'by second', fence: second.token });
    await table.link(key, { externalId: 'ats-2', fence: second.token });
    expect(await table.find(key)).toMatchObject({ state: 'linked', externalId: 'ats-2', note: 'by second' });
  });

  it('takes any token on a row from before fencing; a linked row is not claimed again', async () => {
    await db.query(
      `INSERT INTO "thing_link" ("connector_id", "candidate_id", "record_id", "state", "note")
       VALUES ('c1', 'cand-1', 'r1', 'pending', 'unfenced')`,
    );
    const { token, found } = await claimOrFind('again');
    expect(found).toMatchObject({ claimed: false, link: { fence: String(token), note: 'unfenced' } });
    await table.link(key, { externalId: 'ats-1', fence: token });
    expect(await table.find(key)).toMatchObject({ fence: String(token), externalId: 'ats-1' });
    await expect(table.claim(key, { note: 'again', fence: token })).rejects.toBeInstanceOf(LeaseLostError);
    expect(await table.find(key)).toMatchObject({ state: 'linked', note: 'unfenced' });
  });

  it('lets the lock go when a later holder has fenced the row, and writes nothing for an erased candidate', async () => {
    await claimOrFind('by first');
    await db.query(`UPDATE "thing_link" SET "fence" = 9000000000`);
    await expect(claimOrFind('by second')).rejects.toBeInstanceOf(NotReadyError);
    expect(await db.query(`SELECT 1 FROM "keyed_lease"`)).toHaveLength(0);

    await db.query(`DELETE FROM "thing_link"`);
    await db.query(`INSERT INTO "erased_candidate" ("account_id", "candidate_id") VALUES ('acct', 'cand-1')`);
    expect((await claimOrFind('by third')).found).toEqual({ erased: true });
    expect(await table.find(key)).toBeUndefined();
  });

  it('claims nothing while the prerequisite is missing, then answers it with the claim', async () => {
    const waiting = new LinkTable(db, ThingLinkEntity, WAITING_THINGS);
    const claim = () =>
      locks.runBy(
        waiting.claimOrFindAfter(key, { accountId: 'acct', note: 'n' }),
        async (_lease, found) => found,
      );
    expect(await claim()).toEqual({ erased: false, prerequisite: null });
    expect(await table.find(key)).toBeUndefined();
    await db.query(`INSERT INTO "thing_ready" ("candidate_id", "ready") VALUES ('cand-1', 'yes')`);
    expect(await claim()).toEqual({ erased: false, claimed: true, prerequisite: 'yes' });
    expect(() => waiting.claimOrFind(key, { accountId: 'acct', note: 'n' })).toThrow(TypeError);
  });

  it("refuses a descriptor that does not name the entity's columns", () => {
    expect(() => new LinkTable(db, ThingLinkEntity, { ...THING_LINKS, claim: { note: 'remark' } })).toThrow(
      'thing_link has no column remark',
    );
  });
});
