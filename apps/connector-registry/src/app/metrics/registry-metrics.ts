import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { AtsRegistry } from '@connector/ats-core';
import { CONNECTOR_STATUSES } from '@connector/contracts';
import { gauge } from '@connector/observability';
import { PostgresDailyQuota, type QuotaUsage } from '@connector/rate-limiter';
import { ConnectorRepository } from '../repositories/connector.repository';

/** The process's readers (the registry runs one; a test may start several, the latest answers). */
const readers = new Set<RegistryMetrics>();
const reader = (): RegistryMetrics | undefined => [...readers].at(-1);

const connectors = gauge({
  name: 'connector_connectors',
  help: 'Connectors by ATS and status (pending_authorization, connected, auth_failed, disabled), deleted ones left out',
  labelNames: ['ats', 'status'],
  async collect() {
    const metrics = reader();
    const counts = await metrics?.connectorCounts();
    connectors.reset();
    if (!metrics || !counts) return;
    for (const ats of metrics.registry.types()) {
      for (const status of CONNECTOR_STATUSES)
        connectors.set({ ats, status }, counts.get(`${ats}/${status}`) ?? 0);
    }
  },
});

/** How a customer system's day stands (an ATS with a daily budget): a label with four values, however many customers there are. */
export const BUDGET_STATES = ['available', 'low', 'exhausted', 'paused'] as const;
type BudgetState = (typeof BUDGET_STATES)[number];
type GaugeOf<L extends string> = ReturnType<typeof gauge<L>>;

/** Below this share of its limit left, a system's budget is `low`. */
const LOW_SHARE = 0.1;
/** Used up this long before the reset, a system's day is lost for most of its work (the alert's rule). */
const EARLY_MS = 6 * 3_600_000;

export function budgetStateOf(usage: QuotaUsage): BudgetState {
  if (usage.paused) return 'paused';
  const left = usage.limit - usage.used;
  if (left <= 0) return 'exhausted';
  return left < usage.limit * LOW_SHARE ? 'low' : 'available';
}

/** No calls left (used up, or paused by a 429) more than 6 hours before the day resets. */
export function exhaustedEarly(usage: QuotaUsage, now: number): boolean {
  const state = budgetStateOf(usage);
  return (state === 'exhausted' || state === 'paused') && usage.resetAt - now > EARLY_MS;
}

/**
 * A gauge over every customer system's day, from the one read of the quota table a scrape makes. Never
 * labelled by the system (its address): a series per customer would grow with the fleet. Which system it is
 * the admin API says (`GET /connectors/{id}/budget`).
 */
function budgetGauge<L extends string>(
  name: string,
  help: string,
  labelNames: readonly L[],
  record: (metric: GaugeOf<L>, usage: QuotaUsage[], now: number) => void,
) {
  const metric: GaugeOf<L> = gauge({
    name,
    help,
    labelNames,
    async collect() {
      const usage = await reader()?.budgetUsage();
      metric.reset();
      if (usage) record(metric, usage, Date.now());
    },
  });
  return metric;
}

budgetGauge(
  'connector_ats_budget_systems',
  'Customer systems on a daily call budget by the state of their day: available, low (under a tenth of the limit left), exhausted, paused (a 429)',
  ['state'],
  (metric, usage) => {
    for (const state of BUDGET_STATES)
      metric.set({ state }, usage.filter((u) => budgetStateOf(u) === state).length);
  },
);
budgetGauge(
  'connector_ats_budget_exhausted_early_systems',
  'Customer systems on a daily call budget with no calls left (used up or paused) more than 6 hours before their day resets',
  [],
  (metric, usage, now) => metric.set(usage.filter((u) => exhaustedEarly(u, now)).length),
);
budgetGauge(
  'connector_ats_budget_used_calls',
  "Calls used in the daily-budget customer systems' current days, everyone's as the ATS counts them, summed over all systems",
  [],
  (metric, usage) => metric.set(usage.reduce((sum, u) => sum + u.used, 0)),
);
budgetGauge(
  'connector_ats_budget_limit_calls',
  "Calls allowed in the daily-budget customer systems' days (each the lower of the configured and the ATS's limit), summed",
  [],
  (metric, usage) => metric.set(usage.reduce((sum, u) => sum + u.limit, 0)),
);

/**
 * The registry's gauges, read from Postgres when /metrics is scraped: connectors per status (an alert
 * watches auth_failed) and the customer systems' daily budgets (the planner's shared table), counted
 * and summed, never one series per system.
 */
@Injectable()
export class RegistryMetrics implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(RegistryMetrics.name);
  private readonly quota: PostgresDailyQuota;
  private usage?: { at: number; rows: Promise<QuotaUsage[]> };

  constructor(
    private readonly repository: ConnectorRepository,
    @InjectDataSource() dataSource: DataSource,
    /** The ATSs counted, each with a series per status even at zero. */
    readonly registry: AtsRegistry,
  ) {
    this.quota = new PostgresDailyQuota(dataSource);
  }

  onModuleInit(): void {
    readers.add(this);
  }

  onModuleDestroy(): void {
    readers.delete(this);
  }

  /** `type/status` → count; undefined when the database does not answer (the gauge is left empty). */
  async connectorCounts(): Promise<Map<string, number> | undefined> {
    try {
      const rows = await this.repository.countByTypeAndStatus();
      return new Map(rows.map((row) => [`${row.type}/${row.status}`, row.count]));
    } catch (error) {
      this.logger.warn(`connector counts for /metrics: ${(error as Error).message}`);
      return undefined;
    }
  }

  budgetUsage(): Promise<QuotaUsage[]> {
    if (!this.usage || Date.now() - this.usage.at > 1_000) {
      const rows = this.quota.usage().catch((error: unknown) => {
        this.logger.warn(`ATS budgets for /metrics: ${(error as Error).message}`);
        return [];
      });
      this.usage = { at: Date.now(), rows };
    }
    return this.usage.rows;
  }
}
