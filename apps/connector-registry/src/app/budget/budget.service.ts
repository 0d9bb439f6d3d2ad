import { Inject, Injectable } from '@nestjs/common';
import { AtsRegistry } from '@connector/ats-core';
import type { PostgresDailyQuota } from '@connector/rate-limiter';
import type { AdminIdentity } from '../auth/api-keys';
import { RegistryErrorCode, RegistryException } from '../common/registry.exception';
import type { ConnectorEntity } from '../connectors/connector.entity';
import type { RunEntity } from '../runs/run.entity';
import { ConnectorRepository } from '../repositories/connector.repository';
import { RunRepository } from '../repositories/run.repository';
import { type BudgetView, toBudgetView } from './budget.view';

export const REGISTRY_QUOTA = Symbol('REGISTRY_QUOTA');

/** The ATS-A daily budget as operators see and steer it: the planner's shared row, read and changed here. */
@Injectable()
export class BudgetService {
  constructor(
    private readonly connectors: ConnectorRepository,
    @Inject(REGISTRY_QUOTA) private readonly quota: PostgresDailyQuota,
    private readonly runs: RunRepository,
    private readonly registry: AtsRegistry,
  ) {}

  async get(admin: AdminIdentity, id: string): Promise<BudgetView> {
    const connector = await this.connectors.findOwned(admin.accountId, id);
    if (!connector) throw RegistryException.notFound();
    const budget = this.dailyQuotaOf(connector);
    if (!budget) {
      throw new RegistryException(
        RegistryErrorCode.NoDailyBudget,
        `only connectors of an ATS with a daily call budget have one (${connector.type} has none)`,
      );
    }
    const { key, config } = budget;
    const [plan, latest] = await Promise.all([
      this.quota.snapshot(key, config),
      this.runs.latest([connector.id]),
    ]);
    return toBudgetView(
      connector.id,
      String(connector.config['baseUrl']),
      plan,
      atsWaitOf(latest.get(connector.id)),
    );
  }

  /** An operator changed the daily limit: the plan of every worker follows at once. */
  async limitChanged(connector: ConnectorEntity): Promise<void> {
    const budget = this.dailyQuotaOf(connector);
    if (budget) await this.quota.setLimit(budget.key, budget.config.limit);
  }

  /** The connector's daily quota when its ATS's budget is one (ATS-A's), as its adapter keys and sizes it. */
  private dailyQuotaOf(connector: ConnectorEntity) {
    const budget = this.registry.has(connector.type)
      ? this.registry.get(connector.type).budget?.(connector)
      : undefined;
    return budget?.kind === 'daily-quota' ? budget : undefined;
  }
}

/** When the connector's run waits for its ATS system (slow, busy or failing), not for budget: until when. */
function atsWaitOf(run: RunEntity | undefined): Date | undefined {
  if (run?.status !== 'running' || run.waitingFor !== 'ats' || !run.waitingUntil) return undefined;
  return run.waitingUntil;
}
