import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { VACANCY_STATUSES } from '@connector/ats-a-sandbox';
import { atsAVacancyLiveness } from '@connector/ats-a';
import { RoutingKey } from '@connector/contracts';
import type { BurstPublisher, OutgoingMessage } from './burst-publisher';
import { CHAOS_LOG_ROOT, ChaosStack, WORKERS, type WorkerName } from './chaos-stack';
import { type Expectation, runExpectation, vacancyExpectation } from './expectations';
import type { FaultContext } from './faults';
import { type Outcome, Progress } from './progress';
import type { Scenario } from './scenarios';
import { SeededRandom } from './seeded-random';
import { buildBurst } from './workload';

export interface RunOptions {
  seed: number;
  /** About how many platform events the burst holds. */
  events: number;
  /** Workers to start (each twice); default every worker. The scenario's own needs are always added. */
  workers?: readonly WorkerName[];
  replicas?: number;
  logLevel?: string;
  /** Events published per second. */
  rate?: number;
  /** How long after the last fault ended everything must have settled. */
  settleTimeoutMs?: number;
  log?: (line: string) => void;
}

export interface ScenarioResult {
  scenario: string;
  seed: number;
  events: number;
  faults: string[];
  /** Effects neither in the ATS (or as the contract's answer) nor in the failure log at the end. */
  lost: number;
  /** Copies beyond the first in an ATS. */
  duplicated: number;
  /** Effects of valid events that ended in the failure log with their reason (allowed, reported). */
  failureLog: number;
  /**
   * From the end of the last fault until every effect had settled, and until every process answered
   * /health with 200 (null: not within the time allowed, or no fault).
   */
  recovery: { settledMs: number | null; healthyMs: number | null };
  violations: string[];
  notes: string[];
  lostLabels: string[];
  duplicatedLabels: string[];
  passed: boolean;
  logDir: string;
}

const QUIET_MS = 3_000;

/**
 * One scenario: its own world, a burst of real work, the faults injected mid-flight, then the invariants
 * checked from outside (what the ATSs hold, what was published, what the failure log holds).
 */
