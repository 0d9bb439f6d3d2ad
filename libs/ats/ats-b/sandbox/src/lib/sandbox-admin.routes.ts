import type { FastifyInstance } from 'fastify';
import { AtsBError } from './ats-b.error';
import { subscriptionNotFound } from './event-subscription.store';
import type { FaultConfig } from './fault-injector';
import type { JobOrderPatch } from './job-order.store';
import { parseId, type SandboxContext } from './sandbox.context';

export const ADMIN_PREFIX = '/__sandbox';

type PatchKind =
  | 'string'
  | 'nullableString'
  | 'boolean'
  | 'zeroOrOne'
  | 'nullableInteger'
  | 'nullableNumber'
  | 'object'
  | 'nullableObject';

/** Each field in the vendor's own type: isPublic takes 1 or 0 here as at the vendor, never true/false. */
const JOB_KEYS: Record<keyof JobOrderPatch, PatchKind> = {
  title: 'nullableString',
  address: 'object',
  publicDescription: 'nullableString',
  description: 'nullableString',
  skillList: 'nullableString',
  employmentType: 'nullableString',
  status: 'nullableString',
  isOpen: 'boolean',
  isPublic: 'zeroOrOne',
  isDeleted: 'boolean',
  numOpenings: 'nullableInteger',
  salary: 'nullableNumber',
  payRate: 'nullableNumber',
  type: 'nullableInteger',
  startDate: 'nullableInteger',
  dateClosed: 'nullableInteger',
  dateEnd: 'nullableInteger',
  clientCorporation: 'nullableObject',
  clientContact: 'nullableObject',
};

function fits(kind: PatchKind, value: unknown): boolean {
  switch (kind) {
    case 'string':
      return typeof value === 'string';
    case 'nullableString':
      return value === null || typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'zeroOrOne':
      return value === 0 || value === 1;
    case 'nullableInteger':
      return value === null || Number.isSafeInteger(value);
    case 'nullableNumber':
      return value === null || (typeof value === 'number' && Number.isFinite(value));
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'nullableObject':
      return value === null || (typeof value === 'object' && !Array.isArray(value));
  }
}

/** Shallow type check of an admin job body; the admin surface trusts its callers beyond that. */
function parseJobPatch(body: unknown): JobOrderPatch {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body))
    throw AtsBError.badRequest('Body must be a JSON object');
  for (const [key, value] of Object.entries(body)) {
    const kind = (JOB_KEYS as Record<string, PatchKind | undefined>)[key];
    if (kind === undefined) throw AtsBError.badRequest(`Unknown JobOrder field '${key}'`);
    if (!fits(kind, value))
      throw AtsBError.badRequest(
        `JobOrder field '${key}' must be ${kind === 'zeroOrOne' ? '1 or 0 (an Integer at ATS-B)' : kind}`,
      );
  }
  return body as JobOrderPatch;
}

