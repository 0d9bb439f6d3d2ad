import { APPLICATION_STAGES, APPLICATION_STATUSES, ID_BASE, type SearchEntity } from './ats-a.protocol';
import type { Application, Candidate, Company, Contact, StoredFile, Vacancy } from './ats-a.records';
import type { ResolvedSandboxOptions } from './ats-a-sandbox.options';
import { TokenService } from './auth/token.service';
import { FaultInjector, type FaultConfig, type FaultUpdate } from './faults/fault.injector';
import { GeneratedDataset, utcMidnight } from './generator/dataset.generator';
import { QuotaMeter, type QuotaSnapshot } from './quota/quota.meter';
import { notFound, validation } from './sandbox.error';
import { SearchEngine } from './search/search.engine';
import { GeneratedStore, indexedView, MapStore, type RecordSource } from './store/record-source';
import { VacancyStore, type VacancyPatch } from './store/vacancy.store';
import { validateApplication, validateApplicationPatch, validateCandidate } from './writes/write.validators';

export interface CallCounts {
  total: number;
  byEndpoint: Record<string, number>;
  /** Calls answered 429 (the daily limit spent, or force429), by endpoint. */
  rateLimited: Record<string, number>;
}

export interface SeedInfo {
  vacancies: number;
  companies: number;
  contacts: number;
  seed: number;
  anchor: string;
}

export interface ApplicationsSummary {
  count: number;
  duplicates: number;
  applications: Application[];
}

export type NewFile = Omit<StoredFile, 'FileId' | 'uploadedAt'>;

/**
 * Everything the sandbox knows: the generated data set, what clients wrote, tokens, quota, faults and call
 * counts. The HTTP API and the admin surface are thin layers over this; tests may use it in-process.
 */
export class AtsASandboxState {
  readonly tokens: TokenService;
  readonly quotaMeter: QuotaMeter;
  readonly faults: FaultInjector;
  readonly searchEngine = new SearchEngine();

  private dataset!: GeneratedDataset;
  private vacancyStore!: VacancyStore;
  private companyStore!: GeneratedStore<Company>;
  private contactStore!: GeneratedStore<Contact>;
  private readonly candidateStore = new MapStore<Candidate>(ID_BASE.candidate + 1);
  private readonly applicationStore = new MapStore<Application>(ID_BASE.application + 1);
  private storedFiles: StoredFile[] = [];
  private nextFileId = ID_BASE.file + 1;
  private readonly pairCounts = new Map<string, number>();
  private calls = new Map<string, number>();
  private limitedCalls = new Map<string, number>();
  private totalCalls = 0;

  constructor(
    private readonly options: ResolvedSandboxOptions,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = new TokenService(
      options.clients,
      options.tokenTtlSeconds,
      now,
      options.tokenEarlyExpirySeconds,
    );
    this.quotaMeter = new QuotaMeter(options.dailyLimit, options.quotaWindowSeconds, now);
    this.faults = new FaultInjector(options.latencyMs, Math.random, options.jitterMs);
    this.seed(options.seed.vacancies, options.seed.seed, options.seed.anchor);
  }

  // ---- data set -------------------------------------------------------------------------------------------

  /** Replaces the data set and clears what clients wrote, call counts, quota use and faults (tokens stay valid). */
  seed(vacancies: number, seed = 1, anchor?: string | number): SeedInfo {
    if (!Number.isInteger(vacancies) || vacancies < 0)
      throw validation('vacancies must be a non-negative integer');
    if (!Number.isInteger(seed)) throw validation('seed must be an integer');
    const anchorMs =
      anchor === undefined
        ? utcMidnight(this.now())
        : typeof anchor === 'number'
          ? anchor
          : Date.parse(anchor);
    if (Number.isNaN(anchorMs)) throw validation('anchor must be an ISO date or epoch ms');
    this.dataset = new GeneratedDataset({ vacancies, seed, anchorMs });
    this.clearWrites();
    return this.seedInfo();
  }

  /** Back to the state just after the last seed. */
  reset(): SeedInfo {
    return this.seed(this.dataset.spec.vacancies, this.dataset.spec.seed, this.dataset.spec.anchorMs);
  }

