import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import { AtsBError, OAuthError } from './ats-b.error';
import { resolveOptions, type AtsBSandboxOptions } from './ats-b-sandbox.options';
import { AtsBSandboxState } from './ats-b-sandbox.state';
import { registerCandidateFileRoutes } from './candidate-file.routes';
import { registerCandidateRoutes } from './candidate.routes';
import { registerEventSubscriptionRoutes } from './event-subscription.routes';
import { registerJobOrderRoutes } from './job-order.routes';
import { registerOAuthRoutes } from './oauth.routes';
import { registerRequestPipeline } from './request-pipeline';
import { registerRestLoginRoutes } from './rest-login.routes';
import type { SandboxContext } from './sandbox.context';
import { registerSandboxAdminRoutes } from './sandbox-admin.routes';
import { AtsBTenants, TENANT_PREFIX } from './tenancy/ats-b-tenants';
import { registerTenantRoutes } from './tenancy/tenant.routes';

export interface RunningAtsBSandbox {
  /** Base, e.g. http://127.0.0.1:43122 */
  url: string;
  /** `${url}/oauth` */
  oauthUrl: string;
  /** `${url}/rest-services` (loginInfo, login) */
  restLoginUrl: string;
  port: number;
  state: AtsBSandboxState;
  /** The other customers this process serves, each behind `/t/<name>` with logins `<user>@<name>`. */
  tenants: AtsBTenants;
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

/** Starts the sandbox on `port` (0 = free port) and resolves once it is listening. */
export async function startAtsBSandbox(options: AtsBSandboxOptions = {}): Promise<RunningAtsBSandbox> {
  const resolved = resolveOptions(options);
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
  await app.listen({ port: resolved.port, host: resolved.host });
  const port = (app.server.address() as AddressInfo).port;
  if (!resolved.publicUrl) url = `http://${advertisedHost(resolved.host)}:${port}`;
  let closed = false;
  return {
    url,
    oauthUrl: `${url}/oauth`,
    restLoginUrl: `${url}/rest-services`,
    port,
    state,
    tenants,
    tenantUrl: (name) => `${url}${TENANT_PREFIX}/${name}`,
    tenantUser: (username, tenant) => `${username}@${tenant}`,
    close: async () => {
      if (closed) return;
      closed = true;
      for (const held of ctx.stalled) {
        clearTimeout(held.timer);
        held.socket.destroy();
      }
      ctx.stalled.clear();
      await app.close();
      await tenants.close();
    },
  };
}

function advertisedHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
