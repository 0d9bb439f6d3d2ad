import { DataSource, type MigrationInterface, type QueryRunner } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '@connector/testing';
import { dataSourceOptions, type PersistenceOptions, runMigrations } from './data-source';
import { KeyedLeaseMigration1763700000002 } from './keyed-lease.migration';
import { schemaDrift } from '../test/schema-drift';
import { KEYED_LEASE_SCHEMA } from './shared-tables';

class OwnTable1763900000200 implements MigrationInterface {
  name = 'OwnTable1763900000200';
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "own_table" ("id" text PRIMARY KEY)`);
  }
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "own_table"`);
  }
}

describe(runMigrations.name, () => {
  let database: TestDatabase;
  const opened: DataSource[] = [];

  const open = async (options: Omit<PersistenceOptions, 'url' | 'entities'>) => {
    const dataSource = new DataSource(dataSourceOptions({ ...options, url: database.url, entities: [] }));
    opened.push(await dataSource.initialize());
    return dataSource;
  };
  const history = async (dataSource: DataSource, table: string) =>
    ((await dataSource.query(`SELECT name FROM "${table}" ORDER BY id`)) as Array<{ name: string }>).map(
      (row) => row.name,
    );

  beforeEach(async () => {
    database = await createTestDatabase('run_migrations');
  });

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((dataSource) => dataSource.destroy()));
    await database.drop();
  });

  it("records a shared table's migrations once, in its owner's history, however many services use it", async () => {
    const shared = [KEYED_LEASE_SCHEMA];
    const first = await open({ service: 'first-service', migrations: [OwnTable1763900000200], shared });
    expect(await runMigrations(first, shared)).toEqual([
      'KeyedLeaseMigration1763700000002',
      'KeyedLeaseTokenMigration1763900000500',
      'KeyedLeaseTokenOwnedMigration1764000003003',
      'OwnTable1763900000200',
    ]);
    const second = await open({ service: 'second-service', migrations: [], shared });
    expect(await runMigrations(second, shared)).toEqual([]);

    expect(await history(first, 'migrations_persistence')).toEqual([
      'KeyedLeaseMigration1763700000002',
      'KeyedLeaseTokenMigration1763900000500',
      'KeyedLeaseTokenOwnedMigration1764000003003',
    ]);
    expect(await history(first, 'migrations_first_service')).toEqual(['OwnTable1763900000200']);
    expect(await history(first, 'migrations_second_service')).toEqual([]);
  });

  it('migrates a database whose services recorded the shared migrations in their own histories', async () => {
    // Before shared tables had one owner, each service ran their migrations in its own history.
    const before = await open({
      service: 'candidate-sync',
      migrations: [KeyedLeaseMigration1763700000002, OwnTable1763900000200],
    });
    await runMigrations(before);
    await before.query(
      `INSERT INTO keyed_lease (namespace, key, owner, expires_at) VALUES ('n', 'k', 'o', now() + interval '1 hour')`,
    );

    const shared = [KEYED_LEASE_SCHEMA];
    const after = await open({ service: 'candidate-sync', migrations: [OwnTable1763900000200], shared });
    expect(await runMigrations(after, shared)).toEqual([
      'KeyedLeaseMigration1763700000002',
      'KeyedLeaseTokenMigration1763900000500',
      'KeyedLeaseTokenOwnedMigration1764000003003',
    ]);
    expect(await runMigrations(after, shared)).toEqual([]);
    expect(await after.query(`SELECT owner FROM keyed_lease`)).toEqual([{ owner: 'o' }]);
    // What the service recorded stays: its names are never run again.
    expect(await history(after, 'migrations_candidate_sync')).toEqual([
      'KeyedLeaseMigration1763700000002',
      'OwnTable1763900000200',
    ]);
  });
});

describe('persistence tables', () => {
  it('match their entities once the migrations ran', async () => {
    const database = await createTestDatabase('drift');
    const shared = [KEYED_LEASE_SCHEMA];
    try {
      expect(
        await schemaDrift(database.url, {
          service: 'persistence-test',
          entities: [],
          migrations: [],
          shared,
        }),
      ).toEqual([]);
    } finally {
      await database.drop();
    }
  });
});
