import { QuotaMeter } from './quota.meter';

describe(QuotaMeter.name, () => {
  it('refuses calls beyond the limit until the aligned window ends', () => {
    let now = Date.parse('2026-03-10T23:59:58.500Z');
    const meter = new QuotaMeter(2, 86_400, () => now);
    expect(meter.consume().allowed).toBe(true);
    expect(meter.consume().allowed).toBe(true);
    const refused = meter.consume();
    expect(refused.allowed).toBe(false);
    expect(refused.snapshot.used).toBe(2);
    expect(refused.snapshot.resetEpochSeconds).toBe(Date.parse('2026-03-11T00:00:00Z') / 1000);
    expect(refused.snapshot.retryAfterSeconds).toBe(2);
    now = Date.parse('2026-03-11T00:00:00.001Z');
    const next = meter.consume();
    expect(next.allowed).toBe(true);
    expect(next.snapshot.remaining).toBe(1);
  });
});
