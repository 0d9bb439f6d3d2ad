import { AtsError } from '@connector/ats-http';
import { RpcError } from '@connector/messaging';
import { AtsSystemUnavailableError } from '@connector/ats-client-factory';
import { ConcurrencyBusyError, RateLimitExceededError, RateLimiterErrorCode } from '@connector/rate-limiter';
import { decideRunFailure, RUN_RETRY_DELAYS_MS } from './run-failure';

describe(decideRunFailure.name, () => {
  const now = new Date('2026-11-21T12:00:00Z');
  const context = { connectorId: 'c1', attempts: 0, now, inlineWaitMaxMs: 15_000 };
  const inMs = (ms: number) => new Date(now.getTime() + ms);

  it('waits in place for a budget that comes back soon, and parks the run for a long reset', () => {
    const soon = new RateLimitExceededError(RateLimiterErrorCode.Exceeded, 'k', inMs(2_000));
    expect(decideRunFailure(soon, context)).toMatchObject({
      action: 'wait',
      until: inMs(2_000),
      inline: true,
    });
    const midnight = new RateLimitExceededError(RateLimiterErrorCode.Paused, 'k', inMs(6 * 3_600_000));
    expect(decideRunFailure(midnight, context)).toMatchObject({ action: 'wait', inline: false });
  });

  it('parks a run whose ATS system is busy or failing, never in place and never as an attempt', () => {
    const busy = new ConcurrencyBusyError('system', inMs(1_000), 'vacancy-runs per ATS system');
    expect(decideRunFailure(busy, { ...context, attempts: 6 })).toMatchObject({
      action: 'wait',
      until: inMs(1_000),
      inline: false,
      reason: expect.stringContaining('waiting for this ATS'),
      for: 'ats',
    });
    const open = new AtsSystemUnavailableError('system', inMs(5_000), false);
    expect(decideRunFailure(open, context)).toMatchObject({
      action: 'wait',
      until: inMs(5_000),
      inline: false,
    });
  });

  it("pauses until the ATS's reset on a 429, without counting it as an attempt", () => {
    const error = new AtsError('429', { kind: 'rate_limited', endpoint: 'x', retryAt: inMs(60_000) });
    expect(decideRunFailure(error, { ...context, attempts: 6 })).toMatchObject({
      action: 'wait',
      until: inMs(60_000),
      inline: false,
    });
  });

  it('retries transient failures with growing delays, then gives up', () => {
    const error = new AtsError('503', { kind: 'transient', endpoint: 'x' });
    expect(decideRunFailure(error, context)).toMatchObject({
      action: 'retry',
      attempts: 1,
      until: inMs(RUN_RETRY_DELAYS_MS[0]),
    });
    expect(decideRunFailure(error, { ...context, attempts: 2 })).toMatchObject({
      attempts: 3,
      until: inMs(RUN_RETRY_DELAYS_MS[2]),
    });
    expect(decideRunFailure(error, { ...context, attempts: RUN_RETRY_DELAYS_MS.length })).toMatchObject({
      action: 'fail',
    });
  });

  it('fails at once on what cannot pass', () => {
    expect(decideRunFailure(new AtsError('403', { kind: 'forbidden', endpoint: 'x' }), context).action).toBe(
      'fail',
    );
    expect(decideRunFailure(new RpcError('NOT_FOUND', 'gone'), context).action).toBe('fail');
  });

  it('fails a broken answer at once under its own code, in plain words naming the endpoint', () => {
    const large = new AtsError('big', { kind: 'permanent', endpoint: 'POST /x', code: 'answer_too_large' });
    expect(decideRunFailure(large, context)).toEqual({
      action: 'fail',
      code: 'ATS_ANSWER_TOO_LARGE',
      reason: expect.stringMatching(/larger than a run reads \(POST \/x\)\. The run stopped there/),
    });
    const many = new AtsError('many', { kind: 'permanent', endpoint: 'POST /x', code: 'too_many_records' });
    expect(decideRunFailure(many, context)).toMatchObject({
      action: 'fail',
      code: 'ATS_ANSWER_TOO_MANY_RECORDS',
    });
    const other = new AtsError('bad', {
      kind: 'permanent',
      endpoint: 'POST /x',
      code: 'unexpected_response',
    });
    expect(decideRunFailure(other, context)).not.toHaveProperty('code');
  });
});
