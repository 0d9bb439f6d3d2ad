import { Inject, Injectable, Logger } from '@nestjs/common';
import { AtsSystems, type ClientOptions, ConnectorDirectory } from '@connector/ats-client-factory';
import {
  type ConnectorSnapshot,
  createEvent,
  type EventEnvelope,
  Exchange,
  type RunCompletedDto,
  type RunProgressDto,
  type RunWait,
  RoutingKey,
} from '@connector/contracts';
import { AtsRegistry, EnrichmentCache, type SourcePage, SourceRefusedError } from '@connector/ats-core';
import { type JobMapping, validateJobMapping } from '@connector/job-mapping';
import { MessagePublisher, RpcError } from '@connector/messaging';
import { inSpan, withLogContext } from '@connector/observability';
import { runIntervalMinutes, eventsUnavailableWarning } from '../events/event-feed';
import { EventFeedService, feedDown } from '../events/event-feed.service';
import type { EventFeed } from '../events/vacancy-event-feed.repository';
import { VacancySources } from '../sources/vacancy-sources';
import { decidePage } from '../vacancies/page-decision';
import { expiryCheckDue, mayClose } from '../vacancies/vacancy-diff';
import { VacancyStateRepository } from '../vacancies/vacancy-state.repository';
import { VacancySyncConfig } from '../vacancy-sync.config';
import { CallCounter } from './call-counter';
import { decideRunFailure, RunDeadlineReached } from './run-failure';
import { RunLeaseLostError } from './run-lease-lost.error';
import { readAhead } from './read-ahead';
import { decideRunMode } from './run-mode';
import { runMetrics } from './run-metrics';
import { runWarnings } from './run-warnings';
import type { SyncRun } from './sync-run';
import { type HeadRun, type RunDelta, type RunLease, SyncRunRepository } from './sync-run.repository';
import { type SyncOptions, syncOptionsOf } from './sync-options';

/** Connectors whose system this process remembers (a fleet's worth; forgotten all at once beyond). */
const MAX_SYSTEMS_KEPT = 20_000;

/** How often a run's page commits are reported (`run.progress`); its start and its waits always are. */
const PROGRESS_EVERY_MS = 2_000;

/** Closures published per step of the closing phase. */
const CLOSE_BATCH = 500;

/**
 * How an execution of a run ended: `finished` with another run of the connector open (the lease kept for it:
 * the driver goes on with it), `done` with none (the lease given back with the end), or stopped short.
 */
export type RunOutcome = 'finished' | 'done' | 'parked' | 'lease-lost' | 'stopped';

class StopRequested extends Error {}

/** A connector's runs cannot go on: permanent, the run fails. */
class RunRefused extends Error {}

interface RunScope {
  lease: RunLease;
  connector: ConnectorSnapshot;
  /** The connector's last successes when the run was taken up (what deciding its mode needs). */
  lastSuccesses: Pick<HeadRun, 'lastSuccessStartedAt' | 'lastFullStartedAt'>;
  mapping: JobMapping;
  options: SyncOptions;
  /** The connector's event feed when its ATS has one (made here if missing): the run's interval. */
  feed?: EventFeed;
  /** The feed was down when the run took the connector up: the run warns so (EVENTS_UNAVAILABLE), saying why. */
  feedWarning?: { code: string; message: string };
  /** The run makes a lost subscription again before it lists: it is the full listing that catches up. */
  catchUp: boolean;
  calls: CallCounter;
  caches: Map<string, EnrichmentCache<unknown>>;
  shouldStop: () => boolean;
  /** Aborted when the connector's lease is lost (see RunDriver): the run stops, changing nothing more. */
  lost: AbortSignal;
  /** When this execution last published `run.progress` (ms since the epoch). */
  progressAt: number;
  /** When this execution must stop (RUN_DEADLINE_MINUTES after it began; ms since the epoch). */
  deadline: number;
}

/**
 * Executes one run from its cursor: lists the ATS page by page, publishes what is new or changed, marks what
 * it saw, and after a complete full listing closes what it did not see. Every page commits its cursor with
 * the lease check, so a paused, crashed or stopped run goes on from its last page, in any process.
 */
