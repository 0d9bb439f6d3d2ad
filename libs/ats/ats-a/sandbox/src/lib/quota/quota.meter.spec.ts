import { QuotaMeter } from './quota.meter';

describe(QuotaMeter.name, () => {
  it('refuses calls beyond the limit until the aligned window ends', () => {
    let now = Date.parse('2026-03-10T23:59:58.500Z');
    const meter = new QuotaMeter(2, 86_400, () => now);
    expect(meter.consume().allowed).toBe(true);
    expect(meter.consume().allowed).toBe(true);
    const refused = meter.consume();
    expect(refused.allowed).toBe(false);
    expect(refused.remaining).toBe(0);
    expect(refused.resetEpochSeconds).toBe(Date.parse('2026-03-11T00:00:00Z') / 1000);
    expect(refused.retryAfterSeconds).toBe(2);
    now = Date.parse('2026-03-11T00:00:00.001Z');
    const next = meter.consume();
    expect(next.allowed).toBe(true);
    expect(next.remaining).toBe(1);
  });

  it('ends the window at a given time and starts the next from there, as a day that resets at its own hour', () => {
    let now = Date.parse('2026-03-10T10:00:00Z');
    const meter = new QuotaMeter(2, 86_400, () => now);
    meter.endWindowAt(Date.parse('2026-03-10T10:03:00Z'));
    meter.set({ used: 2 });
    const refused = meter.consume();
    expect(refused.allowed).toBe(false);
    expect(refused.resetEpochSeconds).toBe(Date.parse('2026-03-10T10:03:00Z') / 1000);
    expect(refused.retryAfterSeconds).toBe(180);
    now = Date.parse('2026-03-10T10:03:00.001Z');
    const next = meter.consume();
    expect(next.allowed).toBe(true);
    expect(next.resetEpochSeconds).toBe(Date.parse('2026-03-11T10:03:00Z') / 1000);
  });
});
