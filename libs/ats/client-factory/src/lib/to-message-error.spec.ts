import { AtsError, UNSURE_WRITE_SETTLE_MS } from '@connector/ats-http';
import { AuthErrorCode } from '@connector/contracts';
import {
  DeferredMessageError,
  PermanentMessageError,
  RpcError,
  TransientMessageError,
} from '@connector/messaging';
import { toMessageError } from './to-message-error';

describe(toMessageError.name, () => {
  it('makes the next try after an unanswered write wait before it looks the record up', () => {
    const unsure = new AtsError('ATS-B PUT entity/Candidate did not answer within 6000 ms', {
      kind: 'transient',
      endpoint: 'PUT entity/Candidate',
      code: 'timeout',
      ambiguous: true,
    });
    const error = toMessageError(unsure, 'c1');
    expect(error).toBeInstanceOf(TransientMessageError);
    expect((error as TransientMessageError).notBeforeMs).toBe(UNSURE_WRITE_SETTLE_MS);
    expect(UNSURE_WRITE_SETTLE_MS).toBeGreaterThanOrEqual(60_000);
  });

  it("waits the ATS's index lag, not a fixed minute, when the client names it", () => {
    const unsure = new AtsError('ATS-A POST /api/applications did not answer within 3000 ms', {
      kind: 'transient',
      endpoint: 'POST /api/applications',
      code: 'timeout',
      ambiguous: true,
      settleMs: 5_000,
    });
    expect((toMessageError(unsure, 'c1') as TransientMessageError).notBeforeMs).toBe(5_000);
  });

  it("makes auth-gateway's BUSY a short wait of about the retryAfterMs it names, not an attempt", () => {
    const busy = Object.assign(new RpcError(AuthErrorCode.Busy, 'every renewal slot is taken'), {
      retryAfterMs: 2_000,
    });
    const error = toMessageError(busy, 'c1');
    expect(error).toBeInstanceOf(DeferredMessageError);
    const waitMs = (error as DeferredMessageError).until.getTime() - Date.now();
    expect(waitMs).toBeGreaterThan(900);
    expect(waitMs).toBeLessThanOrEqual(3_000);
  });

  it('makes no token for lack of budget (RATE_LIMITED from auth-gateway) a wait, not an attempt', () => {
    const error = toMessageError(new RpcError(AuthErrorCode.RateLimited, 'login answered 429'), 'c1');
    expect(error).toBeInstanceOf(DeferredMessageError);
    expect((error as DeferredMessageError).until.getTime()).toBeGreaterThan(Date.now());
  });

  it('makes a BUSY answer (no free slot in the answering service) a wait as long as it says, not an attempt', () => {
    const before = Date.now();
    const error = toMessageError(new RpcError('BUSY', 'busy with credentials.requested requests', 700), 'c1');
    expect(error).toBeInstanceOf(DeferredMessageError);
    const waitMs = (error as DeferredMessageError).until.getTime() - before;
    expect(waitMs).toBeGreaterThanOrEqual(700);
    expect(waitMs).toBeLessThan(1_500);
  });

  it('retries a failure that surely wrote nothing at the usual pace', () => {
    for (const error of [
      new AtsError('503', { kind: 'transient', endpoint: 'PUT entity/Candidate', status: 503 }),
      new AtsError('refused', { kind: 'unreachable', endpoint: 'POST /api/candidates', ambiguous: false }),
      new AtsError('search timed out', {
        kind: 'transient',
        endpoint: 'GET search/Candidate',
        code: 'timeout',
      }),
    ]) {
      const translated = toMessageError(error, 'c1');
      expect(translated).toBeInstanceOf(TransientMessageError);
      expect((translated as TransientMessageError).notBeforeMs).toBeUndefined();
    }
  });

  it('waits for budget after a 429 and dead-letters a permanent refusal, the ATS’s words only as details', () => {
    const until = new Date(Date.now() + 30_000);
    expect(
      toMessageError(new AtsError('429', { kind: 'rate_limited', endpoint: 'x', retryAt: until }), 'c1'),
    ).toEqual(expect.any(DeferredMessageError));
    const permanent = toMessageError(
      new AtsError('ATS-B PUT entity/Candidate answered 400 (permanent; fields: phone)', {
        kind: 'permanent',
        endpoint: 'PUT entity/Candidate',
        atsMessage: "phone: '+44 20 7946 0000' too long",
      }),
      'c1',
    );
    expect(permanent).toBeInstanceOf(PermanentMessageError);
    expect(permanent.message).toBe('ATS-B PUT entity/Candidate answered 400 (permanent; fields: phone)');
    expect(permanent.details).toEqual(["phone: '+44 20 7946 0000' too long"]);
  });
});