@Injectable()
export class SyncRunService {
  private readonly logger = new Logger(SyncRunService.name);
  /** The customer system last written for each connector this process ran: written again only when it changes. */
  private readonly systems = new Map<string, string>();

  constructor(
    private readonly runs: SyncRunRepository,
    private readonly states: VacancyStateRepository,
    private readonly sources: VacancySources,
    private readonly directory: ConnectorDirectory,
    private readonly publisher: MessagePublisher,
    @Inject(VacancySyncConfig) private readonly config: VacancySyncConfig,
    private readonly events: EventFeedService,
    private readonly atsSystems: AtsSystems,
    private readonly registry: AtsRegistry,
  ) {}

  /** Its log lines carry the run's ids (and the correlation id of the request that started it). */
  execute(
    head: HeadRun,
    owner: string,
    shouldStop: () => boolean,
    lost: AbortSignal = new AbortController().signal,
  ): Promise<RunOutcome> {
    const ids = {
      runId: head.runId,
      connectorId: head.connectorId,
      accountId: head.accountId,
      correlationId: head.correlationId,
    };
    return withLogContext(ids, () =>
      inSpan('vacancy run', { attributes: { 'run.id': head.runId } }, () =>
        this.executeRun(head, owner, shouldStop, lost),
      ),
    );
  }

  private async executeRun(
    head: HeadRun,
    owner: string,
    shouldStop: () => boolean,
    lost: AbortSignal,
  ): Promise<RunOutcome> {
    try {
      return await this.executeHeld(head, { owner, ttlMs: this.config.RUN_LEASE_TTL_MS }, shouldStop, lost);
    } catch (error) {
      if (!(error instanceof RunLeaseLostError)) throw error;
      this.logger.warn(`${head.runId}: ${error.message}; leaving it to the lease holder`);
      return 'lease-lost';
    }
  }

  private async executeHeld(
    head: HeadRun,
    lease: RunLease,
    shouldStop: () => boolean,
    lost: AbortSignal,
  ): Promise<RunOutcome> {
    const calls = new CallCounter();
    // Counted per execution: a run parked for budget until tomorrow is not past its deadline when it resumes.
    const deadline = Date.now() + this.config.RUN_DEADLINE_MINUTES * 60_000;
    let run = head;
    let scope: RunScope | undefined;
    const caches = new Map<string, EnrichmentCache<unknown>>();
    for (;;) {
      try {
        // Past it after an inline wait: the run ends here (between pages, the checkpoint says so).
        if (Date.now() >= deadline) throw new RunDeadlineReached(this.config.RUN_DEADLINE_MINUTES);
        if (!scope) {
          const connector = await this.connectorOf(run);
          await this.learnSystem(connector);
          const made = await this.events.ensure(connector);
          // A run that has not listed yet makes a missing subscription first (a new connector's first run, one
          // switched onto events, one lost): what changes while it lists waits at the ATS for the feed.
          const feed =
            made && !run.startedAt
              ? await this.events.subscribeBeforeRun(made, connector, this.clientOptions(run, calls))
              : made;
          scope = {
            ...(feed ? { feed } : {}),
            ...(feedDown(made) ? { feedWarning: eventsUnavailableWarning(made?.reason) } : {}),
            catchUp: made?.catchUp === true && feed?.mode === 'events',
            lease,
            connector,
            lastSuccesses: head,
            mapping: mappingOf(this.registry, connector),
            options: syncOptionsOf(connector.options, this.sources.for(connector.type).defaultOpenStatuses),
            calls,
            caches,
            shouldStop,
            lost,
            progressAt: 0,
            deadline,
          };
        }
        const held = scope;
        // One of its ATS system's run slots (AtsSystems): busy or failing, the run is parked, its slot free.
        run = await this.atsSystems.run('vacancy-runs', held.connector, async () => {
          if (run.status !== 'running' || !run.mode) run = await this.start(run, held);
          if (run.phase === 'listing') run = await this.list(run, held);
          if (run.phase === 'closing') run = await this.close(run, held);
          return run;
        });
        const leaseKept = await this.complete(run, lease, 'succeeded', undefined, calls, scope);
        runMetrics.ended(scope.connector.type, 'succeeded', run.startedAt);
        return leaseKept ? 'finished' : 'done';
      } catch (error) {
        if (error instanceof RunLeaseLostError) throw error;
        if (error instanceof StopRequested) return 'stopped';
        const decision =
          error instanceof RunRefused || error instanceof SourceRefusedError
            ? ({ action: 'fail', reason: error.message, code: codeOf(error) } as const)
            : error instanceof RunDeadlineReached
              ? ({ action: 'fail', reason: error.message, code: error.code } as const)
              : decideRunFailure(error, {
                  connectorId: run.connectorId,
                  attempts: run.attempts,
                  now: new Date(),
                  inlineWaitMaxMs: this.config.RUN_INLINE_WAIT_MAX_MS,
                });
        switch (decision.action) {
          case 'wait':
            // Waiting for budget is progress, not failure: the registry shows until when.
            await this.progress(run, calls, { until: decision.until, for: decision.for }).catch(
              () => undefined,
            );
            if (decision.inline && !shouldStop()) {
              this.logger.log(
                `${run.runId}: ${decision.reason}; waiting until ${decision.until.toISOString()}`,
              );
              await sleep(Math.min(decision.until.getTime(), deadline) - Date.now(), lost);
              if (lost.aborted) throw new RunLeaseLostError(run.runId);
              run = (await this.runs.run(run.runId)) ?? run;
              continue;
            }
            this.logger.log(`${run.runId}: ${decision.reason}; paused until ${decision.until.toISOString()}`);
            await this.park(run, lease, decision.until, run.attempts, decision.reason, calls);
            runMetrics.parked(scope?.connector.type, 'budget');
            return 'parked';
          case 'retry':
            this.logger.warn(
              `${run.runId}: ${decision.reason}; retry ${decision.attempts} at ${decision.until.toISOString()}`,
            );
            await this.park(run, lease, decision.until, decision.attempts, decision.reason, calls);
            runMetrics.parked(scope?.connector.type, 'retry');
            return 'parked';
          case 'fail': {
            this.logger.error(`${run.runId}: failed: ${decision.reason}`);
            // What its pages committed (counts, warnings) before it stopped: run.completed tells what it kept.
            run = (await this.runs.run(run.runId)) ?? run;
            const leaseKept = await this.complete(run, lease, 'failed', decision, calls, scope);
            runMetrics.ended(scope?.connector.type, 'failed', run.startedAt);
            return leaseKept ? 'finished' : 'done';
          }
        }
      }
    }
  }

