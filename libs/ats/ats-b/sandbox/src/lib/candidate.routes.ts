import type { FastifyInstance } from 'fastify';
import { AtsBError } from './ats-b.error';
import {
  CANDIDATE_RULES,
  EDUCATION_RULES,
  validateEntityBody,
  WORK_HISTORY_RULES,
  type EntityRules,
} from './candidate.validation';
import { parseFields, projectFields, type FieldSchema } from './field-selection';
import { answer, intParam, parseId, parseIdList, queryOf, type SandboxContext } from './sandbox.context';
import { matchesTerm, parseSearchQuery } from './search-query';

const CANDIDATE_SCHEMA: FieldSchema = {
  id: true,
  firstName: true,
  lastName: true,
  name: true,
  email: true,
  phone: true,
  mobile: true,
  address: { composite: ['address1', 'address2', 'city', 'state', 'zip', 'countryID'] },
  dateOfBirth: true,
  status: true,
  source: true,
  isDeleted: true,
  dateAdded: true,
  dateLastModified: true,
};
const WORK_HISTORY_SCHEMA: FieldSchema = {
  id: true,
  candidate: { toOne: ['id'] },
  companyName: true,
  title: true,
  startDate: true,
  endDate: true,
  comments: true,
  dateAdded: true,
};
const EDUCATION_SCHEMA: FieldSchema = {
  id: true,
  candidate: { toOne: ['id'] },
  school: true,
  degree: true,
  major: true,
  startDate: true,
  endDate: true,
  dateAdded: true,
};

/** choice: as for search (job-order.routes), 20 unless `count` is given, so a forgotten `count` shows. */
const DEFAULT_ASSOCIATION_COUNT = 20;
const MAX_ASSOCIATION_COUNT = 500;

const changed = (
  entity: string,
  id: number,
  changeType: 'INSERT' | 'UPDATE' | 'DELETE',
  data: unknown,
): object => ({
  changedEntityType: entity,
  changedEntityId: id,
  changeType,
  data,
});

