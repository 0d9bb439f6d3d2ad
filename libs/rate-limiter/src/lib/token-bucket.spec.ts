import {
  assertValidConfig,
  exceedsCapacity,
  msUntilAvailable,
  refill,
  type BucketConfig,
} from './token-bucket';
import { tryTake } from '../test/token-bucket.model';

describe('token-bucket', () => {
  const config: BucketConfig = { capacity: 10, refillPerSecond: 2, reserve: 3 };

  it('refills at refillPerSecond and caps at capacity (the burst)', () => {
    expect(refill({ tokens: 0, updatedAt: 1_000 }, config, 2_500).tokens).toBe(3);
    expect(refill({ tokens: 9, updatedAt: 1_000 }, config, 60_000).tokens).toBe(10);
  });

  it('adds nothing when the clock goes backwards', () => {
    expect(refill({ tokens: 4, updatedAt: 5_000 }, config, 1_000)).toEqual({ tokens: 4, updatedAt: 5_000 });
  });

  it('lets normal priority take only the tokens above the reserve', () => {
    const granted = tryTake({ tokens: 10, updatedAt: 0 }, config, 7, 'normal', 0);
    expect(granted).toEqual({ granted: true, state: { tokens: 3, updatedAt: 0 } });
    const refused = tryTake({ tokens: 3, updatedAt: 0 }, config, 1, 'normal', 0);
    // One token above the reserve of 3 at 2/s takes 500 ms.
    expect(refused).toEqual({ granted: false, state: { tokens: 3, updatedAt: 0 }, retryAfterMs: 500 });
  });

  it('lets high priority take the reserve down to zero', () => {
    expect(tryTake({ tokens: 3, updatedAt: 0 }, config, 3, 'high', 0)).toEqual({
      granted: true,
      state: { tokens: 0, updatedAt: 0 },
    });
    expect(tryTake({ tokens: 0.5, updatedAt: 0 }, config, 1, 'high', 0)).toMatchObject({
      granted: false,
      retryAfterMs: 250,
    });
  });

  it('rounds waits up so the tokens are really there after sleeping', () => {
    expect(msUntilAvailable(0, { capacity: 1, refillPerSecond: 3, reserve: 0 }, 1, 'high')).toBe(334);
  });

  it('knows when a cost can never be granted', () => {
    expect(exceedsCapacity(config, 11, 'high')).toBe(true);
    expect(exceedsCapacity(config, 10, 'high')).toBe(false);
    expect(exceedsCapacity(config, 8, 'normal')).toBe(true);
    expect(exceedsCapacity(config, 7, 'normal')).toBe(false);
  });

  it('rejects configs that cannot work', () => {
    expect(() => assertValidConfig({ capacity: 0, refillPerSecond: 1, reserve: 0 })).toThrow(RangeError);
    expect(() => assertValidConfig({ capacity: 5, refillPerSecond: 0, reserve: 0 })).toThrow(RangeError);
    expect(() => assertValidConfig({ capacity: 5, refillPerSecond: 1, reserve: 5 })).toThrow(RangeError);
  });
});
