import {
  DeferredMessageError,
  NotReadyError,
  PermanentMessageError,
  TransientMessageError,
} from './message-errors';
import {
  attemptNumber,
  decideOnFailure,
  deferralCount,
  deferralDelay,
  jittered,
  MAX_DEFERRAL_HOP_MS,
  overflowDelay,
} from './retry-policy';

const delays = [100, 1_000, 10_000];

describe(decideOnFailure.name, () => {
  it('dead-letters a permanent error at once', () => {
    expect(decideOnFailure(new PermanentMessageError('bad email'), 1, delays)).toEqual({
      action: 'dead-letter',
      reason: 'bad email',
      retryable: false,
    });
  });

  it('retries a transient error with growing delays, then gives up', () => {
    const error = new TransientMessageError('ATS answered 503');
    expect(decideOnFailure(error, 1, delays)).toEqual({ action: 'retry', delayMs: 100, nextAttempt: 2 });
    expect(decideOnFailure(error, 2, delays)).toEqual({ action: 'retry', delayMs: 1_000, nextAttempt: 3 });
    expect(decideOnFailure(error, 3, delays)).toEqual({ action: 'retry', delayMs: 10_000, nextAttempt: 4 });
    expect(decideOnFailure(error, 4, delays)).toEqual({
      action: 'dead-letter',
      reason: 'gave up after 4 attempts: ATS answered 503',
      retryable: true,
    });
  });

  it('treats an unknown error as transient', () => {
    expect(decideOnFailure(new Error('socket hang up'), 1, delays)).toMatchObject({ action: 'retry' });
    expect(decideOnFailure('weird', 1, delays)).toMatchObject({ action: 'retry' });
  });

  it('waits at least as long as the error asks, choosing a longer tier', () => {
    const rateLimited = new TransientMessageError('429', 'c1', undefined, 5_000);
    expect(decideOnFailure(rateLimited, 1, delays)).toEqual({
      action: 'retry',
      delayMs: 10_000,
      nextAttempt: 2,
    });
    const tooLong = new TransientMessageError('429', 'c1', undefined, 60_000);
    expect(decideOnFailure(tooLong, 1, delays)).toEqual({ action: 'retry', delayMs: 10_000, nextAttempt: 2 });
  });

  it('retries a not-ready message like a transient one', () => {
    expect(decideOnFailure(new NotReadyError('candidate not in ATS yet'), 2, delays)).toMatchObject({
      action: 'retry',
      delayMs: 1_000,
    });
  });

  it('defers a message waiting for budget without using an attempt, however late the attempt or long the wait', () => {
    const nextDay = new DeferredMessageError('ATS budget used up', new Date(Date.now() + 20 * 3_600_000));
    expect(decideOnFailure(nextDay, 1, delays)).toEqual({ action: 'defer', delayMs: 10_000 });
    expect(decideOnFailure(nextDay, 99, delays)).toEqual({ action: 'defer', delayMs: 10_000 });
    const soon = new DeferredMessageError('paused', new Date(Date.now() + 1_500));
    expect(decideOnFailure(soon, 3, delays)).toEqual({ action: 'defer', delayMs: 1_000 });
  });

  it('picks the longest delay tier within the wait, never more than a few minutes per hop', () => {
    const ladder = [5_000, 30_000, 120_000, 300_000, 600_000, 1_200_000, 1_800_000];
    expect(deferralDelay(50, ladder)).toBe(5_000);
    expect(deferralDelay(45_000, ladder)).toBe(30_000);
    expect(deferralDelay(20 * 3_600_000, ladder)).toBe(MAX_DEFERRAL_HOP_MS);
  });

  it('lets a short deferral use the short deferral tiers, while attempts keep their ladder', () => {
    const ladder = [5_000, 30_000];
    const short = [1_000, 2_000];
    const busy = new DeferredMessageError('ATS system busy', new Date(Date.now() + 1_200));
    expect(decideOnFailure(busy, 1, ladder, short)).toEqual({ action: 'defer', delayMs: 1_000 });
    const later = new DeferredMessageError('ATS system busy', new Date(Date.now() + 2_500));
    expect(decideOnFailure(later, 1, ladder, short)).toEqual({ action: 'defer', delayMs: 2_000 });
    const failed = new TransientMessageError('ATS answered 503');
    expect(decideOnFailure(failed, 1, ladder, short)).toEqual({
      action: 'retry',
      delayMs: 5_000,
      nextAttempt: 2,
    });
  });
});

describe(overflowDelay.name, () => {
  it('waits 1 s first, then longer each time, never more than 30 s per hop', () => {
    const tiers = [1_000, 2_000, 5_000, 30_000, 120_000];
    expect([0, 1, 2, 3, 4, 5, 6, 40].map((deferrals) => overflowDelay(deferrals, tiers))).toEqual([
      1_000, 2_000, 2_000, 5_000, 5_000, 30_000, 30_000, 30_000,
    ]);
  });
});

describe(jittered.name, () => {
  it('cuts a wait by up to a quarter, so waits deferred together spread out', () => {
    expect(jittered(1_000, () => 0)).toBe(1_000);
    expect(jittered(1_000, () => 0.999)).toBe(750);
    const spread = new Set(Array.from({ length: 50 }, () => jittered(2_000)));
    expect(spread.size).toBeGreaterThan(10);
    for (const wait of spread) expect(wait >= 1_500 && wait <= 2_000).toBe(true);
  });
});

describe(attemptNumber.name, () => {
  it('takes an integer of at least 1 from the untrusted x-attempt header, else 1', () => {
    expect(attemptNumber(3)).toBe(3);
    expect(attemptNumber('4')).toBe(4);
    for (const bad of [undefined, null, 'abc', '', '2.5', 2.5, 0, -5, '-5', NaN, Infinity, {}, [2], true]) {
      expect(attemptNumber(bad)).toBe(1);
    }
    expect(deferralCount(2)).toBe(2);
    expect(deferralCount('abc')).toBe(0);
    expect(deferralCount(-1)).toBe(0);
  });

  it('never retries forever nor gives extra attempts for a bad attempt number', () => {
    const error = new TransientMessageError('ATS answered 503');
    expect(decideOnFailure(error, NaN, delays)).toEqual({ action: 'retry', delayMs: 100, nextAttempt: 2 });
    expect(decideOnFailure(error, -5, delays)).toEqual({ action: 'retry', delayMs: 100, nextAttempt: 2 });
  });
});