/** Candidate, CandidateWorkHistory and CandidateEducation: create, update, read; plus search/Candidate. */
export function registerCandidateRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const store = ctx.state.candidateStore;
  const statuses = ctx.state.options.candidateStatuses;
  const data = { dataCall: true };
  const base = '/rest-services/:corpToken';

  app.put(
    `${base}/entity/Candidate`,
    { config: { ...data, callKey: 'PUT entity/Candidate' } },
    async (request, reply) => {
      const values = validateEntityBody(CANDIDATE_RULES, request.body, 'insert', {
        allowedStatuses: statuses,
      });
      const c = store.insert(values);
      return answer(ctx, request, reply, 200, changed('Candidate', c.id, 'INSERT', values));
    },
  );

  app.post(
    `${base}/entity/Candidate/:id`,
    { config: { ...data, callKey: 'POST entity/Candidate' } },
    async (request, reply) => {
      const id = parseId((request.params as { id: string }).id, 'Candidate');
      const body = request.body as Record<string, unknown> | undefined;
      // Bullhorn tolerates the record's own id in an update body; anything else is a change it would reject.
      if (body && typeof body === 'object' && 'id' in body) {
        if (body['id'] !== id)
          throw AtsBError.badRequest('id in the body does not match the URL', 'errors.idMismatch');
        delete body['id'];
      }
      store.require(id);
      const values = validateEntityBody(CANDIDATE_RULES, body, 'update', { allowedStatuses: statuses });
      store.update(id, values);
      return answer(ctx, request, reply, 200, changed('Candidate', id, 'UPDATE', values));
    },
  );

  app.get(
    `${base}/entity/Candidate/:ids`,
    { config: { ...data, callKey: 'GET entity/Candidate' } },
    async (request) => {
      const { ids, multi } = parseIdList((request.params as { ids: string }).ids);
      const fields = parseFields(queryOf(request)['fields'], 'Candidate');
      return getMany(
        'Candidate',
        ids,
        multi,
        (id) => store.get(id),
        (c) => projectFields(c, fields, CANDIDATE_SCHEMA, 'Candidate'),
      );
    },
  );

  app.get(
    `${base}/search/Candidate`,
    { config: { ...data, callKey: 'GET search/Candidate' } },
    async (request) => {
      const q = queryOf(request);
      const terms = parseSearchQuery(q['query'], {
        id: 'number',
        email: 'text',
        name: 'text',
        firstName: 'text',
        lastName: 'text',
        phone: 'text',
        isDeleted: 'bool',
      });
      const fields = parseFields(q['fields'], 'Candidate');
      const start = intParam(q['start'], 'start', 0);
      const count = Math.min(intParam(q['count'], 'count', 20), 500);
      // The search index trails the records by the vendor's index lag (indexLagMs): a new one is not found yet.
      const indexedBefore = Date.now() - ctx.state.options.indexLagMs;
      const all = store.search(
        (c) =>
          c.dateAdded <= indexedBefore &&
          terms.every((t) => matchesTerm(t, (f) => (c as unknown as Record<string, unknown>)[f])),
      );
      const page = all
        .slice(start, start + count)
        .map((c) => projectFields(c, fields, CANDIDATE_SCHEMA, 'Candidate'));
      return { total: all.length, start, count: page.length, data: page };
    },
  );

  const subEntity = (
    name: 'CandidateWorkHistory' | 'CandidateEducation',
    rules: EntityRules,
    schema: FieldSchema,
    ops: {
      add: (v: Record<string, unknown>) => { id: number };
      update: (id: number, v: Record<string, unknown>) => { id: number };
      remove: (id: number) => void;
      get: (id: number) => object | undefined;
    },
  ): void => {
    const checkCandidate = (values: Record<string, unknown>): void => {
      const ref = values['candidate'] as { id: number } | undefined;
      if (ref && !store.get(ref.id)) {
        throw AtsBError.cannotPersist(name, [
          {
            detailMessage: `Candidate ${ref.id} does not exist`,
            propertyName: 'candidate',
            severity: 'ERROR',
            type: 'INVALID_ASSOCIATION',
          },
        ]);
      }
    };
    app.put(
      `${base}/entity/${name}`,
      { config: { ...data, callKey: `PUT entity/${name}` } },
      async (request, reply) => {
        const values = validateEntityBody(rules, request.body, 'insert');
        checkCandidate(values);
        const record = ops.add(values);
        return answer(ctx, request, reply, 200, changed(name, record.id, 'INSERT', values));
      },
    );
    app.post(
      `${base}/entity/${name}/:id`,
      { config: { ...data, callKey: `POST entity/${name}` } },
      async (request, reply) => {
        const id = parseId((request.params as { id: string }).id, name);
        const values = validateEntityBody(rules, request.body, 'update');
        checkCandidate(values);
        ops.update(id, values);
        return answer(ctx, request, reply, 200, changed(name, id, 'UPDATE', values));
      },
    );
    app.delete(
      `${base}/entity/${name}/:id`,
      { config: { ...data, callKey: `DELETE entity/${name}` } },
      async (request, reply) => {
        const id = parseId((request.params as { id: string }).id, name);
        ops.remove(id);
        return answer(ctx, request, reply, 200, changed(name, id, 'DELETE', {}));
      },
    );
    app.get(
      `${base}/entity/${name}/:ids`,
      { config: { ...data, callKey: `GET entity/${name}` } },
      async (request) => {
        const { ids, multi } = parseIdList((request.params as { ids: string }).ids);
        const fields = parseFields(queryOf(request)['fields'], name);
        return getMany(name, ids, multi, ops.get, (r) => projectFields(r, fields, schema, name));
      },
    );
  };

  subEntity('CandidateWorkHistory', WORK_HISTORY_RULES, WORK_HISTORY_SCHEMA, {
    add: (v) => store.addWorkHistory(v),
    update: (id, v) => store.updateWorkHistory(id, v),
    remove: (id) => store.deleteWorkHistory(id),
    get: (id) => findById(store.allWorkHistories(), id),
  });
  subEntity('CandidateEducation', EDUCATION_RULES, EDUCATION_SCHEMA, {
    add: (v) => store.addEducation(v),
    update: (id, v) => store.updateEducation(id, v),
    remove: (id) => store.deleteEducation(id),
    get: (id) => findById(store.allEducations(), id),
  });

  // To-many associations Bullhorn exposes on the candidate, for clients that reconcile before writing. They
  // take the query call's `start` and `count` (Bullhorn docs); the default page size is not documented.
  for (const [assoc, list, schema] of [
    ['workHistories', (id: number) => store.workHistoriesOf(id), WORK_HISTORY_SCHEMA],
    ['educations', (id: number) => store.educationsOf(id), EDUCATION_SCHEMA],
  ] as const) {
    app.get(
      `${base}/entity/Candidate/:id/${assoc}`,
      { config: { ...data, callKey: `GET entity/Candidate/${assoc}` } },
      async (request) => {
        const id = parseId((request.params as { id: string }).id, 'Candidate');
        store.require(id);
        const q = queryOf(request);
        const fields = parseFields(q['fields'], assoc);
        const start = intParam(q['start'], 'start', 0);
        const count = Math.min(
          intParam(q['count'], 'count', DEFAULT_ASSOCIATION_COUNT),
          MAX_ASSOCIATION_COUNT,
        );
        const items = list(id)
          .slice(start, start + count)
          .map((r) => projectFields(r, fields, schema, assoc));
        return { data: items };
      },
    );
  }
}

export function getMany<T>(
  entity: string,
  ids: number[],
  multi: boolean,
  get: (id: number) => T | undefined,
  project: (record: T) => Record<string, unknown>,
): { data: Record<string, unknown> | Record<string, unknown>[] } {
  if (!multi) {
    const record = get(ids[0] as number);
    if (record === undefined) throw AtsBError.notFound(entity, ids[0] as number);
    return { data: project(record) };
  }
  // Unknown ids in a multi-get are left out, as Bullhorn does.
  const out: Record<string, unknown>[] = [];
  for (const id of ids) {
    const record = get(id);
    if (record !== undefined) out.push(project(record));
  }
  return { data: out };
}

function findById<T extends { id: number }>(items: T[], id: number): T | undefined {
  return items.find((i) => i.id === id);
}
