import { createHash, randomBytes } from 'node:crypto';
import {
  bearerOf,
  formOf,
  jsonObjectOf,
  type SandboxReply,
  type SandboxRequest,
  serveSandbox,
} from '@connector/ats-sandbox-core';

/**
 * The Login vendor, a throwaway ATS for tests: a recruiter signs in on its own page (OAuth 2.0 authorization code,
 * RFC 6749 4.1, with PKCE S256 required, RFC 7636), the platform's client authenticates with HTTP Basic at the
 * token end (2.3.1) and refresh tokens are single use. Its API pages openings by number and takes applicants;
 * its errors are `{"fault": {"type", "message"}}`. Strict on input; it does not deduplicate applicants.
 */
export interface TwLoginSandboxOptions {
  port: number;
  host: string;
  /** The platform's OAuth client here, with the callbacks it registered (exact match, RFC 6749 3.1.2). */
  client: { clientId: string; clientSecret: string; redirectUris: readonly string[] };
  users: ReadonlyArray<{ username: string; password: string }>;
  openings: number;
}

export interface TwLoginApplicant {
  key: string;
  name: { first: string; last: string };
  emails: string[];
  phones: { home: string | null; mobile: string | null };
  /** Months as YYYY-MM; `end` null: still there. */
  career: Array<{ company: string; role: string | null; start: string; end: string | null }>;
  studies: Array<{ school: string; qualification: string | null; subject: string | null }>;
}

const ACCESS_SECONDS = 900;
const CODE_MS = 60_000;
const PER_PAGE_MAX = 25;

const fault = (status: number, type: string, message: string): SandboxReply => ({
  status,
  body: { fault: { type, message } },
});
const oauthError = (status: number, error: string, description?: string): SandboxReply => ({
  status,
  body: { error, ...(description ? { error_description: description } : {}) },
});
const html = (status: number, text: string): SandboxReply => ({
  status,
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: text,
});
const escape = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

const APPLICANT_FIELDS = ['name', 'emails', 'phones', 'career', 'studies'];
const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';
const isMonth = (value: unknown): boolean =>
  typeof value === 'string' && /^\d{4}-(0[1-9]|1[0-2])$/.test(value);

/** `value` as an object with only `fields` (each optional), or undefined. */
function objectOf(value: unknown, fields: readonly string[]): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return Object.keys(value).every((key) => fields.includes(key))
    ? (value as Record<string, unknown>)
    : undefined;
}

/** An optional list of objects with only `fields`, each `valid`: [] when absent, undefined when anything is off. */
function entriesOf(
  value: unknown,
  fields: readonly string[],
  valid: (entry: Record<string, unknown>) => boolean,
): Array<Record<string, unknown>> | undefined {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return undefined;
  const entries = (value as unknown[]).map((item) => objectOf(item, fields));
  return entries.every((entry) => entry !== undefined && valid(entry))
    ? (entries as Array<Record<string, unknown>>)
    : undefined;
}

const LOGIN_PARAMS = ['client_id', 'redirect_uri', 'state', 'code_challenge', 'code_challenge_method'];

