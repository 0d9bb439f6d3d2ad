import { readBoolean, readDate, readId, readText } from '@connector/ats-http';
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
import { TW_KEYS_MAX_PAGE, TwKeysClient, type TwKeysJob, type TwKeysPersonInput } from './tw-keys.client';
import {
  TW_KEYS,
  twKeysClientCredentials,
  twKeysConnectorKind,
  twKeysCredentialIssuer,
} from './tw-keys.setup';

/** What auth-gateway hands a worker: the verified address and a bearer token. */
interface TwKeysAccess extends AtsAccess {
  type: typeof TW_KEYS;
  baseUrl: string;
  accessToken: string;
}

const twKeysAccessOf = (access: AtsAccess): TwKeysAccess =>
  accessOf<TwKeysAccess>(access, TW_KEYS, ['baseUrl', 'accessToken']);

const JOB_FIELDS = ['id', 'headline', 'city', 'body', 'needs', 'state'] as const;

/** A job the vendor listed, as the mapping reads it. */
function toSourceVacancy(job: TwKeysJob, now: Date): SourceVacancy | undefined {
  const externalId = readId(job['id']);
  if (externalId === undefined) return undefined;
  const record = Object.fromEntries(
    JOB_FIELDS.flatMap((field) => {
      const value = field === 'id' ? externalId : readText(job[field]);
      return value === undefined ? [] : [[field, value]];
    }),
  );
  return { externalId, record, updatedAt: (readDate(job['modified']) ?? now).toISOString() };
}

/** vacancy-sync's reading: every job by keyset pages (the vendor has no changes-only listing). */
class TwKeysVacancySource implements VacancySource {
  readonly atsType = TW_KEYS;

  constructor(private readonly deps: VacancyPartDeps<TwKeysClient>) {}

  systemOf(connector: ConnectorSnapshot): string {
    return `${TW_KEYS}:${String(connector.config['baseUrl'] ?? connector.id)}`;
  }

  async *listLive(connector: ConnectorSnapshot, options: ListingOptions, clientOptions: ClientOptions) {
    const client = this.deps.client(connector, clientOptions);
    let after = options.after;
    for (let pages = 1; ; pages++) {
      if (options.maxPages !== undefined && pages > options.maxPages)
        throw pageLimitReached(options.maxPages);
      const { jobs, hasMore } = await client.jobs(
        after,
        Math.min(options.pageSize ?? TW_KEYS_MAX_PAGE, TW_KEYS_MAX_PAGE),
      );
      const vacancies: SourceVacancy[] = [];
      const closed: string[] = [];
      for (const job of jobs) {
        const vacancy = toSourceVacancy(job, options.now);
        if (!vacancy) continue;
        // Live: open and listed on the careers site (an unreadable flag is not listed).
        if (readText(job['state']) === 'open' && readBoolean(job['listed']) === true) vacancies.push(vacancy);
        else closed.push(vacancy.externalId);
      }
      after = Math.max(after, ...jobs.map((job) => Number(readId(job['id']) ?? 0)));
      yield { after, read: jobs.length, vacancies, closed };
      if (!hasMore || jobs.length === 0) return;
    }
  }
}

/** Its calls per connector: a token bucket (the vendor publishes no limit; this one is polite). */
const twKeysBudget = (connector: BudgetConnector) => ({
  key: `${TW_KEYS}:${connector.id}`,
  bucket: { capacity: 20, refillPerSecond: 5, reserve: 4 },
});

/** A platform candidate as the vendor's person: every field, so one the platform removes is cleared there. */
function personOf(candidate: CandidateDataDto): TwKeysPersonInput {
  return {
    first_name: candidate.firstName,
    last_name: candidate.lastName,
    email: candidate.email,
    phone: candidate.phone ?? null,
    mobile: candidate.mobile ?? null,
    jobs: (candidate.workHistory ?? []).map((job) => ({
      employer: job.employer,
      title: job.title,
      from: job.startDate,
      to: job.current ? null : (job.endDate ?? null),
    })),
    schools: (candidate.education ?? []).map((school) => ({
      name: school.institution,
      degree: school.degree ?? null,
      subject: school.fieldOfStudy ?? null,
    })),
  };
}

/** candidate-sync's writer: one person per candidate, found again by email, changed fields patched. */
const twKeysCandidateSink: CandidateSinkFactory<TwKeysClient> = ({ client, hasher }) => ({
  settleMs: client.unsureWriteSettleMs,
  findExisting: async (candidate) => {
    const ids = (await client.peopleByEmail(candidate.email)).map((p) => p.id);
    return ids.length > 0 ? String(Math.max(...ids)) : undefined;
  },
  create: async (candidate, signal) => {
    const person = personOf(candidate);
    const id = await client.createPerson(person, signal);
    return { externalId: String(id), sent: { fields: hasher.fields(person), children: {} }, complete: true };
  },
  update: async (externalId, candidate, sent, _checkpoint, signal) => {
    const person = personOf(candidate);
    const changed = hasher.changed(person, sent.fields);
    if (Object.keys(changed).length > 0) await client.patchPerson(externalId, changed, signal);
    return { fields: hasher.fields(person), children: {} };
  },
});

/** The Keys vendor: a throwaway ATS of the tests, connected with client credentials. */
export const twKeysAdapter = {
  type: TW_KEYS,
  label: 'Keys vendor',
  capabilities: ['vacancies', 'candidates', 'client-credentials'],
  mapping: {
    atsType: TW_KEYS,
    sourcePaths: new Set(JOB_FIELDS),
    defaults: {
      fields: {
        title: { from: 'headline' },
        location: { from: 'city' },
        description: { from: 'body' },
        requirements: { from: 'needs' },
        status: { from: 'state' },
      },
    },
  },
  accessOf: twKeysAccessOf,
  callTokenOf: (access) => twKeysAccessOf(access).accessToken,
  connectorKind: twKeysConnectorKind,
  budget: (connector) => ({ kind: 'token-bucket', ...twKeysBudget(connector) }),
  makeClients: (deps) => (request) =>
    new TwKeysClient({
      guard: deps.guard,
      access: async (rejected) => twKeysAccessOf(await request.access(rejected)),
      hooks: tokenBucketHooks(deps.limiter, TW_KEYS, twKeysBudget(request.connector), request.options),
      ...(request.options.timeoutMs !== undefined ? { timeoutMs: request.options.timeoutMs } : {}),
    }),
  clientCredentials: twKeysClientCredentials,
  credentialIssuer: twKeysCredentialIssuer,
  vacancySource: (deps: VacancyPartDeps<TwKeysClient>) => new TwKeysVacancySource(deps),
  candidateSink: twKeysCandidateSink,
} satisfies AtsAdapter;
