import { ConcurrencyBusyError, KeyedConcurrency } from './keyed-concurrency';

describe(KeyedConcurrency.name, () => {
  it('lets at most perKey holders of one key in, and other keys alongside', () => {
    const sut = new KeyedConcurrency('test', { perKey: 2 });
    const a1 = sut.tryAcquire('a');
    const a2 = sut.tryAcquire('a');
    expect(a1).toBeDefined();
    expect(a2).toBeDefined();
    expect(sut.tryAcquire('a')).toBeUndefined();
    expect(sut.tryAcquire('b')).toBeDefined();
    expect(sut.snapshot()).toMatchObject({ keys: 2, held: 3, waiting: 0, fullKeys: 1 });
  });

  it('refuses at once with the time to come back when the caller will not wait', async () => {
    const sut = new KeyedConcurrency('test', { perKey: 1, retryAfterMs: 1_000 });
    sut.tryAcquire('a');
    const before = Date.now();
    const refusal = await sut.acquire('a').catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ConcurrencyBusyError);
    const retryAt = (refusal as ConcurrencyBusyError).retryAt.getTime();
    expect(retryAt).toBeGreaterThanOrEqual(before + 500);
    expect(retryAt).toBeLessThanOrEqual(Date.now() + 1_500);
  });

  it('hands a released slot to the first in line, in order', async () => {
    const sut = new KeyedConcurrency('test', { perKey: 1 });
    const release = sut.tryAcquire('a');
    const order: string[] = [];
    const first = sut.acquire('a', { maxWaitMs: 10_000 }).then((r) => (order.push('first'), r));
    const second = sut.acquire('a', { maxWaitMs: 10_000 }).then((r) => (order.push('second'), r));
    // Nobody overtakes the line, not even a caller that finds the count momentarily low.
    expect(sut.snapshot().waiting).toBe(2);
    release?.();
    (await first)();
    (await second)();
    expect(order).toEqual(['first', 'second']);
    expect(sut.snapshot()).toEqual({ keys: 0, held: 0, waiting: 0, fullKeys: 0, largestShare: 0 });
  });

  it('gives up after maxWaitMs and leaves the line clean', async () => {
    jest.useFakeTimers();
    try {
      const sut = new KeyedConcurrency('test', { perKey: 1 });
      sut.tryAcquire('a');
      const waiting = sut.acquire('a', { maxWaitMs: 200 });
      jest.advanceTimersByTime(200);
      await expect(waiting).rejects.toBeInstanceOf(ConcurrencyBusyError);
      expect(sut.snapshot()).toMatchObject({ held: 1, waiting: 0 });
    } finally {
      jest.useRealTimers();
    }
  });

  it('stops waiting when the signal aborts', async () => {
    const sut = new KeyedConcurrency('test', { perKey: 1 });
    sut.tryAcquire('a');
    const aborter = new AbortController();
    const waiting = sut.acquire('a', { maxWaitMs: 60_000, signal: aborter.signal });
    aborter.abort(new Error('shutting down'));
    await expect(waiting).rejects.toThrow('shutting down');
    expect(sut.snapshot().waiting).toBe(0);
  });

  it('releases once however often release is called, and forgets idle keys', async () => {
    const sut = new KeyedConcurrency('test', { perKey: 2 });
    const release = sut.tryAcquire('a');
    release?.();
    release?.();
    expect(sut.held('a')).toBe(0);
    expect(sut.snapshot().keys).toBe(0);
    await expect(sut.run('a', async () => 'done')).resolves.toBe('done');
    await expect(sut.run('a', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(sut.snapshot().keys).toBe(0);
  });

  it('reports the largest share one key holds', () => {
    const sut = new KeyedConcurrency('test', { perKey: 3 });
    sut.tryAcquire('a');
    sut.tryAcquire('a');
    sut.tryAcquire('a');
    sut.tryAcquire('b');
    expect(sut.snapshot().largestShare).toBeCloseTo(0.75);
  });

  it('refuses a perKey that is not a whole number of at least 1', () => {
    expect(() => new KeyedConcurrency('test', { perKey: 0 })).toThrow(RangeError);
  });
});
