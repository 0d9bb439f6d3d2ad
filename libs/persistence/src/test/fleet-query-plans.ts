import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { migratedDataSource, type SchemaDeclaration } from './migrated-data-source';
import { type PlannedStatement, StatementRecorder, wholeTableScans } from './query-plans';

/** The suite's own database (`createTestDatabase` of @connector/testing, which tests its libs with this one). */
interface SuiteDatabase {
  url: string;
  drop(): Promise<void>;
}

/** One statement that fills a big table at fleet size. */
export interface FleetFill {
  sql: string;
  params?: unknown[];
}

/** What a service's plan check gets to name its statements. */
export interface Fleet {
  /** The migrated, filled database, its statements recorded while `record` runs. */
  db: DataSource;
  /** Checks the statements `work` runs, as the repositories build them. */
  record(name: string, work: () => Promise<unknown>): Promise<void>;
  /** Checks statements given as text (a generated set: `plannedStatements`). */
  add(...statements: PlannedStatement[]): void;
}

export interface FleetQueryPlansOptions {
  database: () => Promise<SuiteDatabase>;
  /** The service's tables: `{ service: SERVICE_NAME, ...ITS_SCHEMA }`. */
  schema: SchemaDeclaration;
  /** Fills the big tables, in order; ANALYZE follows. */
  fill: readonly FleetFill[];
  /** The tables no statement may read whole. */
  bigTables: readonly string[];
  /** Names the statements to check, once the tables are filled. */
  statements(fleet: Fleet): Promise<void>;
}

export interface FleetQueryPlans {
  /** Every statement `statements` named (filled in before the suite's tests). */
  readonly statements: readonly PlannedStatement[];
  /** `wholeTableScans` of the big tables by those statements, or by `others`. */
  wholeTableScans(others?: readonly PlannedStatement[]): Promise<string[]>;
}

/**
 * A service's statements at fleet size: before the suite, a database of its own, migrated, the big tables
 * filled and analysed, the statements named; after it, all dropped. Call it at the top of the `describe`.
 */
export function fleetQueryPlans(options: FleetQueryPlansOptions): FleetQueryPlans {
  let database: SuiteDatabase | undefined;
  let db: DataSource | undefined;
  let session: Client | undefined;
  const recorder = new StatementRecorder();
  const statements: PlannedStatement[] = [];

  beforeAll(async () => {
    database = await options.database();
    const migrated = await migratedDataSource(database.url, options.schema, { logger: recorder });
    db = migrated;
    for (const { sql, params } of options.fill) await migrated.query(sql, params);
    await migrated.query(`ANALYZE`);
    await options.statements({
      db: migrated,
      record: async (name, work) => {
        statements.push(...(await recorder.during(name, work)));
      },
      add: (...given) => statements.push(...given),
    });
    session = new Client({ connectionString: database.url });
    await session.connect();
  }, 120_000);

  afterAll(async () => {
    await session?.end();
    await db?.destroy();
    await database?.drop();
  });

  return {
    statements,
    wholeTableScans: async (others = statements) => {
      if (!session) throw new Error('the fleet is not set up: call fleetQueryPlans inside a describe');
      return wholeTableScans(session, others, options.bigTables);
    },
  };
}
