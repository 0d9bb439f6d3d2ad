import { atsAQuota, atsAQuotaKey } from './ats-a-budget';

describe(atsAQuotaKey.name, () => {
  const on = (accountId: string, baseUrl: string, id = 'c1') => ({ id, accountId, config: { baseUrl } });

  it("gives another account on the same ATS address its own window: its limit never changes this one's plan", () => {
    const mine = atsAQuota({
      ...on('acct_a', 'https://ats.example.com'),
      options: { dailyCallLimit: 5_000 },
    });
    const theirs = atsAQuota({ ...on('acct_b', 'https://ats.example.com'), options: { dailyCallLimit: 10 } });
    expect(mine.key).not.toBe(theirs.key);
  });

  it("shares one window between an account's connectors on the same address", () => {
    expect(atsAQuotaKey(on('acct_a', 'https://ats.example.com', 'c1'))).toBe(
      atsAQuotaKey(on('acct_a', 'https://ats.example.com', 'c2')),
    );
  });
});