export async function runScenario(scenario: Scenario, options: RunOptions): Promise<ScenarioResult> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const began = Date.now();
  const say = (line: string) =>
    log(`[${scenario.name} +${((Date.now() - began) / 1000).toFixed(1)}s] ${line}`);
  const random = new SeededRandom(options.seed).fork(scenario.name);
  const workers = WORKERS.filter(
    (w) => (options.workers ?? WORKERS).includes(w) || scenario.needs.includes(w),
  );
  const logDir = join(CHAOS_LOG_ROOT, `${scenario.name}-${options.seed}`);

  say(`starting ${workers.join(', ')}, auth-gateway (×${options.replicas ?? 2}) and connector-registry`);
  const stack = await ChaosStack.start({
    name: scenario.name,
    random: random.fork('stack'),
    workers,
    replicas: options.replicas ?? 2,
    logLevel: options.logLevel ?? 'warn',
    atsA: { vacancies: 300, ...scenario.stack?.atsA },
    atsB: { jobs: 200, ...scenario.stack?.atsB },
  });
  const progress = new Progress(stack);
  const violations: string[] = [];
  const notes: string[] = [];
  let faultEnd: number | undefined;
  let settledAt: number | undefined;
  let healthyAt: number | undefined;
  let events = 0;
  try {
    const burst = workers.includes('candidate-sync')
      ? buildBurst(random.fork('burst'), {
          events: options.events,
          accountId: stack.accountId,
          connectors: stack.connectors,
          applications: true,
          documents: workers.includes('document-service'),
          atsAVacancies: Math.min(stack.options.atsA.vacancies, 300),
          atsBJobs: stack.options.atsB.jobs,
          files: stack.files,
          tag: `chaos${options.seed}`,
        })
      : { messages: [], expectations: [], counts: {} };
    events = burst.messages.length;
    progress.add(burst.expectations);
    const runs = workers.includes('vacancy-sync') ? await requestRuns(stack, progress) : {};
    progress.start();
    say(`running; burst: ${JSON.stringify(burst.counts)}${runs.atsA ? ', a vacancy run per connector' : ''}`);

    const publishing = publishPaced(stack.publisher, burst.messages, options.rate ?? 30);
    const context: FaultContext = {
      stack,
      random: random.fork('faults'),
      progress,
      runs,
      log: say,
      note: (line) => notes.push(line),
    };
    const stopBackground = scenario.background?.(context);
    for (const step of scenario.faults) {
      await progress.until(step.at, 180_000);
      try {
        faultEnd = (await step.inject(context)) ?? Date.now();
      } catch (error) {
        violations.push(`${step.label} could not be injected: ${(error as Error).message}`);
        faultEnd = Date.now();
      }
    }
    await stopBackground?.();
    await publishing;
    say(
      `burst published${faultEnd ? `; faults over ${((Date.now() - faultEnd) / 1000).toFixed(1)} s ago` : ''}`,
    );

    const deadline = Date.now() + (options.settleTimeoutMs ?? 180_000);
    while ((settledAt === undefined || healthyAt === undefined) && Date.now() < deadline) {
      const summary = await progress.poll();
      if (settledAt === undefined && summary.pending === 0) settledAt = Date.now();
      if (healthyAt === undefined && (await stack.healthy())) healthyAt = Date.now();
      await sleep(250);
    }
    await progress.stop();
    // Late copies (a write still in flight when everything looked done) would show up now.
    await sleep(QUIET_MS);
    const final = await progress.poll();
    say(`settled: ${JSON.stringify(final)}`);

    const lost = progress.outcomes.filter((o) => o.verdict.state === 'pending');
    const duplicated = progress.outcomes.filter((o) => o.verdict.duplicates > 0);
    const failed = progress.outcomes.filter((o) => o.verdict.state === 'failed');
    if (lost.length > 0) violations.push(`${lost.length} effects lost`);
    if (final.duplicates > 0) violations.push(`${final.duplicates} duplicated effects`);
    if (settledAt === undefined) violations.push('not settled within the time allowed');
    if (healthyAt === undefined) violations.push('not healthy within the time allowed');
    violations.push(...(await authorizationViolations(stack)));
    notes.push(...describeRun(stack, failed));

    return {
      scenario: scenario.name,
      seed: options.seed,
      events,
      faults: scenario.faults.map((f) => f.label),
      lost: lost.length,
      duplicated: final.duplicates,
      failureLog: failed.length,
      recovery: {
        settledMs: since(faultEnd, settledAt),
        healthyMs: since(faultEnd, healthyAt),
      },
      violations,
      notes,
      lostLabels: lost.map((o) => o.expectation.label),
      duplicatedLabels: duplicated.map((o) => `${o.expectation.label} (×${o.verdict.duplicates + 1})`),
      passed: violations.length === 0,
      logDir,
    };
  } finally {
    await progress.stop();
    stack.saveLogs(logDir);
    await stack.stop();
  }
}

/** Milliseconds from `from` to `to`; 0 when `to` came first (already settled when the fault ended). */
function since(from: number | undefined, to: number | undefined): number | null {
  return from === undefined || to === undefined ? null : Math.max(0, to - from);
}

/** The row of a scenario the harness could not run to its end (set-up failed, a service never started). */
export function harnessFailure(scenario: Scenario, seed: number, error: unknown): ScenarioResult {
  return {
    scenario: scenario.name,
    seed,
    events: 0,
    faults: scenario.faults.map((f) => f.label),
    lost: 0,
    duplicated: 0,
    failureLog: 0,
    recovery: { settledMs: null, healthyMs: null },
    violations: [`could not run: ${(error as Error).message.split('\n')[0]}`],
    notes: [],
    lostLabels: [],
    duplicatedLabels: [],
    passed: false,
    logDir: join(CHAOS_LOG_ROOT, `${scenario.name}-${seed}`),
  };
}

async function publishPaced(publisher: BurstPublisher, messages: OutgoingMessage[], perSecond: number) {
  const start = Date.now();
  for (let i = 0; i < messages.length; i++) {
    const wait = start + (i * 1000) / perSecond - Date.now();
    if (wait > 0) await sleep(wait);
    await publisher.publish(messages[i]);
  }
}

