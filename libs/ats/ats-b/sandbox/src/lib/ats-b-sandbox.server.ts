import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import { AtsBError, OAuthError } from './ats-b.error';
import {
  dataCentreOptions,
  resolveOptions,
  routerOptions,
  type AtsBSandboxOptions,
  type ResolvedOptions,
} from './ats-b-sandbox.options';
import { AtsBSandboxState } from './ats-b-sandbox.state';
import { registerCandidateFileRoutes } from './candidate-file.routes';
import { registerCandidateRoutes } from './candidate.routes';
import { type AtsBDataCentre, DataCentreDirectory, ROUTER } from './data-centres/data-centres';
import { registerRouterRoutes } from './data-centres/router.routes';
import { registerEventSubscriptionRoutes } from './event-subscription.routes';
import { registerJobOrderRoutes } from './job-order.routes';
import { registerOAuthRoutes } from './oauth.routes';
import { registerRequestPipeline } from './request-pipeline';
import { registerRestLoginRoutes } from './rest-login.routes';
import type { SandboxContext } from './sandbox.context';
import { ADMIN_PREFIX, registerSandboxAdminRoutes } from './sandbox-admin.routes';
import { AtsBTenants, TENANT_PREFIX } from './tenancy/ats-b-tenants';
import { registerTenantRoutes } from './tenancy/tenant.routes';

export interface RunningAtsBSandbox {
  /** Base, e.g. http://127.0.0.1:43122; with several data centres, the router (the vendor-wide address). */
  url: string;
  /** `${url}/oauth` */
  oauthUrl: string;
  /** `${url}/rest-services` (loginInfo, login) */
  restLoginUrl: string;
  port: number;
  /** The customer's state; with several data centres, the router's (no users, no data): see `dataCentre()`. */
  state: AtsBSandboxState;
  /** With the `dataCentres` option, each data centre on its own listener, in the order given; else empty. */
  dataCentres: AtsBDataCentre[];
  /** A data centre by name; throws for an unknown one. */
  dataCentre(name: string): AtsBDataCentre;
  /** The other customers this process serves, each behind `/t/<name>` with logins `<user>@<name>`. */
  tenants: AtsBTenants;
  /** (Off with several data centres: tenants are a single-data-centre feature.) */
  /** A tenant's own base address (its loginInfo, restUrl and admin surface are under it). */
  tenantUrl(name: string): string;
  /** The login of a template user (`recruiter`) at a tenant: `recruiter@<tenant>`, same password. */
  tenantUser(username: string, tenant: string): string;
  close(): Promise<void>;
}

/**
 * Builds the fastify app without listening; `baseUrl` is read per request so it can be set after listen. With
 * `tenants`, it also routes each tenant's requests to that tenant's app.
 */
export async function buildAtsBSandboxApp(
  ctx: SandboxContext,
  logger = false,
  tenants?: AtsBTenants,
): Promise<FastifyInstance> {
  // Long id lists (`entity/JobOrder/1,2,…` up to 500 ids) sit in one path parameter; fastify's default is 100 chars.
  const app = Fastify({
    logger,
    forceCloseConnections: true,
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: 8192 },
  });
  // Bullhorn clients often send Content-Type: application/json with no body (login, ping): accept it.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new AtsBError(400, 'errors.malformedJson', 'The request body is not valid JSON'), undefined);
    }
  });
  await app.register(formbody);
  await app.register(multipart, { limits: { fileSize: 10 * 1024 * 1024 + 1, files: 1 } });

  app.setErrorHandler((error: FastifyError | AtsBError | OAuthError, _request, reply) => {
    if (error instanceof AtsBError) return reply.code(error.status).send(error.toBody());
    if (error instanceof OAuthError) {
      return reply
        .code(error.status)
        .header('cache-control', 'no-store')
        .send({ error: error.error, error_description: error.description });
    }
    const status = typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) app.log.error(error);
    const key =
      status === 413 ? 'errors.requestTooLarge' : status >= 500 ? 'errors.internal' : 'errors.badRequest';
    return reply.code(status).send({
      errorMessage: status >= 500 ? 'Internal server error' : error.message,
      errorMessageKey: key,
      errorCode: status,
    });
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({
      errorMessage: `No such resource: ${request.method} ${request.url.split('?')[0]}`,
      errorMessageKey: 'errors.notFound',
      errorCode: 404,
    }),
  );

  if (tenants) registerTenantRoutes(app, ctx, tenants);
  const dataCentres = ctx.dataCentres;
  if (dataCentres) {
    if (dataCentres.here === ROUTER) registerRouterRoutes(app, dataCentres.directory);
    app.addHook('onResponse', async (request, reply) => {
      const path = request.url.split('?', 1)[0] ?? '';
      if (path.startsWith(ADMIN_PREFIX)) return;
      dataCentres.directory.record({
        dataCentre: dataCentres.here,
        method: request.method,
        path,
        status: reply.statusCode,
      });
    });
  }
  registerRequestPipeline(app, ctx);
  registerOAuthRoutes(app, ctx);
  registerRestLoginRoutes(app, ctx);
  registerJobOrderRoutes(app, ctx);
  registerCandidateRoutes(app, ctx);
  registerCandidateFileRoutes(app, ctx);
  registerEventSubscriptionRoutes(app, ctx);
  registerSandboxAdminRoutes(app, ctx);
  return app;
}

