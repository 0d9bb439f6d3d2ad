import { AccountFailureBudget } from './account-failure-budget';

describe(AccountFailureBudget.name, () => {
  const at = Date.UTC(2026, 10, 29, 10, 0, 0);

  it('keeps an account’s bodies up to its cap in an hour, then not, and others’ all the while', () => {
    const sut = new AccountFailureBudget({ bodiesPerHour: 3, bytesPerHour: 1_000_000 });
    expect([1, 2, 3, 4].map(() => sut.take('acct_flood', 10, at))).toEqual([true, true, true, false]);
    expect(sut.take('acct_quiet', 10, at)).toBe(true);
    expect(sut.take('acct_flood', 10, at + 3_600_000)).toBe(true);
  });

  it('caps the bytes too', () => {
    const sut = new AccountFailureBudget({ bodiesPerHour: 100, bytesPerHour: 1_000 });
    expect(sut.take('acct_1', 900, at)).toBe(true);
    expect(sut.take('acct_1', 200, at)).toBe(false);
    expect(sut.take('acct_1', 100, at)).toBe(true);
  });

  it('remembers a bounded number of accounts', () => {
    const sut = new AccountFailureBudget({ bodiesPerHour: 1, bytesPerHour: 1_000, accounts: 2 });
    sut.take('a', 1, at);
    sut.take('b', 1, at);
    sut.take('c', 1, at);
    // 'a' was forgotten: it starts again (a forgotten account is a quiet one).
    expect(sut.take('a', 1, at)).toBe(true);
    expect(sut.take('c', 1, at)).toBe(false);
  });
});
