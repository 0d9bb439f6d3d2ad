import { LeaseLostError, renewWhileHeld } from './keyed-leases';

describe(renewWhileHeld.name, () => {
  const ttlMs = 300;

  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('gives the lease up before it could lapse when a renewal never answers (half-open connection)', async () => {
    let renewals = 0;
    const renewal = renewWhileHeld('hang', ttlMs, () => {
      renewals += 1;
      return new Promise<boolean>(() => undefined);
    });
    await jest.advanceTimersByTimeAsync(ttlMs / 3); // the renewal is sent, and hangs
    expect(renewals).toBe(1);
    expect(renewal.signal.aborted).toBe(false);
    await jest.advanceTimersByTimeAsync(ttlMs / 3 - 1);
    expect(renewal.signal.aborted).toBe(false);
    await jest.advanceTimersByTimeAsync(1); // two thirds of the TTL since it was taken
    expect(renewal.signal.aborted).toBe(true);
    expect(renewal.signal.reason).toBeInstanceOf(LeaseLostError);
    expect(String(renewal.signal.reason)).toMatch(/could not renew it in time/);
    // No renewal was sent on top of the pending one, and nothing is left to run.
    await jest.advanceTimersByTimeAsync(5 * ttlMs);
    expect(renewals).toBe(1);
    expect(jest.getTimerCount()).toBe(0);
    renewal.stop();
  });

  it('keeps the lease while renewals keep succeeding, even slowly', async () => {
    let renewals = 0;
    const renewal = renewWhileHeld('kept', ttlMs, async () => {
      renewals += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return true;
    });
    await jest.advanceTimersByTimeAsync(20 * ttlMs);
    expect(renewal.signal.aborted).toBe(false);
    expect(renewals).toBeGreaterThan(40);
    renewal.stop();
    expect(jest.getTimerCount()).toBe(0);
  });

  it('gives the lease up at once when a renewal touches no row', async () => {
    const renewal = renewWhileHeld('gone', ttlMs, async () => false);
    await jest.advanceTimersByTimeAsync(ttlMs / 3);
    expect(renewal.signal.aborted).toBe(true);
    expect(String(renewal.signal.reason)).toMatch(/it lapsed and was taken over, or removed/);
    expect(jest.getTimerCount()).toBe(0);
    renewal.stop();
  });

  it('gives the lease up before it could lapse when renewals keep failing', async () => {
    let failing = false;
    const renewal = renewWhileHeld('unreachable', ttlMs, async () => {
      if (failing) throw new Error('connection terminated');
      return true;
    });
    await jest.advanceTimersByTimeAsync(ttlMs / 3); // one renewal confirmed, at 100 ms
    failing = true;
    await jest.advanceTimersByTimeAsync(ttlMs / 3); // the next one fails: the lease holds until 400 ms
    expect(renewal.signal.aborted).toBe(false);
    await jest.advanceTimersByTimeAsync(ttlMs / 3); // 100 ms + two thirds of the TTL
    expect(renewal.signal.aborted).toBe(true);
    expect(String(renewal.signal.reason)).toMatch(/could not renew it in time: connection terminated/);
    expect(jest.getTimerCount()).toBe(0);
    renewal.stop();
  });

  it('leaves no timer once stopped, whether a renewal is pending or not', async () => {
    const idle = renewWhileHeld('idle', ttlMs, async () => true);
    idle.stop();
    expect(jest.getTimerCount()).toBe(0);

    let answer!: (held: boolean) => void;
    const pending = renewWhileHeld(
      'pending',
      ttlMs,
      () => new Promise<boolean>((resolve) => (answer = resolve)),
    );
    await jest.advanceTimersByTimeAsync(ttlMs / 3);
    pending.stop();
    expect(jest.getTimerCount()).toBe(0);
    answer(true); // the renewal answers after stop(): nothing more is scheduled
    await jest.advanceTimersByTimeAsync(5 * ttlMs);
    expect(jest.getTimerCount()).toBe(0);
    expect(pending.signal.aborted).toBe(false);
  });
});
