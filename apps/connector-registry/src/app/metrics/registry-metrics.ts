import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ATS_TYPES, CONNECTOR_STATUSES } from '@connector/contracts';
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
    const counts = await reader()?.connectorCounts();
    connectors.reset();
    if (!counts) return;
    for (const ats of ATS_TYPES) {
      for (const status of CONNECTOR_STATUSES)
        connectors.set({ ats, status }, counts.get(`${ats}/${status}`) ?? 0);
    }
  },
});

/** One read of the quota table per scrape, shared by the budget gauges. */
function budgetGauge(name: string, help: string, valueOf: (usage: QuotaUsage) => number) {
  const metric = gauge({
    name,
    help,
    labelNames: ['customer'],
    async collect() {
      const usage = (await reader()?.budgetUsage()) ?? [];
      metric.reset();
      for (const entry of usage) metric.set({ customer: entry.key.replace(/^ats-a:/, '') }, valueOf(entry));
    },
  });
  return metric;
}

budgetGauge(
  'connector_ats_budget_used_calls',
  "ATS-A calls used in the customer system's current day, everyone's as the ATS counts them, per customer address",
  (u) => u.used,
);
budgetGauge(
  'connector_ats_budget_limit_calls',
  "ATS-A calls allowed in the customer system's day (the lower of the configured and the ATS's limit)",
  (u) => u.limit,
);
budgetGauge(
  'connector_ats_budget_remaining_calls',
  "ATS-A calls left in the customer system's current day (0 while a 429 pauses it)",
  (u) => (u.paused ? 0 : Math.max(0, u.limit - u.used)),
);
budgetGauge(
  'connector_ats_budget_reset_timestamp_seconds',
  "When the customer system's ATS-A day resets (Unix time)",
  (u) => Math.round(u.resetAt / 1000),
);

/**
 * The registry's gauges, read from Postgres when /metrics is scraped: connectors per status (an alert
 * watches auth_failed) and each ATS-A customer system's daily budget (the planner's shared table).
 */
@Injectable()
export class RegistryMetrics implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(RegistryMetrics.name);
  private readonly quota: PostgresDailyQuota;
  private usage?: { at: number; rows: Promise<QuotaUsage[]> };

  constructor(
    private readonly repository: ConnectorRepository,
    @InjectDataSource() dataSource: DataSource,
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
