import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AtsBError } from './ats-b.error';
import type { SandboxContext } from './sandbox.context';

const INVALID_REST_TOKEN = {
  errorMessage: "Bad 'BhRestToken' or timed-out.",
  errorMessageKey: 'errors.authentication.invalidRestToken',
  errorCode: 401,
};

/**
 * One hook for every counted route, in Bullhorn's order: count the call, add latency, then (data calls)
 * session check → per-minute limit (token and login: their own limit), then injected errors. Admin routes have no callKey and skip it all.
 */
export function registerRequestPipeline(app: FastifyInstance, ctx: SandboxContext): void {
  app.decorateRequest('bhSession', null);
  app.decorateRequest('callKey', '');
  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    const config = request.routeOptions.config;
    if (config.callKey === undefined) return;
    const key = typeof config.callKey === 'function' ? config.callKey(request) : config.callKey;
    request.callKey = key;
    const { state } = ctx;
    state.calls.record(key);
    const delay = state.faultInjector.delayMs();
    if (delay > 0) await sleep(delay);
    if (config.dataCall) {
      const token = restTokenOf(request);
      if (!token) {
        return reply.code(412).send({
          errorMessage: "Missing 'BhRestToken': send it as a header, query parameter or cookie.",
          errorMessageKey: 'errors.authentication.missingRestToken',
          errorCode: 412,
        });
      }
      const corpToken = (request.params as { corpToken: string }).corpToken;
      const session = state.auth.session(token, corpToken);
      if (!session) return reply.code(401).send(INVALID_REST_TOKEN);
      request.bhSession = session;
      if (state.faultInjector.take429() || !state.limiter.take(session.corpToken)) {
        return reply
          .code(429)
          .header('retry-after', '1')
          .send({
            errorMessage: `Too many requests: over ${state.limiter.limit} requests a minute for this customer, wait 1 second then retry`,
            errorMessageKey: 'errors.tooManyRequests',
            errorCode: 429,
          });
      }
    }
    if (config.authCall && !state.authLimiter.take(key.split(' ').slice(0, 2).join(' '))) {
      return reply
        .code(429)
        .header('retry-after', '1')
        .send({
          errorMessage: `Too many requests: over ${state.authLimiter.limit} a minute on ${key}, never log in in a loop`,
          errorMessageKey: 'errors.tooManyRequests',
          errorCode: 429,
        });
    }
    const status = state.faultInjector.errorFor(key, config.dataCall === true);
    if (status > 0) throw new AtsBError(status, 'errors.injectedFault', `Injected fault on ${key}`);
    return;
  });
}

/** Header first, then query parameter, then cookie, as Bullhorn accepts all three. */
export function restTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers['bhresttoken'];
  if (typeof header === 'string' && header !== '') return header;
  const query = (request.query as Record<string, string | undefined>)['BhRestToken'];
  if (query) return query;
  const cookie = request.headers.cookie;
  if (cookie) {
    const m = /(?:^|;\s*)BhRestToken=([^;]+)/.exec(cookie);
    if (m?.[1]) return decodeURIComponent(m[1]);
  }
  return undefined;
}