  private async learnSystem(connector: ConnectorSnapshot): Promise<void> {
    const system = this.sources.for(connector.type).systemOf(connector);
    if (this.systems.get(connector.id) === system) return;
    await this.runs.learnSystem(connector.id, system);
    if (this.systems.size >= MAX_SYSTEMS_KEPT) this.systems.clear();
    this.systems.set(connector.id, system);
  }

  private async connectorOf(run: SyncRun): Promise<ConnectorSnapshot> {
    let connector: ConnectorSnapshot;
    try {
      connector = await this.directory.get(run.connectorId, run.accountId);
    } catch (error) {
      if (error instanceof RpcError && error.code === 'NOT_FOUND') {
        await this.runs.deactivate(run.connectorId);
        throw new RunRefused(`connector ${run.connectorId} does not exist (any more)`);
      }
      throw error;
    }
    if (connector.status !== 'connected') {
      throw new RunRefused(`connector ${connector.id} is ${connector.status}, not connected`);
    }
    return connector;
  }

  private async start(run: SyncRun, scope: RunScope): Promise<SyncRun> {
    const decided = decideRunMode({
      connectorId: run.connectorId,
      requested: scope.catchUp ? 'full' : run.requestedMode,
      lastSuccessStartedAt: scope.lastSuccesses.lastSuccessStartedAt,
      lastFullStartedAt: scope.lastSuccesses.lastFullStartedAt,
      fullSyncEveryHours: scope.options.fullSyncEveryHours,
      now: new Date(),
    });
    const started = await this.runs.start(run.runId, scope.lease.owner, scope.lease.ttlMs, {
      mode: decided.mode,
      ...(decided.mode === 'incremental' ? { since: decided.since } : {}),
    });
    this.logger.log(
      `${run.runId}: ${started.mode} run of ${run.connectorId} from position ${started.after}` +
        (started.since ? ` (modified since ${started.since.toISOString()})` : ''),
    );
    await this.progress(started, scope.calls);
    scope.progressAt = Date.now();
    return started;
  }