function loginPage(params: URLSearchParams, error?: string): string {
  const hidden = LOGIN_PARAMS.map(
    (name) => `<input type="hidden" name="${name}" value="${escape(params.get(name) ?? '')}">`,
  ).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Login vendor – Sign in</title></head>
<body><main><h1>Sign in to the Login vendor</h1>
${error ? `<p role="alert">${escape(error)}</p>` : ''}
<form method="post" action="/oauth/authorize">
${hidden}
<label for="username">Username</label><input id="username" name="username" required>
<label for="password">Password</label><input id="password" name="password" type="password" required>
<button type="submit">Sign in</button>
</form></main></body></html>`;
}

/** An opening: live when open and public (an internal one is not advertised). */
export interface TwLoginOpening {
  key: string;
  name: string;
  place: string;
  text: string;
  open: boolean;
  visibility: 'public' | 'internal';
  /** Epoch seconds. */
  changed: number;
}

export interface RunningTwLoginSandbox {
  url: string;
  /** The applicants it holds, as it keeps them (for tests). */
  applicants(): readonly TwLoginApplicant[];
  openings(): readonly TwLoginOpening[];
  /** A recruiter's change of an opening (its `changed` moves on); `remove` deletes it outright. */
  changeOpening(
    key: string,
    change: Partial<Pick<TwLoginOpening, 'name' | 'open' | 'visibility'>> | 'remove',
  ): void;
  /** API calls answered since the last `resetCalls()` (token calls aside). */
  calls(): number;
  resetCalls(): void;
  close(): Promise<void>;
}

export async function startTwLoginSandbox(options: TwLoginSandboxOptions): Promise<RunningTwLoginSandbox> {
  const codes = new Map<string, { challenge: string; redirectUri: string; expires: number }>();
  const refreshTokens = new Set<string>();
  const accessTokens = new Map<string, number>();
  const applicants: TwLoginApplicant[] = [];
  const openings: TwLoginOpening[] = Array.from({ length: options.openings }, (_, i) => ({
    key: `OP-${101 + i}`,
    name: `Login opening ${i + 1}`,
    place: ['Cork', 'Galway'][i % 2] as string,
    text: `About opening ${i + 1}.`,
    open: i % 4 !== 3,
    visibility: i % 5 === 4 ? 'internal' : 'public',
    changed: Date.UTC(2026, 10, 2, 8, i) / 1000,
  }));
  let calls = 0;
  const changeOpening: RunningTwLoginSandbox['changeOpening'] = (key, change) => {
    const index = openings.findIndex((opening) => opening.key === key);
    if (index < 0) throw new Error(`no opening ${key}`);
    if (change === 'remove') openings.splice(index, 1);
    else Object.assign(openings[index] as TwLoginOpening, change, { changed: Math.floor(Date.now() / 1000) });
  };
  const token = () => randomBytes(18).toString('base64url');

  /** The authorize request's own checks: nothing is redirected to a callback the client did not register. */
  const authorizeProblem = (params: URLSearchParams): string | undefined => {
    if (params.get('client_id') !== options.client.clientId) return 'unknown client';
    if (!options.client.redirectUris.includes(params.get('redirect_uri') ?? ''))
      return 'redirect_uri is not registered';
    if (params.get('code_challenge_method') !== 'S256' || !params.get('code_challenge'))
      return 'PKCE with S256 is required';
    return undefined;
  };

  const authorize = (request: SandboxRequest): SandboxReply => {
    const params = request.method === 'GET' ? request.query : formOf(request);
    if (!params) return html(400, 'form expected');
    const problem = authorizeProblem(params);
    if (problem) return html(400, `<p role="alert">${escape(problem)}</p>`);
    if (request.method === 'GET') {
      if (params.get('response_type') !== 'code') return html(400, 'response_type must be code');
      return html(200, loginPage(params));
    }
    const user = options.users.find(
      (u) => u.username === params.get('username') && u.password === params.get('password'),
    );
    if (!user) return html(200, loginPage(params, 'Wrong username or password.'));
    const code = token();
    codes.set(code, {
      challenge: params.get('code_challenge') as string,
      redirectUri: params.get('redirect_uri') as string,
      expires: Date.now() + CODE_MS,
    });
    const target = new URL(params.get('redirect_uri') as string);
    target.searchParams.set('code', code);
    const state = params.get('state');
    if (state) target.searchParams.set('state', state);
    return { status: 302, headers: { location: target.toString() } };
  };

  const issue = (): SandboxReply => {
    const access = token();
    const refresh = token();
    accessTokens.set(access, Date.now() + ACCESS_SECONDS * 1000);
    refreshTokens.add(refresh);
    return {
      status: 200,
      body: {
        access_token: access,
        refresh_token: refresh,
        token_type: 'Bearer',
        expires_in: ACCESS_SECONDS,
      },
    };
  };

  const tokenEnd = (request: SandboxRequest): SandboxReply => {
    const basic = /^Basic (\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const expected = Buffer.from(`${options.client.clientId}:${options.client.clientSecret}`).toString(
      'base64',
    );
    if (basic !== expected)
      return oauthError(401, 'invalid_client', 'HTTP Basic client authentication required');
    const form = formOf(request);
    if (!form) return oauthError(400, 'invalid_request', 'form body expected');
    switch (form.get('grant_type') ?? '') {
      case 'authorization_code': {
        const code = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        if (!code || code.expires < Date.now() || code.redirectUri !== form.get('redirect_uri'))
          return oauthError(400, 'invalid_grant');
        const verifier = form.get('code_verifier') ?? '';
        if (createHash('sha256').update(verifier).digest('base64url') !== code.challenge)
          return oauthError(400, 'invalid_grant', 'code_verifier does not match');
        return issue();
      }
      case 'refresh_token': {
        // Single use: a refresh token is gone once presented, whatever follows.
        if (!refreshTokens.delete(form.get('refresh_token') ?? '')) return oauthError(400, 'invalid_grant');
        return issue();
      }
      default:
        return oauthError(400, 'unsupported_grant_type');
    }
  };

  /** An applicant from a JSON body (a create, or a PUT that replaces it whole), or the fault with it. */
  const applicantOf = (request: SandboxRequest, key: string): TwLoginApplicant | SandboxReply => {
    const body = jsonObjectOf(request);
    if (!body) return fault(415, 'unsupported_media_type', 'send a JSON object');
    const unknown = Object.keys(body).find((k) => !APPLICANT_FIELDS.includes(k));
    if (unknown) return fault(422, 'validation', `unknown property ${unknown}`);
    const name = objectOf(body['name'], ['first', 'last']);
    if (!name || !isText(name['first']) || !isText(name['last']))
      return fault(422, 'validation', 'name.first and name.last are required');
    const emails = body['emails'];
    if (!Array.isArray(emails) || emails.length === 0 || !emails.every(isText))
      return fault(422, 'validation', 'emails must be a non-empty list of strings');
    const phones = body['phones'] === undefined ? {} : objectOf(body['phones'], ['home', 'mobile']);
    if (
      !phones ||
      ![phones['home'], phones['mobile']].every((p) => p === undefined || p === null || isText(p))
    )
      return fault(422, 'validation', 'phones.home and phones.mobile must be strings');
    const career = entriesOf(body['career'], ['company', 'role', 'start', 'end'], (c) =>
      Boolean(isText(c['company']) && isMonth(c['start']) && (c['end'] === null || isMonth(c['end']))),
    );
    if (!career)
      return fault(
        422,
        'validation',
        'each career entry needs a company, start (YYYY-MM) and end (YYYY-MM or null)',
      );
    const studies = entriesOf(body['studies'], ['school', 'qualification', 'subject'], (st) =>
      isText(st['school']),
    );
    if (!studies) return fault(422, 'validation', 'each study needs a school');
    const text = (value: unknown) => (typeof value === 'string' ? value : null);
    return {
      key,
      name: { first: name['first'] as string, last: name['last'] as string },
      emails: emails as string[],
      phones: { home: text(phones['home']), mobile: text(phones['mobile']) },
      career: career.map((c) => ({
        company: c['company'] as string,
        role: text(c['role']),
        start: c['start'] as string,
        end: text(c['end']),
      })),
      studies: studies.map((st) => ({
        school: st['school'] as string,
        qualification: text(st['qualification']),
        subject: text(st['subject']),
      })),
    };
  };

  const createApplicant = (request: SandboxRequest): SandboxReply => {
    const applicant = applicantOf(request, `AP-${applicants.length + 1}`);
    if ('status' in applicant) return applicant;
    applicants.push(applicant);
    return { status: 201, body: { key: applicant.key } };
  };

  const replaceApplicant = (request: SandboxRequest, key: string): SandboxReply => {
    const index = applicants.findIndex((a) => a.key === key);
    if (index < 0) return fault(404, 'not_found', `no applicant ${key}`);
    const applicant = applicantOf(request, key);
    if ('status' in applicant) return applicant;
    applicants[index] = applicant;
    return { status: 200, body: { key } };
  };

  const api = (request: SandboxRequest): SandboxReply => {
    calls++;
    const expires = accessTokens.get(bearerOf(request.headers) ?? '');
    if (expires === undefined || expires < Date.now())
      return fault(401, 'unauthenticated', 'the access token is unknown or expired');
    const route = `${request.method} ${request.path}`;
    switch (route) {
      case 'GET /api/openings': {
        const page = Number(request.query.get('page') ?? '1');
        const perPage = Number(request.query.get('per_page') ?? '10');
        if (!Number.isInteger(page) || page < 1) return fault(400, 'bad_request', 'page starts at 1');
        if (!Number.isInteger(perPage) || perPage < 1 || perPage > PER_PAGE_MAX)
          return fault(400, 'bad_request', `per_page must be 1 to ${PER_PAGE_MAX}`);
        const items = openings.slice((page - 1) * perPage, page * perPage);
        return {
          status: 200,
          body: { items, page, total_pages: Math.max(1, Math.ceil(openings.length / perPage)) },
        };
      }
      case 'GET /api/applicants': {
        const email = request.query.get('email')?.toLowerCase();
        if (!email) return fault(400, 'bad_request', 'email is required');
        return {
          status: 200,
          body: { items: applicants.filter((a) => a.emails.some((e) => e.toLowerCase() === email)) },
        };
      }
      case 'POST /api/applicants':
        return createApplicant(request);
      default: {
        const key = /^PUT \/api\/applicants\/(AP-\d+)$/.exec(route)?.[1];
        return key ? replaceApplicant(request, key) : fault(404, 'not_found', route);
      }
    }
  };

  const served = await serveSandbox(
    (request) => {
      if (request.path === '/oauth/authorize' && ['GET', 'POST'].includes(request.method))
        return authorize(request);
      if (request.path === '/oauth/token' && request.method === 'POST') return tokenEnd(request);
      if (request.path.startsWith('/api/')) return api(request);
      // The sandbox's own view for tests: not part of the vendor's API.
      if (request.method === 'GET' && request.path === '/__sandbox/applicants')
        return { status: 200, body: { applicants } };
      if (request.method === 'GET' && request.path === '/__sandbox/ready') return { status: 200, body: {} };
      return fault(404, 'not_found', `${request.method} ${request.path}`);
    },
    { port: options.port, host: options.host },
  );
  return {
    ...served,
    applicants: () => applicants,
    openings: () => openings,
    changeOpening,
    calls: () => calls,
    resetCalls: () => {
      calls = 0;
    },
  };
}
