import { createHash } from 'node:crypto';
import type { Pool, QueryResult } from 'pg';
import type { DataSource } from 'typeorm';
import type { SqlQueryable } from './sql-rows';

/** Postgres's answer to a prepared statement whose result columns changed since it was prepared. */
const RESULT_TYPE_CHANGED = 'cached plan must not change result type';

/**
 * For hand-written statements that run for every message: each is prepared, named by a hash of its text, so
 * a pooled connection has Postgres parse and plan it once and then only bind and run it (that halved
 * Postgres's CPU per candidate event; docs/benchmarks.md). They run on the DataSource's pg pool directly,
 * without TypeORM's query runner, and answer pg's `{ rows }` (rowsOf reads it). For constant SQL texts with
 * their values as parameters: every distinct text stays prepared on every connection of the pool.
 *
 * A statement whose result columns change under it (a migration adds a column to a table it returns `*` of)
 * fails on the connections that prepared it before; it is then prepared again under a new name and run.
 *
 * Each is told to the DataSource's logger as TypeORM's own queries are, without a query runner (the plan
 * checks' StatementRecorder reads that as "prepared" and checks its generic plan too).
 */
export function preparedStatements(dataSource: DataSource): SqlQueryable {
  /** Per text: its hash (computed once) and how often it was prepared afresh. */
  const statements = new Map<string, { hash: string; generation: number }>();
  const pool = () => (dataSource.driver as unknown as { master: Pool }).master;
  const statementOf = (text: string) => {
    let statement = statements.get(text);
    if (!statement) {
      statement = { hash: createHash('sha256').update(text).digest('hex').slice(0, 24), generation: 0 };
      statements.set(text, statement);
    }
    return statement;
  };
  return {
    async query(text: string, values: unknown[] = []): Promise<QueryResult> {
      const statement = statementOf(text);
      const generation = statement.generation;
      const named = () => ({ name: `s${statement.hash}_${statement.generation}`, text, values });
      dataSource.logger.logQuery(text, values);
      try {
        return await pool().query(named());
      } catch (error) {
        if (!(error instanceof Error) || !error.message.includes(RESULT_TYPE_CHANGED)) throw error;
        // A new name, once for all the calls that failed together: every connection prepares it afresh.
        if (statement.generation === generation) statement.generation += 1;
        return await pool().query(named());
      }
    },
  };
}
