import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AtsATenantOptions } from '../ats-a-sandbox.options';
import { validation } from '../sandbox.error';
import type { AtsATenants } from '../tenancy/ats-a-tenants';
import { splitTenantPath, TENANT_PREFIX } from '../tenancy/tenant-name';

const TENANT_FIELDS = new Set([
  'name',
  'clients',
  'dailyLimit',
  'vacancies',
  'seed',
  'latencyMs',
  'jitterMs',
]);

/**
 * `/t/<name>/…` is handed, before its body is read, to that tenant's own app with the prefix taken off, so a
 * tenant answers exactly as the default one does (same routes, hooks and admin surface) from its own state.
 */
export async function tenantDispatchRoutes(
  app: FastifyInstance,
  options: { tenants: AtsATenants },
): Promise<void> {
  const { tenants } = options;
  const dispatch = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const target = splitTenantPath(request.raw.url ?? '');
    if (!target) throw validation(`A tenant's address is ${TENANT_PREFIX}/<name>/api/…`);
    const tenant = await tenants.open(target.name);
    reply.hijack();
    request.raw.url = target.rest;
    tenant.app.routing(request.raw, reply.raw);
    return reply;
  };
  app.all(`${TENANT_PREFIX}/*`, { onRequest: dispatch }, async () => undefined);
}

/** Under `/__sandbox` of the default tenant: list tenants, or create one with options of its own. */
export async function tenantAdminRoutes(
  app: FastifyInstance,
  options: { tenants: AtsATenants },
): Promise<void> {
  const { tenants } = options;
  app.get('/tenants', async () => ({
    tenants: tenants.names().map((name) => {
      const state = tenants.get(name)?.state;
      return { name, seed: state?.seedInfo(), calls: state?.callCounts().total, quota: state?.quota() };
    }),
  }));
  app.post('/tenants', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (typeof body !== 'object' || Array.isArray(body)) throw validation('Body must be a JSON object');
    const unknown = Object.keys(body).filter((key) => !TENANT_FIELDS.has(key));
    if (unknown.length) throw validation(`Unknown tenant fields: ${unknown.join(', ')}`);
    if (typeof body['name'] !== 'string') throw validation('name is required');
    const tenant = await tenants.create(body['name'], body as AtsATenantOptions);
    return reply.status(201).send({ name: tenant.name, seed: tenant.state.seedInfo() });
  });
}
