import { FakeClock } from './fake-clock';
import { InMemoryRateLimiter } from './in-memory-rate-limiter';
import { RateLimiterError, RateLimiterErrorCode, RateLimitExceededError } from '../lib/rate-limiter.errors';

describe(InMemoryRateLimiter.name, () => {
  const key = 'connector-1';
  let clock: FakeClock;
  let sut: InMemoryRateLimiter;

  beforeEach(() => {
    clock = new FakeClock();
    sut = new InMemoryRateLimiter({ clock, jitterMs: () => 0 });
    sut.configure(key, { capacity: 10, refillPerSecond: 1, reserve: 2 });
  });

  async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
    return promise.then(
      () => {
        throw new Error('expected a rejection');
      },
      (error: unknown) => error,
    );
  }

  it('grants a burst up to capacity at once', async () => {
    for (let i = 0; i < 10; i++)
      await expect(sut.acquire(key, 1, { priority: 'high' })).resolves.toEqual({ waitedMs: 0 });
    expect(clock.sleeps).toEqual([]);
  });

  it('fails fast with the time the tokens will be there', async () => {
    await sut.acquire(key, 8);
    const error = await rejectionOf(sut.acquire(key, 1));
    expect(error).toBeInstanceOf(RateLimitExceededError);
    expect(error).toMatchObject({
      code: RateLimiterErrorCode.Exceeded,
      key,
      retryAt: new Date(clock.now() + 1_000),
    });
    expect(clock.sleeps).toEqual([]);
  });

  it('refills over time', async () => {
    await sut.acquire(key, 8);
    clock.advance(3_000);
    await expect(sut.acquire(key, 3)).resolves.toEqual({ waitedMs: 0 });
    await expect(sut.peek(key)).resolves.toMatchObject({ tokens: 2 });
  });

  it('keeps the reserve from normal priority but gives it to high priority', async () => {
    await sut.acquire(key, 8);
    await expect(sut.acquire(key, 1, { priority: 'normal' })).rejects.toBeInstanceOf(RateLimitExceededError);
    await expect(sut.acquire(key, 2, { priority: 'high' })).resolves.toEqual({ waitedMs: 0 });
    await expect(sut.peek(key)).resolves.toMatchObject({ tokens: 0 });
  });

  it('waits for tokens within maxWaitMs', async () => {
    await sut.acquire(key, 10, { priority: 'high' });
    await expect(sut.acquire(key, 2, { priority: 'high', maxWaitMs: 5_000 })).resolves.toEqual({
      waitedMs: 2_000,
    });
    expect(clock.sleeps).toEqual([2_000]);
  });

  it('does not wait when the tokens would come after maxWaitMs', async () => {
    await sut.acquire(key, 10, { priority: 'high' });
    const error = await rejectionOf(sut.acquire(key, 2, { priority: 'high', maxWaitMs: 1_999 }));
    expect(error).toMatchObject({
      code: RateLimiterErrorCode.Exceeded,
      retryAt: new Date(clock.now() + 2_000),
    });
    expect(clock.sleeps).toEqual([]);
  });

  it('adds jitter to the wait but never sleeps past maxWaitMs', async () => {
    const jittery = new InMemoryRateLimiter({ clock, jitterMs: () => 50 });
    jittery.configure(key, { capacity: 1, refillPerSecond: 1, reserve: 0 });
    await jittery.acquire(key, 1);
    await expect(jittery.acquire(key, 1, { maxWaitMs: 1_020 })).resolves.toEqual({ waitedMs: 1_020 });
    expect(clock.sleeps).toEqual([1_020]);
  });

  it('fails at once when the cost exceeds what the priority may ever take', async () => {
    const tooBig = await rejectionOf(sut.acquire(key, 11, { priority: 'high', maxWaitMs: 60_000 }));
    expect(tooBig).toBeInstanceOf(RateLimiterError);
    expect(tooBig).not.toBeInstanceOf(RateLimitExceededError);
    expect(tooBig).toMatchObject({ code: RateLimiterErrorCode.CostExceedsCapacity, key });
    // 9 fits the capacity but not above the reserve of 2.
    await expect(sut.acquire(key, 9, { maxWaitMs: 60_000 })).rejects.toMatchObject({
      code: RateLimiterErrorCode.CostExceedsCapacity,
    });
    expect(clock.sleeps).toEqual([]);
  });

  it('rejects an unknown key and falls back to the config resolver', async () => {
    await expect(sut.acquire('other', 1)).rejects.toMatchObject({ code: RateLimiterErrorCode.NotConfigured });
    const resolved = new InMemoryRateLimiter({
      clock,
      resolveConfig: (k) => (k === 'other' ? { capacity: 1, refillPerSecond: 1, reserve: 0 } : undefined),
    });
    await expect(resolved.acquire('other', 1)).resolves.toEqual({ waitedMs: 0 });
    await expect(resolved.peek('unknown')).resolves.toBeUndefined();
  });

  describe('pauseUntil', () => {
    it('makes acquirers fail fast with the pause end, even with tokens left', async () => {
      const until = new Date(clock.now() + 60_000);
      await sut.pauseUntil(key, until);
      const error = await rejectionOf(sut.acquire(key, 1, { priority: 'high' }));
      expect(error).toBeInstanceOf(RateLimitExceededError);
      expect(error).toMatchObject({ code: RateLimiterErrorCode.Paused, key, retryAt: until });
      await expect(sut.peek(key)).resolves.toMatchObject({ tokens: 10, pausedUntil: until });
    });

    it('makes acquirers wait until the pause ends when maxWaitMs allows', async () => {
      await sut.pauseUntil(key, new Date(clock.now() + 30_000));
      await expect(sut.acquire(key, 1, { maxWaitMs: 30_000 })).resolves.toEqual({ waitedMs: 30_000 });
      await expect(sut.peek(key)).resolves.toMatchObject({ pausedUntil: null });
    });

    it('never shortens a pause, and resume lifts it', async () => {
      const later = new Date(clock.now() + 60_000);
      await sut.pauseUntil(key, later);
      await sut.pauseUntil(key, new Date(clock.now() + 10_000));
      await expect(sut.peek(key)).resolves.toMatchObject({ pausedUntil: later });
      await sut.resume(key);
      await expect(sut.acquire(key, 1)).resolves.toEqual({ waitedMs: 0 });
    });
  });

  it('peeks a key never used as a full bucket with its config', async () => {
    await expect(sut.peek(key)).resolves.toEqual({
      key,
      tokens: 10,
      capacity: 10,
      refillPerSecond: 1,
      reserve: 2,
      pausedUntil: null,
    });
  });
});

describe('acquire under contention', () => {
  it('tries again when another caller took the tokens it waited for', async () => {
    const clock = new FakeClock();
    const sut = new InMemoryRateLimiter({ clock, jitterMs: () => 0 });
    sut.configure('k', { capacity: 1, refillPerSecond: 1, reserve: 0 });
    await sut.acquire('k', 1);
    const waiting = sut.acquire('k', 1, { maxWaitMs: 5_000 });
    // Runs while the first waiter sleeps: it finds the refilled token first.
    const sleeping = clock.sleep.bind(clock);
    let stolen = false;
    clock.sleep = async (ms: number) => {
      await sleeping(ms);
      if (!stolen) {
        stolen = true;
        await sut.acquire('k', 1);
      }
    };
    await expect(waiting).resolves.toEqual({ waitedMs: 2_000 });
    expect(clock.sleeps).toEqual([1_000, 1_000]);
  });
});