  private clearWrites(): void {
    const d = this.dataset;
    this.vacancyStore = new VacancyStore(d, this.now);
    this.companyStore = new GeneratedStore(
      d.companyCount,
      (i) => d.companyId(i),
      (id) => d.companyIndexOf(id),
      (i) => d.company(i),
    );
    this.contactStore = new GeneratedStore(
      d.contactCount,
      (i) => d.contactId(i),
      (id) => d.contactIndexOf(id),
      (i) => d.contact(i),
    );
    this.candidateStore.clear();
    this.applicationStore.clear();
    this.storedFiles = [];
    this.nextFileId = ID_BASE.file + 1;
    this.pairCounts.clear();
    this.searchEngine.clear();
    this.resetCalls();
    this.quotaMeter.reset();
    this.faults.reset();
  }

  seedInfo(): SeedInfo {
    const d = this.dataset;
    return {
      vacancies: d.vacancyCount,
      companies: d.companyCount,
      contacts: d.contactCount,
      seed: d.spec.seed,
      anchor: new Date(d.spec.anchorMs).toISOString(),
    };
  }

  source(entity: SearchEntity): RecordSource<object> {
    switch (entity) {
      case 'vacancies':
        return this.vacancyStore;
      case 'companies':
        return this.companyStore;
      case 'contacts':
        return this.contactStore;
      case 'candidates':
        return indexedView(this.candidateStore, this.options.indexLagMs, this.now);
      case 'applications':
        return indexedView(this.applicationStore, this.options.indexLagMs, this.now);
    }
  }

  // ---- vacancies (what a customer does in their ATS) ------------------------------------------------------

  getVacancy(id: number): Vacancy | undefined {
    return this.vacancyStore.get(id);
  }

  getCompany(id: number): Company | undefined {
    return this.companyStore.get(id);
  }

  getContact(id: number): Contact | undefined {
    return this.contactStore.get(id);
  }

  vacancyCount(): number {
    return this.vacancyStore.count();
  }

  addVacancy(patch: VacancyPatch = {}): Vacancy {
    return this.vacancyStore.add(patch);
  }

  updateVacancy(id: number, patch: VacancyPatch): Vacancy {
    return this.vacancyStore.update(id, patch);
  }

  /** Takes a vacancy off the careers site (IncludeOnSite false), as a recruiter would. */
  unpublish(id: number): Vacancy {
    return this.vacancyStore.update(id, { IncludeOnSite: false });
  }

  closeVacancy(id: number): Vacancy {
    return this.vacancyStore.update(id, { VacancyStatus: 'Closed' });
  }

  /** Deletes a vacancy: it disappears from searches. */
  removeVacancy(id: number): void {
    this.vacancyStore.remove(id);
  }

  // ---- what clients wrote ---------------------------------------------------------------------------------

  createCandidate(body: unknown): Candidate {
    const input = validateCandidate(body, false);
    const now = new Date(this.now()).toISOString();
    const id = this.candidateStore.allocateId();
    const candidate: Candidate = {
      CandidateId: id,
      Title: input.Title ?? null,
      FirstName: input.FirstName as string,
      Surname: input.Surname as string,
      Email: input.Email as string,
      Telephone: input.Telephone ?? null,
      Mobile: input.Mobile ?? null,
      Address: input.Address ?? null,
      EmploymentHistory: input.EmploymentHistory ?? [],
      Education: input.Education ?? [],
      CreationDate: now,
      ModificationDate: now,
    };
    this.candidateStore.set(id, candidate);
    return candidate;
  }

  patchCandidate(id: number, body: unknown): Candidate {
    const current = this.candidateStore.get(id);
    if (!current) throw notFound(`Candidate ${id} not found`);
    const input = validateCandidate(body, true);
    const next: Candidate = { ...current, ...input, ModificationDate: new Date(this.now()).toISOString() };
    this.candidateStore.set(id, next);
    return next;
  }

  hasCandidate(id: number): boolean {
    return this.candidateStore.has(id);
  }

  /** Accepts duplicates, as the vendor does, and counts them. */
  createApplication(body: unknown): Application {
    const input = validateApplication(body);
    if (!this.candidateStore.has(input.CandidateId))
      throw notFound(`Candidate ${input.CandidateId} not found`);
    if (!this.vacancyStore.has(input.VacancyId)) throw notFound(`Vacancy ${input.VacancyId} not found`);
    const now = new Date(this.now()).toISOString();
    const id = this.applicationStore.allocateId();
    const application: Application = {
      ApplicationId: id,
      Candidate: { Id: input.CandidateId },
      Vacancy: { Id: input.VacancyId },
      ApplicationDate: now,
      Workflow: { Stage: APPLICATION_STAGES[0], Status: APPLICATION_STATUSES[0] },
      Questions: input.Questions,
      CreationDate: now,
      ModificationDate: now,
    };
    this.applicationStore.set(id, application);
    const pair = `${input.CandidateId}:${input.VacancyId}`;
    this.pairCounts.set(pair, (this.pairCounts.get(pair) ?? 0) + 1);
    return application;
  }

