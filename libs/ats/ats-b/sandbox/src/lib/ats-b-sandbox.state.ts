import { CallCounter } from './call-counter';
import { CandidateStore, fileView, type CandidateView, type DuplicateReport } from './candidate.store';
import { EventSubscriptionStore } from './event-subscription.store';
import { FaultInjector, type ActiveFaults, type FaultConfig } from './fault-injector';
import { JobOrderStore, type JobOrderPatch, type SeedOptions } from './job-order.store';
import { OAuthStore } from './oauth.store';
import { PerMinuteLimiter } from './per-minute-limiter';
import type { ResolvedOptions } from './ats-b-sandbox.options';
import type { CandidateFileView, JobOrder } from './sandbox.types';

/**
 * Everything the sandbox holds, reachable in-process by tests and over `/__sandbox` by anyone else.
 * The stores are public for fine-grained access; the methods cover what tests usually need.
 */
export class AtsBSandboxState {
  readonly jobs: JobOrderStore;
  readonly candidateStore = new CandidateStore();
  readonly auth: OAuthStore;
  readonly calls = new CallCounter();
  readonly faultInjector = new FaultInjector();
  readonly limiter: PerMinuteLimiter;
  /** Token requests and REST logins, each endpoint counted on its own. */
  readonly authLimiter: PerMinuteLimiter;
  /** `event/subscription`: fed by every job-order change (API or `/__sandbox`). */
  readonly events: EventSubscriptionStore;

  constructor(readonly options: ResolvedOptions) {
    this.jobs = new JobOrderStore(options.seed);
    this.events = new EventSubscriptionStore({ ...options.eventSubscriptions, seed: options.seed.seed });
    this.jobs.onChange = (change) => this.events.record(change);
    this.auth = new OAuthStore({
      client: options.client,
      users: options.users,
      accessTokenTtlSeconds: options.accessTokenTtlSeconds,
      sessionTtlSeconds: options.sessionTtlSeconds,
      codeTtlSeconds: options.codeTtlSeconds,
      sessionSliding: options.sessionSliding,
      tokenTag: options.tokenTag,
    });
    this.limiter = new PerMinuteLimiter(options.perMinuteLimit);
    this.authLimiter = new PerMinuteLimiter(options.authPerMinuteLimit);
    this.faultInjector.clear(options.latencyMs, options.jitterMs);
  }

  /** Replaces the job orders with N generated ones (same seed → same data). */
  seed(options: SeedOptions): void {
    this.jobs.seed(options);
  }

  /** Back to the start: initial seed, no candidates or files, calls and faults cleared; `auth` also drops tokens. */
  reset(options: { auth?: boolean } = {}): void {
    this.jobs.seed(this.options.seed);
    this.candidateStore.clear();
    this.events.clear();
    this.events.configure(this.options.eventSubscriptions);
    this.calls.reset();
    this.limiter.reset();
    this.authLimiter.reset();
    this.faultInjector.clear(this.options.latencyMs, this.options.jitterMs);
    if (options.auth) this.auth.clear();
  }

  job(id: number): JobOrder | undefined {
    return this.jobs.get(id);
  }

  addJob(patch: JobOrderPatch = {}): JobOrder {
    return this.jobs.add(patch);
  }

  updateJob(id: number, patch: JobOrderPatch = {}): JobOrder {
    return this.jobs.update(id, patch);
  }

  /** isOpen false (status Closed), or isDeleted true with `{deleted: true}`. */
  closeJob(id: number, options: { deleted?: boolean } = {}): JobOrder {
    return this.jobs.close(id, options);
  }

  /** Hard delete: the job is gone; subscribers get a DELETED event. */
  removeJob(id: number): void {
    this.jobs.remove(id);
  }

  /** As the vendor does with a subscription unread for a week: it answers as unknown from now on. */
  dropSubscription(id: string): boolean {
    return this.events.drop(id);
  }

  candidates(): CandidateView[] {
    return this.candidateStore.views();
  }

  candidate(id: number): CandidateView | undefined {
    const c = this.candidateStore.get(id);
    return c ? this.candidateStore.view(c) : undefined;
  }

  files(): CandidateFileView[] {
    return this.candidateStore.allFiles();
  }

  filesOf(candidateId: number): CandidateFileView[] {
    return this.candidateStore.filesOf(candidateId).map(fileView);
  }

  fileContent(id: number): Buffer | undefined {
    return this.candidateStore.getFile(id)?.content;
  }

  duplicates(): DuplicateReport {
    return this.candidateStore.duplicates();
  }

  callCounts(): Record<string, number> {
    return this.calls.snapshot();
  }

  totalCalls(): number {
    return this.calls.totalCalls;
  }

  resetCalls(): void {
    this.calls.reset();
  }

  faults(): ActiveFaults {
    return this.faultInjector.config;
  }

  /** PUT semantics: replaces standing faults and runs the one-shot actions it names. */
  setFaults(config: FaultConfig): ActiveFaults {
    const actions = this.faultInjector.set(config, this.options.latencyMs, this.options.jitterMs);
    if (actions.expireSessions) this.expireSessions();
    if (actions.revokeRefreshTokens) this.revokeRefreshTokens();
    if (actions.rejectNextRefresh) this.auth.rejectNextRefresh();
    return this.faults();
  }

  clearFaults(): void {
    this.faultInjector.clear(this.options.latencyMs, this.options.jitterMs);
  }

  /** Every BhRestToken dies: the next data call gets 401 invalidRestToken. */
  expireSessions(): number {
    return this.auth.expireSessions();
  }

  /** Every refresh token dies: the next refresh gets invalid_grant (the customer must authorize again). */
  revokeRefreshTokens(): number {
    return this.auth.revokeRefreshTokens();
  }

  rejectNextRefresh(): void {
    this.auth.rejectNextRefresh();
  }
}