  private async list(run: SyncRun, scope: RunScope): Promise<SyncRun> {
    const { connector } = scope;
    const source = this.sources.for(connector.type);
    // Whole pages ahead (listing and enrichment): the next page's calls never compete with this page's, so a
    // page the budget allows completes and commits, and a run paused by the limit resumes after it.
    const pages = readAhead(
      source.listLive(
        connector,
        {
          after: run.after,
          ...(run.since ? { since: run.since } : {}),
          openStatuses: scope.options.openStatuses,
          now: new Date(),
          caches: scope.caches,
          maxPages: this.config.RUN_MAX_PAGES,
        },
        this.clientOptions(run, scope.calls),
      ),
    );
    let current = run;
    for await (const page of pages) {
      current = await this.handlePage(current, scope, page, { after: page.after });
      checkpoint(scope, current.runId, this.config.RUN_DEADLINE_MINUTES);
    }
    // Whatever the mode, at the day's first run: what was published and whose advertising has ended since is
    // closed now (its record did not change when the day passed, so a changes-only listing does not show it).
    if (expiryCheckDue(scope.lastSuccesses.lastSuccessStartedAt, new Date())) {
      current = await this.closeExpired(current, scope);
    }
    // The listing is complete: only now may a full run close what it did not see.
    if (!mayClose({ mode: current.mode ?? 'incremental', listingComplete: true })) return current;
    await this.runs.commitStep(current.runId, scope.lease, { delta: {}, cursor: { phase: 'closing' } });
    return { ...current, phase: 'closing' };
  }

  /** The run's ATS calls: sync priority (the budget's reserve is for pushes), each counted on the run. */
  private clientOptions(run: SyncRun, calls: CallCounter): ClientOptions {
    return {
      priority: 'sync',
      maxWaitMs: this.config.RUN_INLINE_WAIT_MAX_MS,
      maxResponseBytes: this.config.ATS_MAX_RESPONSE_BYTES,
      onCall: calls.count,
      waiter: { id: `run:${run.runId}`, kind: 'run' },
    };
  }

  /**
   * One page of live vacancies and of ids not live: publishes what is new or changed and closes what is
   * published, then commits it (marks, counts, `cursor`) with the lease check.
   */
  private async handlePage(
    current: SyncRun,
    scope: RunScope,
    page: Omit<SourcePage, 'after'>,
    cursor: { after?: number },
  ): Promise<SyncRun> {
    const { connector, calls } = scope;
    const { upserts, unchanged, closing, liveUntil } = await decidePage(
      connector,
      scope.mapping,
      page,
      (ids) => this.states.published(connector.id, ids),
    );
    const diff = { upserts, unchanged };
    await Promise.all([
      ...diff.upserts.map((data) =>
        this.publish(Exchange.ConnectorEvents, current, RoutingKey.VacancyUpserted, data),
      ),
      ...closing.map((externalId) =>
        this.publish(Exchange.ConnectorEvents, current, RoutingKey.VacancyClosed, {
          connectorId: connector.id,
          externalId,
        }),
      ),
    ]);
    const apiCalls = calls.pending();
    const delta = {
      fetched: diff.upserts.length + diff.unchanged.length,
      upserted: diff.upserts.length,
      unchanged: diff.unchanged.length,
      closed: closing.length,
      read: page.read,
      apiCalls,
      ...(page.warnings && page.warnings.length > 0 ? { warnings: page.warnings } : {}),
    };
    await this.runs.commitStep(current.runId, scope.lease, {
      seen: [...diff.upserts, ...diff.unchanged],
      liveUntil,
      closed: closing,
      delta,
      cursor,
    });
    calls.markWritten(apiCalls);
    const next = withDelta(current, delta, cursor);
    // Every few seconds: a fleet's runs are mostly one quick page, whose end `run.completed` tells anyway.
    if (Date.now() - scope.progressAt >= PROGRESS_EVERY_MS) {
      await this.progress(next, calls);
      scope.progressAt = Date.now();
    }
    return next;
  }

