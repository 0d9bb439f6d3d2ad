import { budgetStateOf, exhaustedEarly } from './registry-metrics';

describe('ATS-A budget metrics', () => {
  const now = Date.parse('2026-11-27T10:00:00Z');
  const day = (used: number, limit: number, resetInHours = 12, paused = false) => ({
    key: 'ats-a:https://customer.example',
    used,
    limit,
    resetAt: now + resetInHours * 3_600_000,
    paused,
  });

  it('sorts a customer system into one of four states, whatever its address', () => {
    expect(budgetStateOf(day(100, 1000))).toBe('available');
    expect(budgetStateOf(day(901, 1000))).toBe('low');
    expect(budgetStateOf(day(1000, 1000))).toBe('exhausted');
    expect(budgetStateOf(day(1200, 1000))).toBe('exhausted');
    expect(budgetStateOf(day(10, 1000, 12, true))).toBe('paused');
  });

  it('calls a day lost early when nothing is left more than 6 hours before the reset', () => {
    expect(exhaustedEarly(day(1000, 1000, 7), now)).toBe(true);
    expect(exhaustedEarly(day(10, 1000, 7, true), now)).toBe(true);
    expect(exhaustedEarly(day(1000, 1000, 5), now)).toBe(false);
    expect(exhaustedEarly(day(950, 1000, 7), now)).toBe(false);
  });
});
