import { Column, DataSource, Entity, PrimaryColumn } from 'typeorm';
import { LeaseLostError } from '@connector/persistence';
import { createTestDatabase, type TestDatabase } from '@connector/testing';
import { LinkColumns, LinkTable } from './link-table';

@Entity('thing_link')
class ThingLinkEntity extends LinkColumns {
  @PrimaryColumn('text', { name: 'record_id' }) recordId!: string;
  @Column('text', { nullable: true }) note!: string | null;
}

describe(LinkTable.name, () => {
  let database: TestDatabase;
  let db: DataSource;
  let table: LinkTable<ThingLinkEntity>;
  const key = { recordId: 'r1' };

  beforeAll(async () => {
    database = await createTestDatabase('link_table');
    db = await new DataSource({
      type: 'postgres',
      url: database.url,
      entities: [ThingLinkEntity],
    }).initialize();
    await db.query(`
      CREATE TABLE "thing_link" (
        "record_id" text PRIMARY KEY, "external_id" text, "state" text NOT NULL, "note" text, "fence" bigint,
        "created_at" timestamptz NOT NULL DEFAULT now(), "updated_at" timestamptz NOT NULL DEFAULT now())`);
    table = new LinkTable(db.getRepository(ThingLinkEntity));
  });

  afterAll(async () => {
    await db?.destroy();
    await database.drop();
  });

  beforeEach(() => db.query(`DELETE FROM "thing_link"`));

  it("refuses a stale holder's claim and writes once a later holder has read the record", async () => {
    // Holder 5 claims and is about to create; its lease lapses and holder 9 reads the record.
    await table.claim(key, { note: 'by 5' }, ['note'], 5);
    expect(await table.find(key, 9)).toMatchObject({ state: 'pending', fence: '9', note: 'by 5' });

    await expect(table.claim(key, { note: 'by 5 again' }, ['note'], 5)).rejects.toBeInstanceOf(
      LeaseLostError,
    );
    await expect(table.link(key, 'ats-5', {}, 5)).rejects.toBeInstanceOf(LeaseLostError);
    await expect(table.update(key, { note: 'late' }, 5)).rejects.toBeInstanceOf(LeaseLostError);
    await expect(table.find(key, 5)).rejects.toBeInstanceOf(LeaseLostError);
    await table.release(key, 5); // refused quietly: the claim stays for holder 9
    expect(await table.find(key)).toMatchObject({ state: 'pending', note: 'by 5', externalId: null });

    // Holder 9 goes on.
    await table.claim(key, { note: 'by 9' }, ['note'], 9);
    await table.link(key, 'ats-9', {}, 9);
    expect(await table.find(key)).toMatchObject({ state: 'linked', externalId: 'ats-9', note: 'by 9' });
  });

  it('takes any token on a row from before fencing, and writes without one as before', async () => {
    await table.claim(key, { note: 'unfenced' });
    expect(await table.find(key)).toMatchObject({ fence: null });
    await table.link(key, 'ats-1', {}, 3);
    expect(await table.find(key)).toMatchObject({ fence: '3', externalId: 'ats-1' });
    // A linked row is not claimed again, fenced or not.
    await table.claim(key, { note: 'again' }, ['note']);
    await expect(table.claim(key, { note: 'again' }, ['note'], 4)).rejects.toBeInstanceOf(LeaseLostError);
    expect(await table.find(key)).toMatchObject({ state: 'linked', note: 'unfenced' });
  });
});
