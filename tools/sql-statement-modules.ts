import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  type LinkTableDescriptor,
  type LinkKeyBase,
  linkStatements,
  type OrderedLinkTableDescriptor,
  orderedLinkStatements,
} from '@connector/exactly-once';
import type { RowShape } from '@connector/persistence';

/**
 * The hand-written statements of the repository, for the specs that check them against the migrated schema
 * (sql-statements.int-spec.ts) and as each service's database role (db-roles.int-spec.ts). They are found,
 * not listed: each `*.sql.ts` module under apps/ and libs/ is imported and its exports read (statements, SQL
 * text constants, link-table descriptors and records of statements).
 */

const ROOT = join(__dirname, '..');

/** `*.sql.ts` modules that only generate statements (from descriptors found in other modules). */
export const GENERATORS = ['libs/exactly-once/src/lib/link-table.sql.ts'];

const SQL_TEXT = /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b/i;

export interface FoundStatement {
  name: string;
  sql: string;
  /** The result row it declares (`withRow`), if any. */
  row?: RowShape;
}

export interface SqlModule {
  /** Its path from the repository's root. */
  path: string;
  /** The app it belongs to, when in one (its statements run there only). */
  app?: string;
  statements: FoundStatement[];
}

function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    if (entry === 'node_modules') return [];
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return filesUnder(path, suffix);
    return path.endsWith(suffix) ? [path] : [];
  });
}

function isStatement(value: unknown): value is { sql: string; row?: RowShape } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { sql?: unknown }).sql === 'string' &&
    typeof (value as { params?: unknown }).params === 'function'
  );
}

function isLinkTable(value: unknown): value is LinkTableDescriptor<LinkKeyBase, object> {
  const d = value as Partial<LinkTableDescriptor<LinkKeyBase, object>> | null;
  return (
    typeof d === 'object' &&
    d !== null &&
    typeof d.table === 'string' &&
    typeof d.key === 'object' &&
    typeof d.claim === 'object' &&
    Array.isArray(d.reclaim)
  );
}

/** The statements a module's exports hold, each named by its export. */
function statementsOf(exports: Record<string, unknown>): FoundStatement[] {
  return Object.entries(exports).flatMap(([name, value]): FoundStatement[] => {
    if (isStatement(value)) return [{ name, sql: value.sql, row: value.row }];
    if (typeof value === 'string') return SQL_TEXT.test(value) ? [{ name, sql: value }] : [];
    if (isLinkTable(value)) {
      const sent = (value as Partial<OrderedLinkTableDescriptor<LinkKeyBase, object>>).sent;
      const generated =
        typeof sent === 'string'
          ? orderedLinkStatements(value as OrderedLinkTableDescriptor<LinkKeyBase, object>)
          : linkStatements(value);
      return Object.entries(generated).map(([each, statement]) => ({
        name: `${name}.${each}`,
        sql: statement.sql,
        row: statement.row,
      }));
    }
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      return Object.entries(value)
        .filter(([, each]) => isStatement(each))
        .map(([each, statement]) => {
          const { sql, row } = statement as { sql: string; row?: RowShape };
          return { name: `${name}.${each}`, sql, row };
        });
    }
    return [];
  });
}

/** Every `*.sql.ts` module under apps/ and libs/, with the statements it exports. */
export async function sqlModules(): Promise<SqlModule[]> {
  const paths = [...filesUnder(join(ROOT, 'apps'), '.sql.ts'), ...filesUnder(join(ROOT, 'libs'), '.sql.ts')];
  const modules: SqlModule[] = [];
  for (const path of paths.map((each) => relative(ROOT, each))) {
    const statements = statementsOf((await import(join(ROOT, path))) as Record<string, unknown>);
    modules.push({ path, app: /^apps\/([^/]+)\//.exec(path)?.[1], statements });
  }
  return modules;
}