  /**
   * Closes what the complete full listing did not see. A source that can miss a record that stayed live
   * (ATS-A: page numbers over a set that changed during the run) is asked about each batch of absent ids
   * first: those it says are live are handled like a listed page (published if changed, marked seen by this
   * run, so they are not absent any more), the others closed. The re-check's calls share the run's budget.
   */
  private async close(run: SyncRun, scope: RunScope): Promise<SyncRun> {
    const notSeen = () => this.states.notSeenBy(run.connectorId, run.runId, CLOSE_BATCH);
    const source = this.sources.for(scope.connector.type);
    if (!source.recheck) return this.closeAll(run, scope, notSeen);
    let current = run;
    let kept = 0;
    for (;;) {
      const absent = await notSeen();
      if (absent.length === 0) break;
      const page = await source.recheck(
        scope.connector,
        absent,
        { openStatuses: scope.options.openStatuses, now: new Date(), caches: scope.caches },
        this.clientOptions(run, scope.calls),
      );
      const before = current.counts;
      // Records read stay the listing's (what the run's NOTHING_LIVE warning speaks of).
      current = await this.handlePage(current, scope, { ...page, read: 0 }, {});
      const saved = current.counts.fetched - before.fetched;
      if (saved > 0) {
        kept += saved;
        runMetrics.keptByRecheck(scope.connector.type, saved);
      }
      checkpoint(scope, current.runId, this.config.RUN_DEADLINE_MINUTES);
    }
    if (kept > 0) {
      this.logger.log(`${run.runId}: kept ${kept} vacancies the listing missed but the ATS still has live`);
    }
    return current;
  }

  private async closeExpired(run: SyncRun, scope: RunScope): Promise<SyncRun> {
    const today = new Date().toISOString().slice(0, 10);
    return this.closeAll(run, scope, () => this.states.expired(run.connectorId, today, CLOSE_BATCH));
  }

  /** Closes batch after batch of what `next` finds, each batch published and then committed with the lease. */
  private async closeAll(run: SyncRun, scope: RunScope, next: () => Promise<string[]>): Promise<SyncRun> {
    let current = run;
    for (;;) {
      const gone = await next();
      if (gone.length === 0) return current;
      await Promise.all(
        gone.map((externalId) =>
          this.publish(Exchange.ConnectorEvents, current, RoutingKey.VacancyClosed, {
            connectorId: run.connectorId,
            externalId,
          }),
        ),
      );
      await this.runs.commitStep(run.runId, scope.lease, { closed: gone, delta: { closed: gone.length } });
      current = withDelta(current, { closed: gone.length });
      checkpoint(scope, current.runId, this.config.RUN_DEADLINE_MINUTES);
    }
  }

  private async complete(
    run: SyncRun,
    lease: RunLease,
    status: 'succeeded' | 'failed',
    failure: { reason: string; code?: string } | undefined,
    calls: CallCounter,
    scope: Pick<RunScope, 'options' | 'feed' | 'feedWarning' | 'connector'> | undefined,
  ): Promise<boolean> {
    const error = failure?.reason;
    const options = scope?.options;
    // The event feed was down when the run began (it may have made it again since): the admin is told so.
    const feedWarnings = scope?.feedWarning ? [scope.feedWarning] : [];
    // A failed run says why in the same words an admin reads warnings in (run.completed has no error field):
    // under the limit's own code when it hit one (RUN_PAGE_LIMIT…), else RUN_FAILED.
    const warnings =
      status === 'succeeded'
        ? [...runWarnings(run), ...feedWarnings]
        : [
            ...run.warnings,
            ...feedWarnings,
            { code: failure?.code ?? 'RUN_FAILED', message: error ?? 'the run failed' },
          ];
    const data: RunCompletedDto = {
      connectorId: run.connectorId,
      runId: run.runId,
      status,
      counts: run.counts,
      apiCalls: run.apiCalls + calls.pending(),
      ...(warnings.length > 0 ? { warnings } : {}),
    };
    const pending = calls.pending();
    // Announced inside the lease check, before the end is committed: a process that lost the lease says nothing.
    const ended = await this.runs.finish(
      run,
      lease,
      status,
      error,
      pending,
      // While the event feed is healthy the run is the safety net: it may come less often.
      options
        ? {
            intervalSeconds: Math.round(
              runIntervalMinutes(options.syncIntervalMinutes, scope?.feed?.mode) * 60,
            ),
            ...(scope?.connector.version !== undefined ? { optionsVersion: scope.connector.version } : {}),
          }
        : undefined,
      (nextRunAt) =>
        this.publish(Exchange.ConnectorEvents, run, RoutingKey.RunCompleted, {
          ...data,
          ...(nextRunAt ? { nextRunAt: nextRunAt.toISOString() } : {}),
        }),
    );
    calls.markWritten(pending);
    this.logger.log(
      `${run.runId}: ${status} ${JSON.stringify(run.counts)} apiCalls=${data.apiCalls}${error ? `: ${error}` : ''}` +
        (warnings.length > 0 ? ` warnings=${warnings.map((w) => w.code).join(',')}` : ''),
    );
    return ended.leaseKept;
  }