/** `/__sandbox`: unauthenticated JSON control surface for tests, demos and benchmarks. Never counted. */
export function registerSandboxAdminRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;
  const p = ADMIN_PREFIX;
  const idOf = (params: unknown): number => parseId((params as { id: string }).id, 'id');

  const dc = ctx.dataCentres;
  app.get(p, async () => ({
    url: ctx.baseUrl(),
    ...(dc ? { dataCentre: dc.here, dataCentres: dc.directory.describe() } : {}),
    jobs: { ...state.jobs.seedInfo, total: state.jobs.size },
    candidates: state.candidateStore.size,
    files: state.files().length,
    calls: state.totalCalls(),
    auth: state.auth.counts(),
    faults: state.faults(),
  }));

  app.post(`${p}/seed`, async (request) => {
    const b = (request.body ?? {}) as { jobs?: unknown; seed?: unknown; baseTimeMs?: unknown };
    if (typeof b.jobs !== 'number') throw AtsBError.badRequest('jobs (number) is required');
    if (b.seed !== undefined && typeof b.seed !== 'number')
      throw AtsBError.badRequest('seed must be a number');
    if (b.baseTimeMs !== undefined && typeof b.baseTimeMs !== 'number')
      throw AtsBError.badRequest('baseTimeMs must be a number');
    state.seed({ jobs: b.jobs, seed: b.seed, baseTimeMs: b.baseTimeMs });
    return { ok: true, ...state.jobs.seedInfo };
  });

  app.post(`${p}/reset`, async (request) => {
    const b = (request.body ?? {}) as { auth?: unknown };
    state.reset({ auth: b.auth === true });
    return { ok: true };
  });

  app.get(`${p}/jobs/:id`, async (request) => {
    const id = idOf(request.params);
    const job = state.job(id);
    if (!job) throw AtsBError.notFound('JobOrder', id);
    return job;
  });
  app.post(`${p}/jobs`, async (request, reply) =>
    reply.code(201).send(state.addJob(parseJobPatch(request.body))),
  );
  app.patch(`${p}/jobs/:id`, async (request) =>
    state.updateJob(idOf(request.params), parseJobPatch(request.body)),
  );
  // What a recruiter does to a job: close it (isOpen false, status Closed), delete it (soft: isDeleted true),
  // take it off the job boards (isPublic 0); each bumps dateLastModified. Retitle with PATCH {title}.
  app.post(`${p}/jobs/:id/close`, async (request) => {
    const b = (request.body ?? {}) as { deleted?: unknown };
    return state.closeJob(idOf(request.params), { deleted: b.deleted === true });
  });
  app.post(`${p}/jobs/:id/delete`, async (request) =>
    state.closeJob(idOf(request.params), { deleted: true }),
  );
  app.post(`${p}/jobs/:id/unpublish`, async (request) =>
    state.updateJob(idOf(request.params), { isPublic: 0 }),
  );
  // Hard delete: the job is gone (404 on read); subscribers get DELETED. Soft delete is `/delete` (UPDATED isDeleted).
  app.delete(`${p}/jobs/:id`, async (request) => {
    const id = idOf(request.params);
    state.removeJob(id);
    return { id, deleted: true };
  });

  // Event subscriptions: look at them, drop one (as the vendor does after a week unread), change cap and expiry.
  app.get(`${p}/event-subscriptions`, async () => ({
    settings: { max: state.events.options.max, ttlMs: state.events.options.ttlMs },
    data: state.events.list(),
  }));
  app.put(`${p}/event-subscriptions`, async (request) => {
    const b = (request.body ?? {}) as Record<string, unknown>;
    if (typeof b !== 'object' || Array.isArray(b)) throw AtsBError.badRequest('Body must be a JSON object');
    for (const [key, value] of Object.entries(b)) {
      if (key !== 'max' && key !== 'ttlMs') throw AtsBError.badRequest(`Unknown setting '${key}'`);
      if (typeof value !== 'number') throw AtsBError.badRequest(`${key} must be a number`);
    }
    const { max, ttlMs } = state.events.configure(b as { max?: number; ttlMs?: number });
    return { max, ttlMs };
  });
  app.delete(`${p}/event-subscriptions/:subscriptionId`, async (request) => {
    const id = (request.params as { subscriptionId: string }).subscriptionId;
    if (!state.dropSubscription(id)) throw subscriptionNotFound(id);
    return { dropped: id };
  });

  app.get(`${p}/candidates`, async () => {
    const data = state.candidates();
    return { total: data.length, duplicates: state.duplicates(), data };
  });
  app.get(`${p}/candidates/:id`, async (request) => {
    const id = idOf(request.params);
    const c = state.candidate(id);
    if (!c) throw AtsBError.notFound('Candidate', id);
    return c;
  });

  app.get(`${p}/files`, async () => {
    const data = state.files();
    return { total: data.length, data };
  });
  app.get(`${p}/files/:id/content`, async (request, reply) => {
    const id = idOf(request.params);
    const content = state.fileContent(id);
    if (!content) throw AtsBError.notFound('File', id);
    return reply.type('application/octet-stream').send(content);
  });

  // With several data centres, `log` tells which data centre (or the router) answered each call, and how.
  app.get(`${p}/calls`, async () => ({
    total: state.totalCalls(),
    counts: state.callCounts(),
    ...(dc ? { dataCentre: dc.here, log: dc.directory.log() } : {}),
  }));
  app.post(`${p}/calls/reset`, async () => {
    state.resetCalls();
    dc?.directory.clearLog();
    return { ok: true };
  });

  app.get(`${p}/faults`, async () => state.faults());
  app.put(`${p}/faults`, async (request) => {
    const b = request.body ?? {};
    if (typeof b !== 'object' || Array.isArray(b)) throw AtsBError.badRequest('Body must be a JSON object');
    return state.setFaults(b as FaultConfig);
  });
  app.delete(`${p}/faults`, async () => {
    state.clearFaults();
    return state.faults();
  });

  // The partner's client secret as the vendor knows it (as after a rotation in the partner portal).
  app.put(`${p}/client-secret`, async (request) => {
    const b = (request.body ?? {}) as { clientSecret?: unknown };
    if (typeof b.clientSecret !== 'string' || b.clientSecret === '')
      throw AtsBError.badRequest('clientSecret (string) is required');
    state.auth.rotateClientSecret(b.clientSecret);
    return { ok: true };
  });
  app.post(`${p}/sessions/expire`, async () => ({ expired: state.expireSessions() }));
  app.post(`${p}/refresh-tokens/revoke`, async () => ({ revoked: state.revokeRefreshTokens() }));
}
