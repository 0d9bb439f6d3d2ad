import { Inject, Injectable } from '@nestjs/common';
import { atsAQuota } from '@connector/ats-a';
import type { PostgresDailyQuota } from '@connector/rate-limiter';
import type { AdminIdentity } from '../auth/api-keys';
import { RegistryErrorCode, RegistryException } from '../common/registry.exception';
import type { ConnectorEntity } from '../connectors/connector.entity';
import { ConnectorRepository } from '../repositories/connector.repository';
import { type BudgetView, toBudgetView } from './budget.view';

export const REGISTRY_QUOTA = Symbol('REGISTRY_QUOTA');

/** The ATS-A daily budget as operators see and steer it: the planner's shared row, read and changed here. */
@Injectable()
export class BudgetService {
  constructor(
    private readonly connectors: ConnectorRepository,
    @Inject(REGISTRY_QUOTA) private readonly quota: PostgresDailyQuota,
  ) {}

  async get(admin: AdminIdentity, id: string): Promise<BudgetView> {
    const connector = await this.connectors.findOwned(admin.accountId, id);
    if (!connector) throw RegistryException.notFound();
    if (connector.type !== 'ats-a') {
      throw new RegistryException(
        RegistryErrorCode.NotAtsA,
        'only ATS-A connectors have a daily call budget (ATS-B limits calls per minute)',
      );
    }
    const { key, config } = atsAQuota(connector);
    return toBudgetView(
      connector.id,
      String(connector.config['baseUrl']),
      await this.quota.snapshot(key, config),
    );
  }

  /** An operator changed the daily limit: the plan of every worker follows at once. */
  async limitChanged(connector: ConnectorEntity): Promise<void> {
    if (connector.type !== 'ats-a') return;
    const { key, config } = atsAQuota(connector);
    await this.quota.setLimit(key, config.limit);
  }
}
