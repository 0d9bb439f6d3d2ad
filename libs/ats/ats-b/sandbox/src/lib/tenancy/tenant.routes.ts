import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AtsBError } from '../ats-b.error';
import type { AtsBTenantOptions } from '../ats-b-sandbox.options';
import { tokenTagOf } from '../oauth.store';
import { queryOf, type SandboxContext } from '../sandbox.context';
import { type AtsBTenants, isTenantName, TENANT_PREFIX, tenantOfUser } from './ats-b-tenants';

const TENANT_FIELDS = new Set(['name', 'jobs', 'seed', 'perMinuteLimit', 'latencyMs', 'jitterMs']);
/** The vendor-wide calls whose tenant is named by the code or token in their query string. */
const TAGGED: Record<string, string[]> = {
  '/oauth/token': ['code', 'refresh_token'],
  '/rest-services/login': ['access_token'],
};

/**
 * How a request reaches its tenant, the way a customer's calls reach their own data centre at the vendor:
 * - `/t/<name>/…` (the tenant's restUrl, loginInfo, admin surface) is handed to the tenant's app before its
 *   body is read, the prefix taken off;
 * - the login form of a tenant's user (`<user>@<name>`) is sent on with a 307 to the tenant's own authorize
 *   page (the vendor's redirect to the right data centre; the browser posts the form again);
 * - `/oauth/token` and `/rest-services/login` with a tenant's code or token in the query string (where the
 *   vendor documents them) go to that tenant.
 * Everything else is the default tenant, exactly as without tenants.
 */
export function registerTenantRoutes(app: FastifyInstance, ctx: SandboxContext, tenants: AtsBTenants): void {
  const handOver = async (
    request: FastifyRequest,
    reply: FastifyReply,
    name: string,
    url: string,
  ): Promise<FastifyReply> => {
    const tenant = await tenants.open(name);
    reply.hijack();
    request.raw.url = url;
    tenant.app.routing(request.raw, reply.raw);
    return reply;
  };

  app.all(
    `${TENANT_PREFIX}/*`,
    {
      onRequest: async (request, reply) => {
        const url = request.raw.url ?? '';
        const end = url.indexOf('/', TENANT_PREFIX.length + 1);
        if (end < 0) throw AtsBError.badRequest(`A tenant's address is ${TENANT_PREFIX}/<name>/…`);
        return handOver(request, reply, url.slice(TENANT_PREFIX.length + 1, end), url.slice(end));
      },
    },
    async () => undefined,
  );

  app.addHook('onRequest', async (request, reply) => {
    const params = TAGGED[request.url.split('?', 1)[0]];
    if (!params) return;
    const query = queryOf(request);
    const tag = params.map((p) => query[p]).find(Boolean);
    const name = tag ? tokenTagOf(tag) : undefined;
    if (name === undefined || !isTenantName(name)) return;
    await handOver(request, reply, name, request.raw.url ?? '');
    return reply;
  });

  app.addHook('preValidation', async (request, reply) => {
    if (request.url.split('?', 1)[0] !== '/oauth/authorize') return;
    const body = (typeof request.body === 'object' && request.body) || {};
    const username = (body as Record<string, unknown>)['username'] ?? queryOf(request)['username'];
    const name = tenantOfUser(typeof username === 'string' ? username : undefined);
    if (name === undefined) return;
    await tenants.open(name);
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    return reply
      .code(307)
      .header('location', `${ctx.baseUrl()}${TENANT_PREFIX}/${name}/oauth/authorize${query}`)
      .header('cache-control', 'no-store')
      .send();
  });

  app.get('/__sandbox/tenants', async () => ({
    tenants: tenants.names().map((name) => {
      const state = tenants.get(name)?.state;
      return { name, jobs: state?.jobs.size, calls: state?.totalCalls(), tokens: state?.auth.counts() };
    }),
  }));
  app.post('/__sandbox/tenants', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (typeof body !== 'object' || Array.isArray(body))
      throw AtsBError.badRequest('Body must be a JSON object');
    const unknown = Object.keys(body).filter((key) => !TENANT_FIELDS.has(key));
    if (unknown.length) throw AtsBError.badRequest(`Unknown tenant fields: ${unknown.join(', ')}`);
    if (typeof body['name'] !== 'string') throw AtsBError.badRequest('name is required');
    for (const key of ['jobs', 'seed', 'perMinuteLimit', 'latencyMs', 'jitterMs']) {
      const value = body[key];
      if (value !== undefined && !(Number.isInteger(value) && (value as number) >= 0)) {
        throw AtsBError.badRequest(`${key} must be a non-negative integer`);
      }
    }
    const tenant = await tenants.create(body['name'], body as AtsBTenantOptions);
    return reply.code(201).send({ name: tenant.name, jobs: tenant.state.jobs.size });
  });
}
