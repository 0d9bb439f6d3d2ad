import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import { ADMIN_PREFIX, API_PREFIX } from '../ats-a.protocol';
import { resolveSandboxOptions, type AtsASandboxOptions } from '../ats-a-sandbox.options';
import { AtsASandboxState } from '../ats-a-sandbox.state';
import { AtsATenants } from '../tenancy/ats-a-tenants';
import { TENANT_PREFIX } from '../tenancy/tenant-name';
import { atsAApiRoutes, type HeldConnection } from './ats-a-api.routes';
import { sendError } from './http-errors';
import { sandboxAdminRoutes } from './sandbox-admin.routes';
import { tenantAdminRoutes, tenantDispatchRoutes } from './tenant.routes';

export interface RunningAtsASandbox {
  /** The customer's base address, WITHOUT /api (e.g. http://127.0.0.1:43121). */
  url: string;
  port: number;
  /** In-process access to the state the admin HTTP surface exposes. */
  state: AtsASandboxState;
  /** The other customer systems this process serves, each under `/t/<name>`. */
  tenants: AtsATenants;
  /** A tenant's base address, WITHOUT /api, as its customer would type it (the tenant starts on first use). */
  tenantUrl(name: string): string;
  /** The fastify instance, for tests that want `inject`. */
  app: FastifyInstance;
  close(): Promise<void>;
}

/** Builds the fastify app without listening (for `inject` in tests); with `tenants`, it serves them too. */
export async function buildAtsASandboxApp(
  state: AtsASandboxState,
  options: { maxUploadBytes: number; logRequests: boolean },
  heldConnections = new Set<HeldConnection>(),
  tenants?: AtsATenants,
): Promise<FastifyInstance> {
  // Logging is off unless asked for: it costs a large share of the throughput budget.
  const app = Fastify({ logger: options.logRequests });
  app.setErrorHandler(sendError);
  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith(`${API_PREFIX}/`)) state.recordCall(`${request.method} (unmatched)`);
    void reply
      .status(404)
      .send({ error_message: `No resource matches ${request.method} ${request.url.split('?')[0]}` });
  });
  await app.register(formbody);
  await app.register(multipart);
  await app.register(atsAApiRoutes, {
    prefix: API_PREFIX,
    state,
    maxUploadBytes: options.maxUploadBytes,
    heldConnections,
  });
  await app.register(sandboxAdminRoutes, { prefix: ADMIN_PREFIX, state });
  if (tenants) {
    await app.register(tenantDispatchRoutes, { tenants });
    await app.register(tenantAdminRoutes, { prefix: ADMIN_PREFIX, tenants });
  }
  return app;
}

export async function startAtsASandbox(options: AtsASandboxOptions = {}): Promise<RunningAtsASandbox> {
  const resolved = resolveSandboxOptions(options);
  const state = new AtsASandboxState(resolved);
  const heldConnections = new Set<HeldConnection>();
  const tenants = new AtsATenants(resolved, (tenantState) =>
    buildAtsASandboxApp(tenantState, resolved, heldConnections),
  );
  const app = await buildAtsASandboxApp(state, resolved, heldConnections, tenants);
  await app.listen({ port: resolved.port, host: resolved.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : resolved.port;
  const host = resolved.host.includes(':') ? `[${resolved.host}]` : resolved.host;
  let closed: Promise<void> | undefined;
  const url = `http://${host}:${port}`;
  return {
    url,
    port,
    state,
    tenants,
    tenantUrl: (name) => `${url}${TENANT_PREFIX}/${name}`,
    app,
    close: () => {
      closed ??= (async () => {
        // Held (timed-out) connections would keep close() waiting for their 30 s timers.
        for (const held of heldConnections) {
          clearTimeout(held.timer);
          held.socket.destroy();
        }
        heldConnections.clear();
        await app.close();
        await tenants.close();
      })();
      return closed;
    },
  };
}
