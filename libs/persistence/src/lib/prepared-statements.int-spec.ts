import { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '@connector/testing';
import { dataSourceOptions } from './data-source';
import { preparedStatements } from './prepared-statements';
import { rowsOf } from './sql-rows';

describe(preparedStatements.name, () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase('prepared_statements');
    // One connection: what one statement prepared, the next one sees.
    dataSource = await new DataSource(
      dataSourceOptions({
        url: database.url,
        service: 'prepared-test',
        entities: [],
        migrations: [],
        poolSize: 1,
      }),
    ).initialize();
    await dataSource.query(`CREATE TABLE item (id int PRIMARY KEY, name text NOT NULL)`);
    await dataSource.query(`INSERT INTO item VALUES (1, 'one'), (2, 'two')`);
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  const preparedOnTheConnection = async () =>
    rowsOf(await dataSource.query(`SELECT statement FROM pg_prepared_statements`)).map((row) =>
      String(row['statement']),
    );

  it('prepares each statement once on a connection and runs it with its values', async () => {
    const db = preparedStatements(dataSource);
    const text = `SELECT name FROM item WHERE id = $1`;
    expect(rowsOf(await db.query(text, [1]))).toEqual([{ name: 'one' }]);
    expect(rowsOf(await db.query(text, [2]))).toEqual([{ name: 'two' }]);
    expect((await preparedOnTheConnection()).filter((statement) => statement === text)).toHaveLength(1);
  });

  it('prepares a statement again when a migration changed the columns it answers', async () => {
    const db = preparedStatements(dataSource);
    const text = `SELECT * FROM item WHERE id = $1`;
    expect(rowsOf(await db.query(text, [1]))).toEqual([{ id: 1, name: 'one' }]);
    await dataSource.query(`ALTER TABLE item ADD COLUMN note text NOT NULL DEFAULT 'new'`);
    expect(rowsOf(await db.query(text, [1]))).toEqual([{ id: 1, name: 'one', note: 'new' }]);
    expect(rowsOf(await db.query(text, [2]))).toEqual([{ id: 2, name: 'two', note: 'new' }]);
  });

  it('passes other errors on as they are', async () => {
    const db = preparedStatements(dataSource);
    await expect(db.query(`SELECT name FROM item WHERE id = $1`, ['not a number'])).rejects.toThrow(
      /invalid input syntax for type integer/,
    );
  });
});
