import { counter, histogram } from '@connector/observability';

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
