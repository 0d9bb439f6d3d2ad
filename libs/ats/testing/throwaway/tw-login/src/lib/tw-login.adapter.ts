import { readId, readText } from '@connector/ats-http';
import {
  accessOf,
  type AtsAdapter,
  type BudgetConnector,
  type CandidateSinkFactory,
  type ClientOptions,
  type ListingOptions,
  pageLimitReached,
  type SourceVacancy,
  tokenBucketHooks,
  type VacancyPartDeps,
  type VacancySource,
} from '@connector/ats-core';
import type { AtsAccess, CandidateDataDto, ConnectorSnapshot } from '@connector/contracts';
import { TW_LOGIN_MAX_PER_PAGE, TwLoginClient } from './tw-login.client';
import {
  TW_LOGIN,
  TW_LOGIN_SETTINGS,
  twLoginConnectorKind,
  twLoginCredentialIssuer,
  twLoginInteractiveLogin,
} from './tw-login.setup';

/** What auth-gateway hands a worker: the API's address (learnt at the login) and a bearer token. */
interface TwLoginAccess extends AtsAccess {
  type: typeof TW_LOGIN;
  apiUrl: string;
  accessToken: string;
}

const twLoginAccessOf = (access: AtsAccess): TwLoginAccess =>
  accessOf<TwLoginAccess>(access, TW_LOGIN, ['apiUrl', 'accessToken']);

const OPENING_FIELDS = ['key', 'name', 'place', 'text'] as const;

/** An opening as the mapping reads it: its texts, read tolerantly. */
function toSourceVacancy(item: Record<string, unknown>, now: Date): SourceVacancy | undefined {
  const externalId = readText(item['key']) ?? readId(item['key']);
  if (externalId === undefined) return undefined;
  const record = Object.fromEntries(
    OPENING_FIELDS.flatMap((field) => {
      const value = readText(item[field]);
      return value === undefined ? [] : [[field, value]];
    }),
  );
  const changed = Number(item['changed']);
  const updatedAt = Number.isFinite(changed) && changed > 0 ? new Date(changed * 1000) : now;
  return { externalId, record, updatedAt: updatedAt.toISOString() };
}

/** vacancy-sync's reading: every opening by numbered pages (the vendor has no changes-only listing). */
class TwLoginVacancySource implements VacancySource {
  readonly atsType = TW_LOGIN;

  constructor(private readonly deps: VacancyPartDeps<TwLoginClient>) {}

  /** Each connector signs in to its own account. */
  systemOf(connector: ConnectorSnapshot): string {
    return `${TW_LOGIN}:${connector.id}`;
  }

  async *listLive(connector: ConnectorSnapshot, options: ListingOptions, clientOptions: ClientOptions) {
    const client = this.deps.client(connector, clientOptions);
    const perPage = Math.min(options.pageSize ?? TW_LOGIN_MAX_PER_PAGE, TW_LOGIN_MAX_PER_PAGE);
    for (let page = options.after + 1, read = 1; ; page++, read++) {
      if (options.maxPages !== undefined && read > options.maxPages) throw pageLimitReached(options.maxPages);
      const { items, totalPages } = await client.openings(page, perPage);
      const vacancies: SourceVacancy[] = [];
      const closed: string[] = [];
      for (const item of items) {
        const vacancy = toSourceVacancy(item, options.now);
        if (!vacancy) continue;
        // Live: open and public (an internal opening is not advertised).
        if (item['open'] === true && item['visibility'] === 'public') vacancies.push(vacancy);
        else closed.push(vacancy.externalId);
      }
      yield { after: page, read: items.length, vacancies, closed };
      if (page >= totalPages || items.length === 0) return;
    }
  }
}

/** Its calls per connector: a token bucket (the vendor publishes no limit; this one is polite). */
const twLoginBudget = (connector: BudgetConnector) => ({
  key: `${TW_LOGIN}:${connector.id}`,
  bucket: { capacity: 20, refillPerSecond: 5, reserve: 4 },
});

/** A platform candidate as the vendor's applicant: every field, so one the platform removes is cleared there. */
function applicantOf(candidate: CandidateDataDto) {
  return {
    name: { first: candidate.firstName, last: candidate.lastName },
    emails: [candidate.email],
    phones: { home: candidate.phone ?? null, mobile: candidate.mobile ?? null },
    career: (candidate.workHistory ?? []).map((job) => ({
      company: job.employer,
      role: job.title,
      start: job.startDate,
      end: job.current ? null : (job.endDate ?? null),
    })),
    studies: (candidate.education ?? []).map((study) => ({
      school: study.institution,
      qualification: study.degree ?? null,
      subject: study.fieldOfStudy ?? null,
    })),
  };
}

/** candidate-sync's writer: one applicant per candidate, found again by email, replaced whole when it changed. */
const twLoginCandidateSink: CandidateSinkFactory<TwLoginClient> = ({ client, hasher }) => ({
  settleMs: client.unsureWriteSettleMs,
  // Keys are AP-<n>: the newest is the one with the highest number.
  findExisting: async (candidate) =>
    (await client.applicantsByEmail(candidate.email))
      .sort((a, b) => Number(a.slice(3)) - Number(b.slice(3)))
      .at(-1),
  create: async (candidate, signal) => {
    const applicant = applicantOf(candidate);
    const key = await client.createApplicant(applicant, signal);
    return { externalId: key, sent: { fields: hasher.fields(applicant), children: {} }, complete: true };
  },
  update: async (externalId, candidate, sent, _checkpoint, signal) => {
    const applicant = applicantOf(candidate);
    if (Object.keys(hasher.changed(applicant, sent.fields)).length > 0)
      await client.replaceApplicant(externalId, applicant, signal);
    return { fields: hasher.fields(applicant), children: {} };
  },
});

/** The Login vendor: a throwaway ATS of the tests, connected by a recruiter's sign-in. */
export const twLoginAdapter = {
  type: TW_LOGIN,
  label: 'Login vendor',
  capabilities: ['vacancies', 'candidates', 'interactive-login'],
  mapping: {
    atsType: TW_LOGIN,
    sourcePaths: new Set(OPENING_FIELDS),
    defaults: {
      fields: {
        title: { from: 'name' },
        location: { from: 'place' },
        description: { from: 'text' },
        // The vendor has no requirements or status of an opening: only open ones are listed as live.
        requirements: { constant: '' },
        status: { constant: 'Open' },
      },
    },
  },
  accessOf: twLoginAccessOf,
  callTokenOf: (access) => twLoginAccessOf(access).accessToken,
  connectorKind: twLoginConnectorKind,
  budget: (connector) => ({ kind: 'token-bucket', ...twLoginBudget(connector) }),
  makeClients: (deps) => (request) =>
    new TwLoginClient({
      guard: deps.guard,
      access: async (rejected) => twLoginAccessOf(await request.access(rejected)),
      hooks: tokenBucketHooks(deps.limiter, TW_LOGIN, twLoginBudget(request.connector), request.options),
      ...(request.options.timeoutMs !== undefined ? { timeoutMs: request.options.timeoutMs } : {}),
    }),
  credentialIssuer: twLoginCredentialIssuer,
  interactiveLogin: twLoginInteractiveLogin,
  settings: TW_LOGIN_SETTINGS,
  vacancySource: (deps: VacancyPartDeps<TwLoginClient>) => new TwLoginVacancySource(deps),
  candidateSink: twLoginCandidateSink,
} satisfies AtsAdapter;