  private async park(
    run: SyncRun,
    lease: RunLease,
    until: Date,
    attempts: number,
    reason: string,
    calls: CallCounter,
  ): Promise<void> {
    const pending = calls.pending();
    await this.runs.pause(run.runId, lease, { resumeAt: until, attempts, error: reason, apiCalls: pending });
    calls.markWritten(pending);
  }

  private async progress(
    run: SyncRun,
    calls: CallCounter,
    waiting?: { until: Date; for: RunWait },
  ): Promise<void> {
    const data: RunProgressDto = {
      connectorId: run.connectorId,
      runId: run.runId,
      status: 'running',
      fetched: run.counts.fetched,
      upserted: run.counts.upserted,
      unchanged: run.counts.unchanged,
      apiCalls: run.apiCalls + calls.pending(),
      ...(run.mode ? { mode: run.mode } : {}),
      ...(waiting ? { waitingUntil: waiting.until.toISOString(), waitingFor: waiting.for } : {}),
    };
    await this.publish(Exchange.Internal, run, RoutingKey.RunProgress, data);
  }

  private publish(exchange: string, run: SyncRun, type: string, data: object): Promise<void> {
    const event: EventEnvelope = createEvent(type, run.accountId, data, {
      ...(run.correlationId ? { correlationId: run.correlationId } : {}),
    });
    return this.publisher.publish(exchange, event);
  }
}

/** The connector's mapping; a mapping that does not validate fails the run rather than publish guesses. */
function mappingOf(registry: AtsRegistry, connector: ConnectorSnapshot): JobMapping {
  const errors = validateJobMapping(registry.get(connector.type).mapping, connector.mapping?.mapping);
  if (errors.length > 0) {
    throw new RunRefused(`connector ${connector.id}: job mapping is not valid: ${errors.join('; ')}`);
  }
  return connector.mapping.mapping as unknown as JobMapping;
}

function withDelta(run: SyncRun, delta: RunDelta, cursor: { after?: number } = {}): SyncRun {
  return {
    ...run,
    after: cursor.after ?? run.after,
    attempts: 0,
    apiCalls: run.apiCalls + (delta.apiCalls ?? 0),
    read: run.read + (delta.read ?? 0),
    warnings: [...run.warnings, ...(delta.warnings ?? [])],
    counts: {
      fetched: run.counts.fetched + (delta.fetched ?? 0),
      upserted: run.counts.upserted + (delta.upserted ?? 0),
      unchanged: run.counts.unchanged + (delta.unchanged ?? 0),
      closed: run.counts.closed + (delta.closed ?? 0),
    },
  };
}

/** Between steps: stop when the lease is lost (nothing more may change), when asked to, or at the deadline. */
function checkpoint(scope: RunScope, runId: string, deadlineMinutes: number): void {
  if (scope.lost.aborted) throw new RunLeaseLostError(runId);
  if (scope.shouldStop()) throw new StopRequested();
  if (Date.now() >= scope.deadline) throw new RunDeadlineReached(deadlineMinutes);
}

/** The stable code a source gave its refusal (RUN_PAGE_LIMIT), if any. */
function codeOf(error: Error): string | undefined {
  return error instanceof SourceRefusedError ? error.code : undefined;
}

/** Sleeps, or less when `lost` aborts. */
function sleep(ms: number, lost: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, Math.max(0, ms));
    function done() {
      clearTimeout(timer);
      lost.removeEventListener('abort', done);
      resolve();
    }
    lost.addEventListener('abort', done);
  });
}
