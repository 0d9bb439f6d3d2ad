import type { EntitySchema, MigrationInterface } from 'typeorm';

// TypeORM's own list type: entity classes or schemas.
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeORM's entity list takes class constructors
export type EntityList = Array<Function | EntitySchema>;

/**
 * A shared table whose rows each belong to one service. Under per-service database roles a role sees and
 * writes only its own rows (row-level security, see service-roles.ts): those whose `column` holds its
 * service's name (`service`), or its role's (`role`: a column that defaults to CURRENT_USER).
 */
export interface RowOwnership {
  table: string;
  column: string;
  holds: 'service' | 'role';
}

/**
 * Tables a lib owns and several services use (`keyed_lease`, `rate_limit_bucket`, …): the lib's entities
 * and its migrations. A service lists the schema; the migrations run once per database, recorded in the
 * owner's migrations table (`migrations_<owner>`), never in a service's, so no service re-declares the
 * tables and a service's history never drops them.
 */
export interface SharedSchema {
  /** The lib that owns the tables, e.g. `rate-limiter`. */
  owner: string;
  entities: EntityList;
  migrations: Array<new () => MigrationInterface>;
  /** Its tables whose rows are each one service's; the others' rows are every user's (e.g. an ATS's budget). */
  ownRows?: RowOwnership[];
}

export function migrationsTableOf(owner: string): string {
  return `migrations_${owner.replace(/-/g, '_')}`;
}
