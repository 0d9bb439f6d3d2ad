import type { DataSource } from 'typeorm';
import { CandidateLocks } from '@connector/exactly-once';
import { NotReadyError } from '@connector/messaging';
import { LeaseLostError } from '@connector/persistence';
import { migratedDataSource } from '@connector/persistence/testing';
import { createTestDatabase, type TestDatabase } from '@connector/testing';
import { SERVICE_NAME } from '../document-service.config';
import { DOCUMENT_SERVICE_SCHEMA } from '../document-service.schema';
import { DocumentLinkRepository } from './document-link.repository';

describe(DocumentLinkRepository.name, () => {
  let database: TestDatabase;
  let db: DataSource;
  let links: DocumentLinkRepository;
  let locks: CandidateLocks;
  const key = { connectorId: 'c1', candidateId: 'cand-1', sha256: 'ab'.repeat(32) };

  /** The lock and claimOrFind in one statement, as DocumentSyncService takes them; released after. */
  const claimOrFind = (documentId: string, waitMs?: number) =>
    (waitMs === undefined ? locks : new CandidateLocks(db, { namespace: 'document-service', waitMs })).runBy(
      links.claimOrFind(key, { accountId: 'acct', documentId }),
      async ({ token }, found) => ({ token, found }),
    );

  beforeAll(async () => {
    database = await createTestDatabase('document_links');
    db = await migratedDataSource(database.url, { service: SERVICE_NAME, ...DOCUMENT_SERVICE_SCHEMA });
    links = new DocumentLinkRepository(db);
    locks = new CandidateLocks(db, { namespace: 'document-service', waitMs: 1_000 });
  });

  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  beforeEach(() =>
    db.query(`DELETE FROM "document_link"; DELETE FROM "erased_candidate"; DELETE FROM "keyed_lease"`),
  );

  it('takes the lock and claims the upload of a new file, in one statement', async () => {
    const { token, found } = await claimOrFind('doc-1');
    expect(found).toEqual({ erased: false, claimed: true });
    expect(await links.find(key)).toMatchObject({
      state: 'pending',
      externalId: null,
      documentId: 'doc-1',
      fence: String(token),
    });
    expect(await db.query(`SELECT 1 FROM "keyed_lease"`)).toHaveLength(0);
  });

  it('claims nothing while another worker holds the candidate lock', async () => {
    let release!: () => void;
    const holding = locks.run('c1', 'cand-1', () => new Promise<void>((resolve) => (release = resolve)));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(claimOrFind('doc-1', 200)).rejects.toBeInstanceOf(NotReadyError);
    expect(await links.find(key)).toBeUndefined();
    release();
    await holding;
  });

  it('links the file and lets the lock go in one statement; the next holder reads the link', async () => {
    const first = await locks.runBy(
      links.claimOrFind(key, { accountId: 'acct', documentId: 'doc-1' }),
      async ({ token, release }) => {
        expect(await db.query(`SELECT 1 FROM "keyed_lease"`)).toHaveLength(1);
        await links.link(key, { externalId: '42', fence: token, release });
        expect(await db.query(`SELECT 1 FROM "keyed_lease"`)).toHaveLength(0);
        return token;
      },
    );
    // Another document with the same file: found, its first document id kept.
    const { token, found } = await claimOrFind('doc-2', 100);
    expect(token).toBeGreaterThan(first);
    expect(found).toMatchObject({
      erased: false,
      claimed: false,
      link: { state: 'linked', externalId: '42', documentId: 'doc-1' },
    });
    // The first holder is refused from now on: a later holder has read the record.
    await expect(links.link(key, { externalId: '43', fence: first })).rejects.toThrow(LeaseLostError);
  });

  it('is refused when a later holder has fenced the row, and lets the lock go', async () => {
    await claimOrFind('doc-1');
    await db.query(`UPDATE "document_link" SET "fence" = 9000000000`);
    await expect(claimOrFind('doc-1')).rejects.toBeInstanceOf(NotReadyError);
    expect(await db.query(`SELECT 1 FROM "keyed_lease"`)).toHaveLength(0);
  });

  it('reports an erased candidate and writes nothing', async () => {
    await db.query(`INSERT INTO "erased_candidate" ("account_id", "candidate_id") VALUES ('acct', 'cand-1')`);
    expect((await claimOrFind('doc-1')).found).toEqual({ erased: true });
    expect(await links.find(key)).toBeUndefined();
  });
});