  /** Replaces the answer of each question sent (matched by question text) and appends new questions. */
  patchApplication(id: number, body: unknown): Application {
    const current = this.applicationStore.get(id);
    if (!current) throw notFound(`Application ${id} not found`);
    const changes = validateApplicationPatch(body);
    const questions = current.Questions.map((q) => ({ ...q }));
    for (const change of changes) {
      const existing = questions.find((q) => q.Question === change.Question);
      if (existing) existing.Answer = change.Answer;
      else questions.push(change);
    }
    const next: Application = {
      ...current,
      Questions: questions,
      ModificationDate: new Date(this.now()).toISOString(),
    };
    this.applicationStore.set(id, next);
    return next;
  }

  storeFile(file: NewFile): StoredFile {
    if (!this.candidateStore.has(file.CandidateId)) throw notFound(`Candidate ${file.CandidateId} not found`);
    const stored: StoredFile = {
      ...file,
      FileId: this.nextFileId++,
      uploadedAt: new Date(this.now()).toISOString(),
    };
    this.storedFiles.push(stored);
    return stored;
  }

  candidates(): Candidate[] {
    return this.candidateStore.values();
  }

  applications(): Application[] {
    return this.applicationStore.values();
  }

  files(): StoredFile[] {
    return [...this.storedFiles];
  }

  /** Applications beyond the first for the same candidate and vacancy. */
  duplicateApplications(): number {
    let duplicates = 0;
    for (const count of this.pairCounts.values()) duplicates += Math.max(0, count - 1);
    return duplicates;
  }

  applicationsSummary(): ApplicationsSummary {
    const applications = this.applications();
    return { count: applications.length, duplicates: this.duplicateApplications(), applications };
  }

  // ---- calls, quota, faults -------------------------------------------------------------------------------

  recordCall(endpoint: string): void {
    this.calls.set(endpoint, (this.calls.get(endpoint) ?? 0) + 1);
    this.totalCalls++;
  }

  recordRateLimited(endpoint: string): void {
    this.limitedCalls.set(endpoint, (this.limitedCalls.get(endpoint) ?? 0) + 1);
  }

  callCounts(): CallCounts {
    return {
      total: this.totalCalls,
      byEndpoint: Object.fromEntries(this.calls),
      rateLimited: Object.fromEntries(this.limitedCalls),
    };
  }

  resetCalls(): void {
    this.limitedCalls = new Map();
    this.calls = new Map();
    this.totalCalls = 0;
  }

  /** The token call counts against the daily limit (option countTokenCalls, on by default). */
  get countsTokenCalls(): boolean {
    return this.options.countTokenCalls;
  }

  quota(): QuotaSnapshot {
    return this.quotaMeter.snapshot();
  }

  /**
   * `startWindow`: a new window starts now (a test need not wait for the aligned one). `resetAt` (ISO date-time,
   * within one window from now): the window ends then, as a system whose day resets at its own hour.
   */
  setQuota(change: {
    limit?: number;
    used?: number;
    startWindow?: boolean;
    resetAt?: string;
  }): QuotaSnapshot {
    const { startWindow, resetAt, ...counts } = change;
    if (startWindow !== undefined && typeof startWindow !== 'boolean')
      throw validation('startWindow must be true or false');
    const resetAtMs = resetAt === undefined ? undefined : Date.parse(String(resetAt));
    const windowMs = this.quotaMeter.snapshot().windowSeconds * 1000;
    if (resetAtMs !== undefined && !(resetAtMs > this.now() && resetAtMs <= this.now() + windowMs))
      throw validation('resetAt must be a date-time within one quota window from now');
    if (startWindow) this.quotaMeter.startWindowNow();
    if (resetAtMs !== undefined) this.quotaMeter.endWindowAt(resetAtMs);
    for (const [key, value] of Object.entries(counts)) {
      if (key !== 'limit' && key !== 'used') throw validation(`Unknown quota field ${key}`);
      if (!Number.isInteger(value) || (value as number) < 0)
        throw validation(`${key} must be a non-negative integer`);
    }
    return this.quotaMeter.set(counts);
  }

  faultConfig(): FaultConfig {
    return this.faults.current();
  }

  setFaults(update: FaultUpdate): FaultConfig & { revokedTokens?: number } {
    const config = this.faults.replace(update);
    if (update.revokeTokens === true) return { ...config, revokedTokens: this.tokens.revokeAll() };
    return config;
  }
}
