import { randomBytes } from 'node:crypto';
import {
  bearerOf,
  formOf,
  jsonObjectOf,
  type SandboxReply,
  type SandboxRequest,
  serveSandbox,
} from '@connector/ats-sandbox-core';

/**
 * The Keys vendor, a throwaway ATS for tests: API clients get a bearer token with client credentials (RFC 6749
 * 4.4, the error bodies of its 5.2), then read jobs by keyset pages and write people. Its own API errors are
 * `{"problem": {"code", "detail"}}`. It is strict on input (unknown fields, wrong types, a page too large are
 * refused) and, like many ATSs, does not deduplicate people: the same email twice makes two people.
 */
export interface TwKeysJob {
  id: number;
  headline: string;
  city: string;
  body: string;
  needs: string;
  state: 'open' | 'filled';
  /** On the customer's careers site: an open job can be kept off it. */
  listed: boolean;
  modified: string;
}

export interface TwKeysPerson {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  mobile: string | null;
  /** Where they worked, months as YYYY-MM (`to` null: still there). */
  jobs: Array<{ employer: string; title: string | null; from: string; to: string | null }>;
  schools: Array<{ name: string; degree: string | null; subject: string | null }>;
}

export interface TwKeysSandboxOptions {
  port: number;
  host: string;
  /** The API clients it knows. */
  clients: ReadonlyArray<{ clientId: string; clientSecret: string }>;
  /** How many jobs it starts with (every fifth one filled, every seventh not listed). */
  jobs: number;
}

export interface RunningTwKeysSandbox {
  url: string;
  /** The people it holds, as it keeps them (for tests). */
  people(): readonly TwKeysPerson[];
  jobs(): readonly TwKeysJob[];
  /** A recruiter's change of a job (its `modified` moves on); `remove` deletes it outright. */
  changeJob(id: number, change: Partial<Pick<TwKeysJob, 'headline' | 'state' | 'listed'>> | 'remove'): void;
  /** API calls answered since the last `resetCalls()` (token calls aside). */
  calls(): number;
  resetCalls(): void;
  close(): Promise<void>;
}

const TOKEN_SECONDS = 3600;
const MAX_LIMIT = 100;
const PERSON_FIELDS = new Set(['first_name', 'last_name', 'email', 'phone', 'mobile', 'jobs', 'schools']);
const JOB_FIELDS = new Set(['employer', 'title', 'from', 'to']);
const SCHOOL_FIELDS = new Set(['name', 'degree', 'subject']);

const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';
const isMonth = (value: unknown): value is string =>
  typeof value === 'string' && /^\d{4}-(0[1-9]|1[0-2])$/.test(value);

/** A list of objects with only `fields`, each passing `valid`; undefined when anything is off. */
function listOf(
  value: unknown,
  fields: ReadonlySet<string>,
  valid: (item: Record<string, unknown>) => boolean,
): Array<Record<string, unknown>> | undefined {
  if (!Array.isArray(value)) return undefined;
  const items = value as unknown[];
  const ok = items.every(
    (item) =>
      typeof item === 'object' &&
      item !== null &&
      Object.keys(item).every((key) => fields.has(key)) &&
      valid(item as Record<string, unknown>),
  );
  return ok ? (items as Array<Record<string, unknown>>) : undefined;
}

const problem = (status: number, code: string, detail: string): SandboxReply => ({
  status,
  body: { problem: { code, detail } },
});