/**
 * Starts the sandbox on `port` (0 = a free port) and resolves once it is listening. With `dataCentres`, each data
 * centre listens on its own port and `port` is the router's.
 */
export async function startAtsBSandbox(options: AtsBSandboxOptions = {}): Promise<RunningAtsBSandbox> {
  const resolved = resolveOptions(options);
  return resolved.dataCentres.length > 0 ? startDataCentres(resolved) : startOne(resolved);
}

type Stalled = SandboxContext['stalled'];

async function startOne(resolved: ResolvedOptions): Promise<RunningAtsBSandbox> {
  const state = new AtsBSandboxState(resolved);
  let url = resolved.publicUrl?.replace(/\/+$/, '') ?? '';
  const ctx: SandboxContext = { state, baseUrl: () => url, stalled: new Set() };
  const tenants = new AtsBTenants(resolved, (tenantState, name) =>
    buildAtsBSandboxApp(
      { state: tenantState, baseUrl: () => `${url}${TENANT_PREFIX}/${name}`, stalled: ctx.stalled },
      resolved.logger,
    ),
  );
  const app = await buildAtsBSandboxApp(ctx, resolved.logger, tenants);
  const bound = await listen(app, resolved.port, resolved, resolved.publicUrl);
  url = bound.url;
  return running(url, bound.port, state, tenants, [], closer(ctx.stalled, [app], tenants));
}

/** Each data centre on its own listener, then the router on the main port. */
async function startDataCentres(resolved: ResolvedOptions): Promise<RunningAtsBSandbox> {
  const stalled: Stalled = new Set();
  // Addresses and ports are set once each listens (a port asked for as 0 is a free one).
  const dataCentres: AtsBDataCentre[] = resolved.dataCentres.map(({ name, port }) => ({
    name,
    ...addresses(''),
    port,
    state: new AtsBSandboxState(dataCentreOptions(resolved, name)),
  }));
  const directory = new DataCentreDirectory(dataCentres);
  const apps: FastifyInstance[] = [];
  const routerState = new AtsBSandboxState(routerOptions(resolved));
  // Tenants are a single-data-centre feature: none can be opened here (at most 0).
  const tenants = new AtsBTenants(routerOptions(resolved), () => Promise.reject(new Error('no tenants')));
  const close = closer(stalled, apps, tenants);
  let routerUrl = '';
  try {
    for (const dc of dataCentres) {
      const app = await buildAtsBSandboxApp(
        { state: dc.state, baseUrl: () => dc.url, stalled, dataCentres: { here: dc.name, directory } },
        resolved.logger,
      );
      apps.push(app);
      const bound = await listen(app, dc.port, resolved, resolved.publicUrl, true);
      Object.assign(dc, addresses(bound.url), { port: bound.port });
    }
    const router = await buildAtsBSandboxApp(
      { state: routerState, baseUrl: () => routerUrl, stalled, dataCentres: { here: ROUTER, directory } },
      resolved.logger,
    );
    apps.push(router);
    const bound = await listen(router, resolved.port, resolved, resolved.publicUrl);
    routerUrl = bound.url;
    return running(routerUrl, bound.port, routerState, tenants, dataCentres, close);
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Listens and tells the address to advertise: the public one when given (a data centre keeps its host and takes
 * its own port), else the bound host and port.
 */
async function listen(
  app: FastifyInstance,
  port: number,
  resolved: ResolvedOptions,
  publicUrl: string | undefined,
  ownPort = false,
): Promise<{ url: string; port: number }> {
  await app.listen({ port, host: resolved.host });
  const bound = (app.server.address() as AddressInfo).port;
  if (!publicUrl) return { url: `http://${advertisedHost(resolved.host)}:${bound}`, port: bound };
  if (!ownPort) return { url: publicUrl.replace(/\/+$/, ''), port: bound };
  const url = new URL(publicUrl);
  url.port = String(bound);
  return { url: url.toString().replace(/\/+$/, ''), port: bound };
}

function addresses(url: string): { url: string; oauthUrl: string; restLoginUrl: string } {
  return { url, oauthUrl: `${url}/oauth`, restLoginUrl: `${url}/rest-services` };
}

function running(
  url: string,
  port: number,
  state: AtsBSandboxState,
  tenants: AtsBTenants,
  dataCentres: AtsBDataCentre[],
  close: () => Promise<void>,
): RunningAtsBSandbox {
  return {
    ...addresses(url),
    port,
    state,
    dataCentres,
    dataCentre: (name) => {
      const dc = dataCentres.find((d) => d.name === name);
      if (!dc)
        throw new Error(`no data centre '${name}' (${dataCentres.map((d) => d.name).join(', ') || 'none'})`);
      return dc;
    },
    tenants,
    tenantUrl: (name) => `${url}${TENANT_PREFIX}/${name}`,
    tenantUser: (username, tenant) => `${username}@${tenant}`,
    close,
  };
}

/** Closes every listener (and the tenants'), once; held connections are dropped first. */
function closer(stalled: Stalled, apps: FastifyInstance[], tenants: AtsBTenants): () => Promise<void> {
  let closed = false;
  return async () => {
    if (closed) return;
    closed = true;
    for (const held of stalled) {
      clearTimeout(held.timer);
      held.socket.destroy();
    }
    stalled.clear();
    await Promise.all(apps.map((app) => app.close()));
    await tenants.close();
  };
}

function advertisedHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