/** A run per connector, requested as an admin does; every live vacancy must be published by it. */
async function requestRuns(stack: ChaosStack, progress: Progress): Promise<FaultContext['runs']> {
  const runs: FaultContext['runs'] = {};
  const expectations: Expectation[] = [];
  const now = new Date();
  const openIds = VACANCY_STATUSES.filter((s) => ['Open', 'Live'].includes(s.Description)).map((s) => s.Id);
  const live = {
    atsA: [] as string[],
    atsB: [] as string[],
  };
  for (let id = 1; id <= stack.atsA.state.vacancyCount(); id++) {
    const vacancy = stack.atsA.state.getVacancy(id);
    if (vacancy && atsAVacancyLiveness(vacancy, openIds, now).live) live.atsA.push(String(id));
  }
  for (let id = 1; id <= stack.atsB.state.jobs.size; id++) {
    const job = stack.atsB.state.job(id);
    if (job && job.isOpen && job.isPublic === 1 && !job.isDeleted) live.atsB.push(String(id));
  }
  for (const ats of ['atsA', 'atsB'] as const) {
    const connectorId = stack.connectors[ats];
    // A connector's first run starts when it is connected; otherwise this starts one.
    const answer = await stack.admin('POST', `/connectors/${connectorId}/runs`);
    const runId =
      answer.status === 202
        ? String(answer.body.runId)
        : answer.status === 409
          ? String((answer.body.details as { runId?: string } | undefined)?.runId)
          : undefined;
    if (!runId) throw new Error(`no run of ${connectorId}: ${answer.status} ${answer.text}`);
    runs[ats] = runId;
    const name = ats === 'atsA' ? 'ATS-A' : 'ATS-B';
    expectations.push(runExpectation({ label: `vacancy run of ${name}`, runId }));
    for (const externalId of live[ats])
      expectations.push(
        vacancyExpectation({
          label: `${name} vacancy ${externalId} published`,
          connectorId,
          externalId,
          runId,
        }),
      );
  }
  progress.add(expectations, { trigger: false });
  return runs;
}

/** No refresh token spent twice, none refused, no connector left needing a new login. */
async function authorizationViolations(stack: ChaosStack): Promise<string[]> {
  const violations: string[] = [];
  const reused = stack.refreshTokens.reused();
  if (reused > 0) violations.push(`${reused} ATS-B refresh tokens presented more than once`);
  const refused = stack.refreshTokens.refused();
  if (refused > 0) violations.push(`${refused} ATS-B refreshes refused`);
  const statuses = await stack.connectorStatuses();
  for (const [id, status] of Object.entries(statuses))
    if (status !== 'connected') violations.push(`connector ${id} is ${status}`);
  const lockedOut = stack.recorder
    .ofType(RoutingKey.ConnectorStatusChanged)
    .filter((e) => e.data.status === 'auth_failed').length;
  if (lockedOut > 0) violations.push(`${lockedOut} connector.status_changed auth_failed published`);
  return violations;
}

function describeRun(stack: ChaosStack, failed: readonly Outcome[]): string[] {
  const notes: string[] = [];
  if (failed.length > 0) {
    // One entry per kind of reason: ids are left out.
    const reasons = [
      ...new Set(
        failed.map((o) =>
          (o.verdict.reason ?? 'no reason')
            .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>')
            .replace(/chaos\d+-[a-z]\d+/g, '<id>'),
        ),
      ),
    ];
    notes.push(
      `${failed.length} in the failure log: ${reasons
        .slice(0, 3)
        .map((r) => `“${r.length > 120 ? `${r.slice(0, 117)}…` : r}”`)
        .join(', ')}`,
    );
  }
  const refreshes = stack.refreshTokens.attempts.length;
  if (refreshes > 0)
    notes.push(
      `${refreshes} ATS-B refresh tokens spent${stack.refreshTokens.reused() === 0 ? ', none twice' : ''}`,
    );
  if (stack.publisher.republished > 0)
    notes.push(`${stack.publisher.republished} publishes repeated until the broker confirmed`);
  const upserts = stack.recorder.ofType(RoutingKey.VacancyUpserted);
  const distinct = new Set(upserts.map((e) => `${String(e.data.connectorId)}:${String(e.data.externalId)}`));
  if (upserts.length > distinct.size)
    notes.push(`${upserts.length - distinct.size} vacancy.upserted published again (at least once)`);
  const resets = [stack.proxies.atsA, stack.proxies.atsBData].reduce(
    (sum, p) => sum + p.stats.resetBeforeForward + p.stats.resetAfterAnswer,
    0,
  );
  if (resets > 0) notes.push(`${resets} connections reset`);
  return notes;
}
