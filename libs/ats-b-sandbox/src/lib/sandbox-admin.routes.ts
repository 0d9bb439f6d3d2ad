import type { FastifyInstance } from 'fastify';
import { AtsBError } from './ats-b.error';
import type { FaultConfig } from './fault-injector';
import type { JobOrderPatch } from './job-order.store';
import { parseId, type SandboxContext } from './sandbox.context';

export const ADMIN_PREFIX = '/__sandbox';

const JOB_KEYS: Record<keyof JobOrderPatch, 'string' | 'nullableString' | 'boolean' | 'object' | 'nullableObject'> = {
  title: 'string',
  address: 'object',
  publicDescription: 'nullableString',
  description: 'nullableString',
  skillList: 'nullableString',
  employmentType: 'nullableString',
  status: 'string',
  isOpen: 'boolean',
  isPublic: 'boolean',
  isDeleted: 'boolean',
  clientCorporation: 'object',
  clientContact: 'nullableObject',
};

/** Shallow type check of an admin job body; the admin surface trusts its callers beyond that. */
export function parseJobPatch(body: unknown): JobOrderPatch {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw AtsBError.badRequest('Body must be a JSON object');
  for (const [key, value] of Object.entries(body)) {
    const kind = (JOB_KEYS as Record<string, string | undefined>)[key];
    if (kind === undefined) throw AtsBError.badRequest(`Unknown JobOrder field '${key}'`);
    const ok =
      (kind === 'string' && typeof value === 'string') ||
      (kind === 'nullableString' && (value === null || typeof value === 'string')) ||
      (kind === 'boolean' && typeof value === 'boolean') ||
      (kind === 'object' && typeof value === 'object' && value !== null) ||
      (kind === 'nullableObject' && typeof value === 'object');
    if (!ok) throw AtsBError.badRequest(`JobOrder field '${key}' must be ${kind}`);
  }
  return body as JobOrderPatch;
}

/** `/__sandbox`: unauthenticated JSON control surface for tests, demos and benchmarks. Never counted. */
export function registerSandboxAdminRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;
  const p = ADMIN_PREFIX;
  const idOf = (params: unknown): number => parseId((params as { id: string }).id, 'id');

  app.get(p, async () => ({
    url: ctx.baseUrl(),
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
    if (b.seed !== undefined && typeof b.seed !== 'number') throw AtsBError.badRequest('seed must be a number');
    if (b.baseTimeMs !== undefined && typeof b.baseTimeMs !== 'number') throw AtsBError.badRequest('baseTimeMs must be a number');
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
  app.post(`${p}/jobs`, async (request, reply) => reply.code(201).send(state.addJob(parseJobPatch(request.body))));
  app.patch(`${p}/jobs/:id`, async (request) => state.updateJob(idOf(request.params), parseJobPatch(request.body)));
  app.post(`${p}/jobs/:id/close`, async (request) => {
    const b = (request.body ?? {}) as { deleted?: unknown };
    return state.closeJob(idOf(request.params), { deleted: b.deleted === true });
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

  app.get(`${p}/calls`, async () => ({ total: state.totalCalls(), counts: state.callCounts() }));
  app.post(`${p}/calls/reset`, async () => {
    state.resetCalls();
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
    if (typeof b.clientSecret !== 'string' || b.clientSecret === '') throw AtsBError.badRequest('clientSecret (string) is required');
    state.auth.rotateClientSecret(b.clientSecret);
    return { ok: true };
  });
  app.post(`${p}/sessions/expire`, async () => ({ expired: state.expireSessions() }));
  app.post(`${p}/refresh-tokens/revoke`, async () => ({ revoked: state.revokeRefreshTokens() }));
}
