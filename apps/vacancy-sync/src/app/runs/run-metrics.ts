import { counter, gauge, histogram } from '@connector/observability';

const runs = counter({
  name: 'connector_vacancy_runs_total',
  help: 'Vacancy runs that ended, by ATS and outcome (succeeded, failed)',
  labelNames: ['ats', 'outcome'],
});
const runDuration = histogram({
  name: 'connector_vacancy_run_duration_seconds',
  help: 'Time from a vacancy run starting to its end (waits for budget included), by ATS and outcome',
  labelNames: ['ats', 'outcome'],
  buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 14400, 86400],
});
const runParks = counter({
  name: 'connector_vacancy_run_parks_total',
  help: 'Vacancy runs set aside to go on later, by ATS and reason (budget: waiting for ATS budget; retry: after a failure)',
  labelNames: ['ats', 'reason'],
});
const keptByRecheck = counter({
  name: 'connector_vacancy_recheck_kept_total',
  help: 'Published vacancies a complete full listing did not see but that the ATS, asked again by id, still has live: kept instead of closed, by ATS',
  labelNames: ['ats'],
});

export const runMetrics = {
  ended(ats: string | undefined, outcome: 'succeeded' | 'failed', startedAt: Date | undefined): void {
    const labels = { ats: ats ?? 'unknown', outcome };
    runs.inc(labels);
    if (startedAt) runDuration.observe(labels, Math.max(0, Date.now() - startedAt.getTime()) / 1000);
  },
  parked(ats: string | undefined, reason: 'budget' | 'retry'): void {
    runParks.inc({ ats: ats ?? 'unknown', reason });
  },
  keptByRecheck(ats: string, n: number): void {
    keptByRecheck.inc({ ats }, n);
  },
};

const lag = histogram({
  name: 'connector_sync_lag_seconds',
  help: 'How late scheduled vacancy runs started: start minus the time they were due (a first sync: since the connector connected)',
  buckets: [0.5, 1, 2, 5, 10, 30, 60, 120, 300, 900, 3600],
});
const scheduledRuns = counter({
  name: 'connector_sync_scheduled_runs_total',
  help: "Scheduled vacancy runs started, by lateness: within_interval, or over_interval (later than their connector's sync interval: a run was skipped)",
  labelNames: ['lateness'],
});
let countDue: (() => Promise<number>) | undefined;
const due = gauge({
  name: 'connector_sync_due_connectors',
  help: 'Connectors whose scheduled vacancy run is due and not started, fleet-wide (every process reports the same count: aggregate with max)',
  async collect() {
    if (countDue) due.set(await countDue());
  },
});

export const scheduleMetrics = {
  /** A scheduled run was claimed to start now. */
  started(run: { scheduledAt: Date; startedAt: Date; intervalSeconds: number }): void {
    const late = Math.max(0, run.startedAt.getTime() - run.scheduledAt.getTime()) / 1000;
    lag.observe(late);
    scheduledRuns.inc({ lateness: late > run.intervalSeconds ? 'over_interval' : 'within_interval' });
  },
  countDueWith(count: () => Promise<number>): void {
    countDue = count;
  },
};
