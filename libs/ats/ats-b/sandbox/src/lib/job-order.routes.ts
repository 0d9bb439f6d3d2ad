import type { FastifyInstance } from 'fastify';
import { AtsBError } from './ats-b.error';
import { getMany } from './candidate.routes';
import { parseFields, projectFields, type FieldSchema } from './field-selection';
import { JOB_SEARCH_FIELDS, type JobSort } from './job-order.store';
import { intParam, parseIdList, queryOf, sessionOf, type SandboxContext } from './sandbox.context';
import { parseSearchQuery } from './search-query';

export const JOB_ORDER_SCHEMA: FieldSchema = {
  id: true,
  title: true,
  address: { composite: ['address1', 'address2', 'city', 'state', 'zip', 'countryID'] },
  publicDescription: true,
  description: true,
  skillList: true,
  employmentType: true,
  status: true,
  isOpen: true,
  isPublic: true,
  isDeleted: true,
  numOpenings: true,
  salary: true,
  payRate: true,
  type: true,
  startDate: true,
  dateAdded: true,
  dateLastModified: true,
  dateClosed: true,
  dateEnd: true,
  clientCorporation: { toOne: ['id', 'name'] },
  clientContact: { toOne: ['id', 'firstName', 'lastName', 'email', 'phone'] },
};

export const MAX_SEARCH_COUNT = 500;
/** choice: Bullhorn's docs leave the default page size open; 20 keeps a forgotten `count` visible. */
export const DEFAULT_SEARCH_COUNT = 20;
const SORTS: readonly JobSort[] = ['id', '-id', 'dateLastModified', '-dateLastModified'];

/** `ping`, `search/JobOrder` (ids of matching jobs, paged) and `entity/JobOrder/{ids}`. */
export function registerJobOrderRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const jobs = ctx.state.jobs;
  const base = '/rest-services/:corpToken';

  app.get(`${base}/ping`, { config: { dataCall: true, callKey: 'GET ping' } }, async (request) => ({
    sessionExpires: sessionOf(request).expiresAt,
  }));

  app.get(
    `${base}/search/JobOrder`,
    { config: { dataCall: true, callKey: 'GET search/JobOrder' } },
    async (request) => {
      const q = queryOf(request);
      const terms = parseSearchQuery(q['query'], JOB_SEARCH_FIELDS);
      const fields = parseFields(q['fields'], 'JobOrder');
      const start = intParam(q['start'], 'start', 0);
      const count = Math.min(intParam(q['count'], 'count', DEFAULT_SEARCH_COUNT), MAX_SEARCH_COUNT);
      const sort = (q['sort'] ?? 'id') as JobSort;
      if (!SORTS.includes(sort))
        throw AtsBError.badRequest(
          `Unsupported sort '${sort}' (use ${SORTS.join(', ')})`,
          'errors.invalidSort',
        );
      const ids = jobs.search(terms, sort);
      const page = ids.slice(start, start + count);
      const idOnly = fields !== '*' && fields.size === 1 && fields.has('id');
      const data = idOnly
        ? page.map((id) => ({ id }))
        : page.map((id) => projectFields(jobs.get(id) as object, fields, JOB_ORDER_SCHEMA, 'JobOrder'));
      return { total: ids.length, start, count: data.length, data };
    },
  );

  app.get(
    `${base}/entity/JobOrder/:ids`,
    { config: { dataCall: true, callKey: 'GET entity/JobOrder' } },
    async (request) => {
      const { ids, multi } = parseIdList((request.params as { ids: string }).ids);
      const fields = parseFields(queryOf(request)['fields'], 'JobOrder');
      return getMany(
        'JobOrder',
        ids,
        multi,
        (id) => jobs.get(id),
        (job) => projectFields(job, fields, JOB_ORDER_SCHEMA, 'JobOrder'),
      );
    },
  );
}
