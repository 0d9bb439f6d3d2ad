import { atsRegistry } from '@connector/ats-registry';
import type { PostgresDailyQuota } from '@connector/rate-limiter';
import { RegistryErrorCode } from '../common/registry.exception';
import type { ConnectorEntity } from '../connectors/connector.entity';
import type { ConnectorRepository } from '../repositories/connector.repository';
import type { RunRepository } from '../repositories/run.repository';
import type { RunEntity } from '../runs/run.entity';
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
      { latest: async () => new Map(latest) } as unknown as RunRepository,
      atsRegistry,
    );
  let latest: Array<[string, RunEntity]> = [];
  const admin = { accountId: 'acct_1' } as never;

  beforeEach(() => {
    jest.clearAllMocks();
    latest = [];
  });

  it("sets the limit on the daily quota row the adapter keys (the account's, on the customer system)", async () => {
    await sutFor(connector('ats-a')).limitChanged(connector('ats-a', { dailyCallLimit: 500 }));
    expect(quota.setLimit).toHaveBeenCalledWith('ats-a:acct_1:https://ats.example.com', 500);
  });

  it('leaves an ATS whose budget is not a daily quota alone, and says it has none', async () => {
    await sutFor(connector('ats-b')).limitChanged(connector('ats-b'));
    expect(quota.setLimit).not.toHaveBeenCalled();
    await expect(sutFor(connector('ats-b')).get(admin, 'c1')).rejects.toMatchObject({
      code: RegistryErrorCode.NoDailyBudget,
    });
    expect(quota.snapshot).not.toHaveBeenCalled();
  });

  it('says when a run waits for this ATS itself, not for budget', async () => {
    const until = new Date(Date.now() + 60_000);
    quota.snapshot.mockResolvedValue(plan());
    latest = [['c1', { status: 'running', waitingFor: 'ats', waitingUntil: until } as RunEntity]];
    const view = await sutFor(connector('ats-a')).get(admin, 'c1');
    expect(view.waitingForAtsUntil).toBe(until.toISOString());
    expect(view.message).toContain('A run is waiting for this ATS');
    latest = [['c1', { status: 'running', waitingFor: 'budget', waitingUntil: until } as RunEntity]];
    const budgetWait = await sutFor(connector('ats-a')).get(admin, 'c1');
    expect(budgetWait.waitingForAtsUntil).toBeNull();
    expect(budgetWait.message).not.toContain('waiting for this ATS');
  });
});

/** A quiet day's plan. */
function plan() {
  const now = Date.now();
  return {
    limit: 10_000,
    configuredLimit: 10_000,
    atsLimit: null,
    usedByUs: 10,
    usedByAll: 12,
    remaining: 9_988,
    resetAt: now + 3_600_000,
    pausedUntil: null,
    resumesAt: null,
    exhausted: false,
    currentRatePerHour: 5,
    projectedUse: 20,
    sustainableRatePerHour: 9_000,
    pushReserve: 100,
    syncShare: 9_000,
    waiting: { message: { count: 0, until: null }, run: { count: 0, until: null } },
  };
}
