import { AtsError, UNSURE_WRITE_SETTLE_MS } from '@connector/ats-http';
import { AuthErrorCode } from '@connector/contracts';
import {
  DeferredMessageError,
  type MessageHandlingError,
  PermanentMessageError,
  RpcError,
  TransientMessageError,
} from '@connector/messaging';
import { ConcurrencyBusyError, RateLimitExceededError } from '@connector/rate-limiter';
import { AtsSystemUnavailableError } from './ats-systems';

/** A connector that must be authorized again waits this long between checks; nothing is dropped. */
export const AUTHORIZATION_WAIT_MS = 30 * 60_000;

/** No token or login for lack of budget, and no reset named: ask again this soon. */
const ACCESS_RATE_LIMIT_WAIT_MS = 5_000;

/** A BUSY answer that names no wait: about this long (jittered), and never longer than the cap. */
const BUSY_WAIT_MS = 1_000;
const BUSY_WAIT_CAP_MS = 30_000;

/**
 * A BUSY answer's wait: at least the `retryAfterMs` it names (already jittered by the answering service), up to a
 * quarter more so that callers refused together do not come back together; about 1 s when it names none.
 */
function busyWaitMs(error: RpcError): number {
  const named = error.retryAfterMs;
  const base = named !== undefined && named > 0 ? named : BUSY_WAIT_MS * (0.5 + Math.random());
  return Math.min(BUSY_WAIT_CAP_MS, Math.round(base * (1 + Math.random() / 4)));
}

/** A 429 without a reset time: wait this long. */
const RATE_LIMIT_FALLBACK_MS = 60_000;

/**
 * The one place where failures of ATS work become retry or dead-letter decisions: waiting for budget (the
 * daily quota is spent, or the ATS answered 429) is a deferral, not an attempt; what may pass is transient;
 * what cannot is permanent. The ATS's words (they may quote a candidate) go only into `details`, which only
 * the dead letter keeps; the reason is the error's category and status.
 */
export function toMessageError(error: unknown, connectorId: string): MessageHandlingError {
  if (error instanceof RateLimitExceededError) {
    return new DeferredMessageError(
      `waiting for ATS budget until ${error.retryAt.toISOString()}`,
      error.retryAt,
      connectorId,
    );
  }
  if (error instanceof ConcurrencyBusyError) {
    // Every slot of this ATS system is taken by its own slow work: the handler goes to another account's.
    return new DeferredMessageError(
      `waiting for this ATS: its other work holds every slot; again at ${error.retryAt.toISOString()}`,
      error.retryAt,
      connectorId,
    );
  }
  if (error instanceof AtsSystemUnavailableError) {
    // An open breaker: no call is made. Past the message's deferral age it counts as an attempt (docs/reliability.md).
    const message = `waiting for this ATS: ${error.message}`;
    return error.countsAsAttempt
      ? new TransientMessageError(
          message,
          connectorId,
          undefined,
          Math.max(0, error.until.getTime() - Date.now()),
        )
      : new DeferredMessageError(message, error.until, connectorId);
  }
  if (error instanceof RpcError) {
    switch (error.code) {
      case AuthErrorCode.AuthorizationRequired:
        return new TransientMessageError(error.message, connectorId, undefined, AUTHORIZATION_WAIT_MS);
      case AuthErrorCode.RateLimited:
        // No budget for a token or a login (ATS-A clients turn it into the quota's own wait first).
        return new DeferredMessageError(
          `waiting for ATS budget to get access: ${error.message}`,
          new Date(Date.now() + ACCESS_RATE_LIMIT_WAIT_MS),
          connectorId,
        );
      case AuthErrorCode.Busy:
        // auth-gateway refused at once (its ATS call slots are full): a short jittered wait, no attempt spent.
        return new DeferredMessageError(
          `auth-gateway is busy: ${error.message}`,
          new Date(Date.now() + busyWaitMs(error)),
          connectorId,
        );
      case AuthErrorCode.NotFound:
      case 'NOT_FOUND':
        return new PermanentMessageError(`connector ${connectorId}: ${error.message}`, connectorId);
      default:
        return new TransientMessageError(error.message, connectorId);
    }
  }
  if (error instanceof AtsError) {
    const details = error.atsMessage ? [error.atsMessage] : undefined;
    switch (error.kind) {
      case 'rate_limited': {
        const until = error.retryAt ?? new Date(Date.now() + RATE_LIMIT_FALLBACK_MS);
        return new DeferredMessageError(
          `the ATS answered 429; waiting until ${until.toISOString()}`,
          until,
          connectorId,
        );
      }
      case 'transient':
      case 'unreachable':
      case 'auth':
        // After a write that may have landed, the next try looks it up only once it would show: after the
        // ATS's index lag (the client names it), not a fixed minute.
        return new TransientMessageError(
          error.message,
          connectorId,
          details,
          error.ambiguous ? (error.settleMs ?? UNSURE_WRITE_SETTLE_MS) : undefined,
        );
      case 'forbidden':
      case 'not_found':
      case 'permanent':
        return new PermanentMessageError(error.message, connectorId, details);
    }
  }
  return error instanceof Error && 'retryable' in error
    ? (error as MessageHandlingError)
    : new TransientMessageError(error instanceof Error ? error.message : String(error), connectorId);
}
