import type { BrokerService } from '@connector/messaging';
import {
  databaseRoleOf,
  ensureLoginRole,
  grantServiceRoles,
  type PersistenceOptions,
  rowsOf,
  type ServiceRole,
  type SqlQueryable,
} from '@connector/persistence';
import { AUTH_GATEWAY_SCHEMA } from '../apps/auth-gateway/src/app/auth-gateway.schema';
import { CANDIDATE_SYNC_SCHEMA } from '../apps/candidate-sync/src/app/candidate-sync.schema';
import { CONNECTOR_REGISTRY_SCHEMA } from '../apps/connector-registry/src/app/connector-registry.schema';
import { DOCUMENT_SERVICE_SCHEMA } from '../apps/document-service/src/app/document-service.schema';
import { VACANCY_SYNC_SCHEMA } from '../apps/vacancy-sync/src/app/vacancy-sync.schema';

/** Each service's tables, as its schema module declares them: all its database role may use. */
export const SERVICE_SCHEMAS: Record<
  BrokerService,
  Pick<PersistenceOptions, 'entities' | 'migrations' | 'shared' | 'tables'>
> = {
  'connector-registry': CONNECTOR_REGISTRY_SCHEMA,
  'auth-gateway': AUTH_GATEWAY_SCHEMA,
  'vacancy-sync': VACANCY_SYNC_SCHEMA,
  'candidate-sync': CANDIDATE_SYNC_SCHEMA,
  'document-service': DOCUMENT_SERVICE_SCHEMA,
};

export const SERVICES = Object.keys(SERVICE_SCHEMAS) as BrokerService[];

/** Every service's role (`connector_registry`, …); tests add a suffix, roles being the whole cluster's. */
export function serviceRoles(suffix = ''): ServiceRole[] {
  return SERVICES.map((service) => ({
    service,
    role: databaseRoleOf(service, suffix),
    schema: SERVICE_SCHEMAS[service],
  }));
}

/** The Secret key holding a service's DATABASE_URL (Kubernetes), e.g. DATABASE_URL_AUTH_GATEWAY. */
export function databaseUrlSecretKey(service: BrokerService): string {
  return `DATABASE_URL_${service.replace(/-/g, '_').toUpperCase()}`;
}

/** `url` (the migrator's DATABASE_URL) as `role`: the same server and database. */
export function databaseUrlAs(url: string, role: string, password: string): string {
  const own = new URL(url);
  own.username = encodeURIComponent(role);
  own.password = encodeURIComponent(password);
  return own.toString();
}

/**
 * `npm run db-roles`: creates or updates every service's login role with its password, then grants each its
 * rights. Run as the tables' owner, with CREATEROLE.
 */
export async function setUpServiceRoles(
  db: SqlQueryable,
  passwordOf: (service: string) => string,
  suffix = '',
): Promise<ServiceRole[]> {
  const roles = serviceRoles(suffix);
  for (const { service, role } of roles) await ensureLoginRole(db, role, passwordOf(service));
  await grantServiceRoles(db, roles);
  return roles;
}

/**
 * `npm run migrate`, after the migrations: grants the service roles their rights again (a new table is its
 * service's from its first deploy). Nothing when there are none (one role for every service, as locally);
 * an error when only some exist.
 */
export async function regrantServiceRoles(db: SqlQueryable, suffix = ''): Promise<ServiceRole[]> {
  const roles = serviceRoles(suffix);
  const found = rowsOf(
    await db.query(`SELECT rolname FROM pg_roles WHERE rolname = ANY($1::text[])`, [
      roles.map((r) => r.role),
    ]),
  ).length;
  if (found === 0) return [];
  if (found < roles.length) {
    throw new Error(
      `only ${found} of the ${roles.length} service roles exist (${roles.map((r) => r.role).join(', ')}): run npm run db-roles`,
    );
  }
  await grantServiceRoles(db, roles);
  return roles;
}
