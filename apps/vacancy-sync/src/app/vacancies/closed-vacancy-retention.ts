import type { RetentionRule } from '@connector/persistence';

/**
 * The states of vacancies closed more than `keepDays` ago (`updated_at` moves when liveness changes): without
 * it `vacancy_state` keeps every vacancy a customer ever advertised. A vacancy that comes back live later is
 * published again, as it would be had its state been kept (a closed one is always published again).
 */
export function closedVacancyRetention(keepDays: number): RetentionRule {
  return {
    name: `vacancies closed more than ${keepDays} days ago`,
    table: 'vacancy_state',
    where: `NOT "live" AND "updated_at" < $1`,
    keepDays,
  };
}
