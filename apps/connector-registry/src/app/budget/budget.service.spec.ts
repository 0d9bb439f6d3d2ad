import type { PostgresDailyQuota } from '@connector/rate-limiter';
import { RegistryErrorCode } from '../common/registry.exception';
import type { ConnectorEntity } from '../connectors/connector.entity';
import type { ConnectorRepository } from '../repositories/connector.repository';
import { BudgetService } from './budget.service';

describe(BudgetService.name, () => {
  const connector = (type: string, options: Record<string, unknown> = {}) =>
    ({
      id: 'c1',
      accountId: 'acct_1',
      type,
      config: { baseUrl: 'https://ats.example.com/api/' },
      options,
    }) as unknown as ConnectorEntity;
  const quota = { snapshot: jest.fn(), setLimit: jest.fn(async () => undefined) };
  const sutFor = (entity: ConnectorEntity) =>
    new BudgetService(
      { findOwned: async () => entity } as unknown as ConnectorRepository,
      quota as unknown as PostgresDailyQuota,
    );
  const admin = { accountId: 'acct_1' } as never;

  beforeEach(() => jest.clearAllMocks());

  it("sets the limit on the daily quota row the adapter keys (the account's, on the customer system)", async () => {
    await sutFor(connector('ats-a')).limitChanged(connector('ats-a', { dailyCallLimit: 500 }));
    expect(quota.setLimit).toHaveBeenCalledWith('ats-a:acct_1:https://ats.example.com', 500);
  });

  it('leaves an ATS whose budget is not a daily quota alone, and says it has none', async () => {
    await sutFor(connector('ats-b')).limitChanged(connector('ats-b'));
    expect(quota.setLimit).not.toHaveBeenCalled();
    await expect(sutFor(connector('ats-b')).get(admin, 'c1')).rejects.toMatchObject({
      code: RegistryErrorCode.NotAtsA,
    });
    expect(quota.snapshot).not.toHaveBeenCalled();
  });
});
