import type { FastifyInstance } from 'fastify';
import type { AtsASandboxState } from '../ats-a-sandbox.state';
import type { FaultUpdate } from '../faults/fault.injector';
import { notFound, validation } from '../sandbox.error';
import type { VacancyPatch } from '../store/vacancy.store';
import { parseId } from './http-errors';

type IdParams = { Params: { id: string } };

function objectBody(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw validation('Body must be a JSON object');
  return body as Record<string, unknown>;
}

/** Test control surface under /__sandbox: no auth, not counted, not metered. */
export async function sandboxAdminRoutes(
  app: FastifyInstance,
  options: { state: AtsASandboxState },
): Promise<void> {
  const { state } = options;

  app.get('/', async () => ({
    seed: state.seedInfo(),
    vacancies: state.vacancyCount(),
    candidates: state.candidates().length,
    applications: state.applications().length,
    duplicates: state.duplicateApplications(),
    files: state.files().length,
    calls: state.callCounts().total,
    quota: state.quota(),
    activeTokens: state.tokens.activeCount(),
  }));

  app.post('/seed', async (request) => {
    const body = objectBody(request.body);
    const vacancies = body['vacancies'];
    const seed = body['seed'] ?? 1;
    const anchor = body['anchor'];
    if (typeof vacancies !== 'number') throw validation('vacancies is required');
    if (typeof seed !== 'number') throw validation('seed must be a number');
    if (anchor !== undefined && typeof anchor !== 'string' && typeof anchor !== 'number') {
      throw validation('anchor must be an ISO date or epoch ms');
    }
    return state.seed(vacancies, seed, anchor);
  });

  app.post('/reset', async () => state.reset());

  app.get('/candidates', async () => {
    const candidates = state.candidates();
    return { count: candidates.length, candidates };
  });

  app.get('/applications', async () => state.applicationsSummary());

  app.get('/files', async () => {
    const files = state.files();
    return { count: files.length, files };
  });

  app.get('/calls', async () => state.callCounts());
  app.post('/calls/reset', async () => {
    state.resetCalls();
    return state.callCounts();
  });

  app.get<IdParams>('/vacancies/:id', async (request) => {
    const vacancy = state.getVacancy(parseId(request.params.id));
    if (!vacancy) throw notFound(`Vacancy ${request.params.id} not found`);
    return vacancy;
  });
  app.post('/vacancies', async (request, reply) => {
    const vacancy = state.addVacancy(objectBody(request.body) as VacancyPatch);
    return reply.status(201).send(vacancy);
  });
  app.patch<IdParams>('/vacancies/:id', async (request) =>
    state.updateVacancy(parseId(request.params.id), objectBody(request.body) as VacancyPatch),
  );
  app.delete<IdParams>('/vacancies/:id', async (request, reply) => {
    state.removeVacancy(parseId(request.params.id));
    return reply.status(204).send();
  });

  app.get('/faults', async () => state.faultConfig());
  app.put('/faults', async (request) => state.setFaults(objectBody(request.body) as FaultUpdate));

  app.get('/quota', async () => state.quota());
  app.put('/quota', async (request) =>
    state.setQuota(objectBody(request.body) as Parameters<AtsASandboxState['setQuota']>[0]),
  );
}