export async function startTwKeysSandbox(options: TwKeysSandboxOptions): Promise<RunningTwKeysSandbox> {
  const tokens = new Map<string, number>();
  const people: TwKeysPerson[] = [];
  const jobs: TwKeysJob[] = Array.from({ length: options.jobs }, (_, i) => ({
    id: 1001 + i,
    headline: `Keys job ${i + 1}`,
    city: ['Leeds', 'York', 'Hull'][i % 3] as string,
    body: `The work of job ${i + 1}.`,
    needs: 'Patience',
    state: i % 5 === 4 ? 'filled' : 'open',
    listed: i % 7 !== 6,
    modified: new Date(Date.UTC(2026, 10, 1, 9, i)).toISOString(),
  }));

  const token = (request: SandboxRequest): SandboxReply => {
    const form = formOf(request);
    if (!form)
      return { status: 400, body: { error: 'invalid_request', error_description: 'form body expected' } };
    if (form.get('grant_type') !== 'client_credentials')
      return { status: 400, body: { error: 'unsupported_grant_type' } };
    const known = options.clients.some(
      (c) => c.clientId === form.get('client_id') && c.clientSecret === form.get('client_secret'),
    );
    if (!known) return { status: 401, body: { error: 'invalid_client' } };
    const accessToken = randomBytes(18).toString('hex');
    tokens.set(accessToken, Date.now() + TOKEN_SECONDS * 1000);
    return {
      status: 200,
      body: { access_token: accessToken, token_type: 'Bearer', expires_in: TOKEN_SECONDS },
    };
  };

  const listJobs = (query: URLSearchParams): SandboxReply => {
    const limit = Number(query.get('limit') ?? '20');
    const after = Number(query.get('after') ?? '0');
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
      return problem(400, 'limit_out_of_range', `limit must be 1 to ${MAX_LIMIT}`);
    if (!Number.isInteger(after) || after < 0) return problem(400, 'bad_cursor', 'after must be a job id');
    const page = jobs.filter((job) => job.id > after).slice(0, limit);
    const last = page.at(-1);
    return {
      status: 200,
      body: { jobs: page, has_more: last !== undefined && jobs.some((j) => j.id > last.id) },
    };
  };

  /** A person's fields from a JSON body (all of them, or for a PATCH those given), or the problem with them. */
  const personFields = (request: SandboxRequest, partial: boolean): Partial<TwKeysPerson> | SandboxReply => {
    const body = jsonObjectOf(request);
    if (!body) return problem(415, 'json_expected', 'send a JSON object');
    const unknown = Object.keys(body).find((key) => !PERSON_FIELDS.has(key));
    if (unknown) return problem(422, 'unknown_field', `no field ${unknown}`);
    const fields: Partial<TwKeysPerson> = {};
    for (const field of ['first_name', 'last_name', 'email'] as const) {
      if (partial && body[field] === undefined) continue;
      if (!isText(body[field])) return problem(422, 'required', `${field} is required`);
      fields[field] = body[field];
    }
    for (const field of ['phone', 'mobile'] as const) {
      if (body[field] === undefined) continue;
      if (body[field] !== null && typeof body[field] !== 'string')
        return problem(422, 'wrong_type', `${field} must be a string`);
      fields[field] = body[field];
    }
    if (body['jobs'] !== undefined) {
      const jobs = listOf(
        body['jobs'],
        JOB_FIELDS,
        (job) =>
          isText(job['employer']) && isMonth(job['from']) && (job['to'] === null || isMonth(job['to'])),
      );
      if (!jobs)
        return problem(
          422,
          'invalid_jobs',
          'each job needs an employer, from (YYYY-MM) and to (YYYY-MM or null)',
        );
      fields.jobs = jobs.map((job) => ({
        employer: job['employer'] as string,
        title: (job['title'] as string | undefined) ?? null,
        from: job['from'] as string,
        to: job['to'] as string | null,
      }));
    }
    if (body['schools'] !== undefined) {
      const schools = listOf(body['schools'], SCHOOL_FIELDS, (school) => isText(school['name']));
      if (!schools) return problem(422, 'invalid_schools', 'each school needs a name');
      fields.schools = schools.map((school) => ({
        name: school['name'] as string,
        degree: (school['degree'] as string | undefined) ?? null,
        subject: (school['subject'] as string | undefined) ?? null,
      }));
    }
    return fields;
  };

  const createPerson = (request: SandboxRequest): SandboxReply => {
    const fields = personFields(request, false);
    if ('status' in fields) return fields;
    const empty = { phone: null, mobile: null, jobs: [], schools: [] };
    const person = { id: 501 + people.length, ...empty, ...fields } as TwKeysPerson;
    people.push(person);
    return { status: 201, body: { id: person.id } };
  };

  const patchPerson = (request: SandboxRequest, id: number): SandboxReply => {
    const person = people.find((p) => p.id === id);
    if (!person) return problem(404, 'no_such_person', `no person ${id}`);
    const fields = personFields(request, true);
    if ('status' in fields) return fields;
    Object.assign(person, fields);
    return { status: 204 };
  };

  let calls = 0;
  const changeJob: RunningTwKeysSandbox['changeJob'] = (id, change) => {
    const index = jobs.findIndex((job) => job.id === id);
    if (index < 0) throw new Error(`no job ${id}`);
    if (change === 'remove') jobs.splice(index, 1);
    else Object.assign(jobs[index] as TwKeysJob, change, { modified: new Date().toISOString() });
  };

  const api = (request: SandboxRequest): SandboxReply => {
    calls++;
    const expires = tokens.get(bearerOf(request.headers) ?? '');
    if (expires === undefined || expires < Date.now())
      return problem(401, 'token_invalid', 'a valid bearer token is required');
    const route = `${request.method} ${request.path}`;
    switch (route) {
      case 'GET /v1/jobs':
        return listJobs(request.query);
      case 'GET /v1/people': {
        const email = request.query.get('email');
        if (!email) return problem(400, 'email_required', 'search people by email');
        return {
          status: 200,
          body: { people: people.filter((p) => p.email.toLowerCase() === email.toLowerCase()) },
        };
      }
      case 'POST /v1/people':
        return createPerson(request);
      default: {
        const id = /^PATCH \/v1\/people\/(\d+)$/.exec(route)?.[1];
        return id ? patchPerson(request, Number(id)) : problem(404, 'no_such_route', route);
      }
    }
  };

  const served = await serveSandbox(
    (request) => {
      if (request.method === 'POST' && request.path === '/oauth/token') return token(request);
      if (request.path.startsWith('/v1/')) return api(request);
      // The sandbox's own view for tests: not part of the vendor's API.
      if (request.method === 'GET' && request.path === '/__sandbox/people')
        return { status: 200, body: { people } };
      if (request.method === 'GET' && request.path === '/__sandbox/ready')
        return { status: 200, body: { ok: true } };
      return problem(404, 'no_such_route', `${request.method} ${request.path}`);
    },
    { port: options.port, host: options.host },
  );
  return {
    ...served,
    people: () => people,
    jobs: () => jobs,
    changeJob,
    calls: () => calls,
    resetCalls: () => {
      calls = 0;
    },
  };
}
