import type { Logger, QueryRunner } from 'typeorm';

/** A statement as the code runs it, whose plan a test checks. */
export interface PlannedStatement {
  name: string;
  sql: string;
  params?: unknown[];
  /** Run as a prepared statement (`preparedStatements`): Postgres may switch to its generic plan, checked too. */
  prepared?: boolean;
}

/** One connection (a pg Client, a TypeORM QueryRunner): PREPARE and the plan setting stay on it. */
interface Session {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

/** A statement with named parameters (SqlStatement), as far as a plan check needs it. */
interface NamedStatement<V> {
  sql: string;
  params(values: V): unknown[];
}

/**
 * Every statement of a set generated together (a link table's LinkStatements), each bound to `values`, one
 * sample that names every parameter any of them takes; run prepared, as the code runs them.
 */
export function plannedStatements<V>(
  prefix: string,
  statements: Record<string, NamedStatement<NoInfer<V>>>,
  values: V,
): PlannedStatement[] {
  return Object.entries(statements).map(([name, statement]) => ({
    name: `${prefix} ${name}`,
    sql: statement.sql,
    params: statement.params(values),
    prepared: true,
  }));
}

/**
 * Where the statements read a whole big table: each one's plan (EXPLAIN, not run) searched for a Seq Scan
 * on one of `bigTables`. Empty: every statement reaches them through an index. Each finding names the
 * statement, the table and the whole plan, so a failing test says what to index.
 */
export async function wholeTableScans(
  session: Session,
  statements: readonly PlannedStatement[],
  bigTables: readonly string[],
): Promise<string[]> {
  const findings: string[] = [];
  for (const statement of statements) {
    const plans: Array<[string, string]> = [['', await explain(session, statement.sql, statement.params)]];
    if (statement.prepared) {
      plans.push([' (generic plan)', await explainGeneric(session, statement.sql, statement.params ?? [])]);
    }
    for (const [which, json] of plans) {
      const root = (JSON.parse(json) as Array<{ Plan: PlanNode }>)[0].Plan;
      const scanned = seqScans(root).filter((table) => bigTables.includes(table));
      if (scanned.length > 0) {
        findings.push(
          `${statement.name}${which}: Seq Scan on ${scanned.join(', ')}\n${await explainText(session, statement)}`,
        );
      }
    }
  }
  return findings;
}

function seqScans(node: PlanNode): string[] {
  const own = node['Node Type'] === 'Seq Scan' && node['Relation Name'] ? [node['Relation Name']] : [];
  return [...own, ...(node.Plans ?? []).flatMap(seqScans)];
}

async function explain(session: Session, sql: string, params: unknown[] = []): Promise<string> {
  return planOf(await session.query(`EXPLAIN (FORMAT JSON) ${sql}`, params));
}

async function explainText(session: Session, statement: PlannedStatement): Promise<string> {
  const rows = rowsOf(await session.query(`EXPLAIN ${statement.sql}`, statement.params ?? []));
  return rows.map((row) => String(Object.values(row)[0])).join('\n');
}

/** The plan Postgres uses once a prepared statement goes generic (PG 15 has no EXPLAIN (GENERIC_PLAN)). */
async function explainGeneric(session: Session, sql: string, params: unknown[]): Promise<string> {
  await session.query(`PREPARE plan_check AS ${sql}`);
  try {
    await session.query(`SET plan_cache_mode = force_generic_plan`);
    // EXECUTE takes no bound parameters: the values go in as literals, typed by the prepared statement.
    const args = params.map(literal).join(', ');
    return planOf(await session.query(`EXPLAIN (FORMAT JSON) EXECUTE plan_check${args ? `(${args})` : ''}`));
  } finally {
    await session.query(`RESET plan_cache_mode`);
    await session.query(`DEALLOCATE plan_check`);
  }
}

/** A parameter as an untyped SQL literal, as node-postgres would send it. */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean')
    return String(value);
  const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;
  if (value instanceof Date) return quote(value.toISOString());
  if (Array.isArray(value)) {
    const items = value.map((item) =>
      item === null ? 'NULL' : `"${String(item).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`,
    );
    return quote(`{${items.join(',')}}`);
  }
  return quote(typeof value === 'string' ? value : JSON.stringify(value));
}

function planOf(result: unknown): string {
  const [row] = rowsOf(result);
  const plan = row?.['QUERY PLAN'];
  return typeof plan === 'string' ? plan : JSON.stringify(plan);
}

function rowsOf(result: unknown): Array<Record<string, unknown>> {
  if (Array.isArray(result)) return result as Array<Record<string, unknown>>;
  return ((result as { rows?: unknown[] }).rows ?? []) as Array<Record<string, unknown>>;
}

/** Statements that are not queries of the code's own: transaction control. */
const CONTROL = /^\s*(START TRANSACTION|BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE SAVEPOINT|SET |SHOW )/i;

/**
 * A TypeORM logger that records the statements a piece of code runs (`during`), with their parameters, so a
 * plan test checks the queries the repositories really build, not a copy of them. Give it as the data
 * source's `logger`.
 */
export class StatementRecorder implements Logger {
  private recording?: PlannedStatement[];
  private name = '';

  async during(name: string, work: () => Promise<unknown>): Promise<PlannedStatement[]> {
    const recorded: PlannedStatement[] = [];
    this.recording = recorded;
    this.name = name;
    try {
      await work();
    } finally {
      this.recording = undefined;
    }
    const distinct = recorded.filter((s, i) => recorded.findIndex((o) => o.sql === s.sql) === i);
    return distinct.map((s, i) => (distinct.length > 1 ? { ...s, name: `${name} #${i + 1}` } : s));
  }

  /** TypeORM's queries come with their query runner; `preparedStatements`' without one. */
  logQuery(query: string, parameters?: unknown[] | object, queryRunner?: QueryRunner): void {
    if (!this.recording || CONTROL.test(query)) return;
    this.recording.push({
      name: this.name,
      sql: query,
      params: Array.isArray(parameters) ? parameters : [],
      ...(queryRunner ? {} : { prepared: true }),
    });
  }

  logQueryError(): void {
    // the test sees the error itself
  }
  logQuerySlow(): void {
    // not needed
  }
  logSchemaBuild(): void {
    // not needed
  }
  logMigration(): void {
    // not needed
  }
  log(): void {
    // not needed
  }
}
