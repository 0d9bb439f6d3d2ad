import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AtsBError } from './ats-b.error';
import type { AtsBSandboxState } from './ats-b-sandbox.state';
import type { DataCentreDirectory } from './data-centres/data-centres';
import type { RestSession } from './oauth.store';

/** What every route module needs: the state and the URL the sandbox advertises. */
export interface SandboxContext {
  state: AtsBSandboxState;
  baseUrl(): string;
  /** Connections held open by timeout-after-write, destroyed on close. */
  stalled: Set<{ socket: Socket; timer: NodeJS.Timeout }>;
  /** With several data centres: which one this app is (or the router), and the vendor-wide directory. */
  dataCentres?: { here: string; directory: DataCentreDirectory };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Endpoint key for call counts and faults; routes without one (admin) are not counted. */
    callKey?: string | ((request: FastifyRequest) => string);
    /** A data call under restUrl: needs a BhRestToken and counts toward the per-minute limit. */
    dataCall?: boolean;
    /** The OAuth token endpoint or the REST login: limited on their own (authPerMinuteLimit). */
    authCall?: boolean;
  }
  interface FastifyRequest {
    bhSession: RestSession | null;
    callKey: string;
  }
}

export type Query = Record<string, string | undefined>;

export function queryOf(request: FastifyRequest): Query {
  return request.query as Query;
}

/**
 * Sends the answer, unless a timeout-after-write fault is armed for this endpoint: then the write has
 * already happened, and the client gets no answer at all (the connection is held, then dropped).
 */
export function answer(
  ctx: SandboxContext,
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  body: unknown,
): FastifyReply {
  const holdMs = ctx.state.faultInjector.takeTimeoutAfterWrite(request.callKey);
  if (holdMs <= 0) return reply.code(status).send(body);
  reply.hijack();
  const socket = request.raw.socket;
  const entry = {
    socket,
    timer: setTimeout(() => {
      socket.destroy();
      ctx.stalled.delete(entry);
    }, holdMs),
  };
  ctx.stalled.add(entry);
  return reply;
}

/** `1,2,3` → ids; Bullhorn answers one id with an object and several with an array. */
export function parseIdList(raw: string): { ids: number[]; multi: boolean } {
  const parts = raw.split(',');
  const ids = parts.map((p) => Number(p.trim()));
  if (ids.some((n) => !Number.isInteger(n) || n <= 0))
    throw AtsBError.badRequest(`Invalid entity id list '${raw}'`, 'errors.invalidId');
  if (ids.length > 500) throw AtsBError.badRequest('At most 500 ids per request', 'errors.tooManyIds');
  return { ids, multi: parts.length > 1 };
}

export function parseId(raw: string, entity: string): number {
  const id = Number(raw);
  if (!Number.isInteger(id) || id <= 0)
    throw AtsBError.badRequest(`Invalid ${entity} id '${raw}'`, 'errors.invalidId');
  return id;
}

export function intParam(raw: string | undefined, name: string, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw AtsBError.badRequest(`'${name}' must be a non-negative integer`);
  return n;
}

export function sessionOf(request: FastifyRequest): RestSession {
  if (!request.bhSession) throw new AtsBError(500, 'errors.internal', 'data route without a session');
  return request.bhSession;
}
