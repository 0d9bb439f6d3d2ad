import type { AtsAdapter, BudgetConnector } from '@connector/ats-core';
import { atsRegistry } from './ats-adapters';

/** The capabilities whose work calls the ATS: an adapter declaring one needs `makeClients` and a `budget`. */
const CALLING_CAPABILITIES = ['vacancies', 'candidates', 'applications', 'documents'] as const;

/**
 * What an adapter's capabilities promise of its clients and it lacks: `makeClients` and `budget` for an ATS
 * services call, a daily quota for one that declares `daily-budget` (and none for one that does not).
 */
function missingClientParts(adapter: AtsAdapter, connector: BudgetConnector): string[] {
  const calls = CALLING_CAPABILITIES.some((capability) => adapter.capabilities.includes(capability));
  const missing: string[] = [];
  if (calls && !adapter.makeClients) missing.push('makeClients');
  if (calls && !adapter.budget) missing.push('budget');
  const daily = adapter.budget?.(connector).kind === 'daily-quota';
  if (adapter.capabilities.includes('daily-budget') !== daily) {
    missing.push(daily ? 'the daily-budget capability its daily quota needs' : 'a daily-quota budget');
  }
  return missing;
}

/** Each adapter builds its own clients and declares its budget (docs/adding-an-ats.md). */
describe('the adapters’ clients and budgets', () => {
  const connector = {
    id: 'c1',
    accountId: 'acct_1',
    config: { baseUrl: 'https://ats.example.com' },
    options: {},
  };

  it.each(atsRegistry.types())('%s has the client and the budget its capabilities promise', (type) => {
    expect(missingClientParts(atsRegistry.get(type), connector)).toEqual([]);
  });

  it('keys ATS-A on the account and customer system with a daily quota, ATS-B per connector with a bucket', () => {
    expect(atsRegistry.get('ats-a').budget?.(connector)).toEqual({
      kind: 'daily-quota',
      key: 'ats-a:acct_1:https://ats.example.com',
      config: { limit: 10_000, resetMinuteUtc: 0 },
    });
    expect(atsRegistry.get('ats-b').budget?.(connector)).toEqual({
      kind: 'token-bucket',
      key: 'ats-b:c1',
      bucket: { capacity: 100, refillPerSecond: 25, reserve: 20 },
    });
  });

  it('names what a third ATS lacks (the check above can fail)', () => {
    const base = atsRegistry.get('ats-b');
    const { makeClients: _makeClients, budget: _budget, ...bare } = base;
    const noClient: AtsAdapter = { ...bare, type: 'third', capabilities: ['candidates'] };
    expect(missingClientParts(noClient, connector)).toEqual(['makeClients', 'budget']);
    const dailyWithBucket: AtsAdapter = {
      ...base,
      type: 'third',
      capabilities: ['candidates', 'daily-budget'],
    };
    expect(missingClientParts(dailyWithBucket, connector)).toEqual(['a daily-quota budget']);
    const quotaUndeclared: AtsAdapter = {
      ...atsRegistry.get('ats-a'),
      type: 'third',
      capabilities: ['candidates'],
    };
    expect(missingClientParts(quotaUndeclared, connector)).toEqual([
      'the daily-budget capability its daily quota needs',
    ]);
  });
});
