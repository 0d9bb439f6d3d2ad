import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import { ADMIN_PREFIX, API_PREFIX } from '../ats-a.protocol';
import { resolveSandboxOptions, type AtsASandboxOptions } from '../ats-a-sandbox.options';
import { AtsASandboxState } from '../ats-a-sandbox.state';
import { atsAApiRoutes, type HeldConnection } from './ats-a-api.routes';
import { sendError } from './http-errors';
import { sandboxAdminRoutes } from './sandbox-admin.routes';

export interface RunningAtsASandbox {
  /** The customer's base address, WITHOUT /api (e.g. http://127.0.0.1:43121). */
  url: string;
  port: number;
  /** In-process access to the state the admin HTTP surface exposes. */
  state: AtsASandboxState;
  /** The fastify instance, for tests that want `inject`. */
  app: FastifyInstance;
  close(): Promise<void>;
}

/** Builds the fastify app without listening (for `inject` in tests). */
export async function buildAtsASandboxApp(
  state: AtsASandboxState,
  options: { maxUploadBytes: number; logRequests: boolean },
  heldConnections = new Set<HeldConnection>(),
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
  return app;
}

export async function startAtsASandbox(options: AtsASandboxOptions = {}): Promise<RunningAtsASandbox> {
  const resolved = resolveSandboxOptions(options);
  const state = new AtsASandboxState(resolved);
  const heldConnections = new Set<HeldConnection>();
  const app = await buildAtsASandboxApp(state, resolved, heldConnections);
  await app.listen({ port: resolved.port, host: resolved.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : resolved.port;
  const host = resolved.host.includes(':') ? `[${resolved.host}]` : resolved.host;
  let closed: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}`,
    port,
    state,
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
      })();
      return closed;
    },
  };
}
