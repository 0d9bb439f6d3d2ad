/**
 * How a handler tells the transport what to do with a message it could not handle.
 * Anything else a handler throws counts as transient: retried with delays, then dead-lettered.
 */
export abstract class MessageHandlingError extends Error {
  abstract readonly retryable: boolean;
  constructor(
    message: string,
    /** The connector the failure belongs to, copied into `operation.failed`. */
    readonly connectorId?: string,
    /** Details for the operator (e.g. the ATS's own error messages). */
    readonly details?: string[],
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Will never succeed: dead-lettered at once and reported. */
export class PermanentMessageError extends MessageHandlingError {
  readonly retryable = false;
}

/** May succeed later (ATS 5xx, 429, timeout, outage): retried with growing delays. */
export class TransientMessageError extends MessageHandlingError {
  readonly retryable = true;
  constructor(
    message: string,
    connectorId?: string,
    details?: string[],
    /** At least this long before the next attempt (e.g. a rate-limit reset). */
    readonly notBeforeMs?: number,
  ) {
    super(message, connectorId, details);
  }
}

/**
 * Not an error yet: something it needs is not there (an application before its candidate). Retried with
 * delays like a transient failure, but logged quietly and never reported until attempts run out.
 */
export class NotReadyError extends TransientMessageError {}

/**
 * Not a failure: the message must wait until `until` (the ATS's daily budget is spent, or it answered 429).
 * It goes back to a delay queue without using up an attempt and is never dead-lettered for it, however
 * long the wait; it is handled again at the latest every few minutes, so a raised limit is seen soon.
 */
export class DeferredMessageError extends MessageHandlingError {
  readonly retryable = true;
  constructor(
    message: string,
    readonly until: Date,
    connectorId?: string,
  ) {
    super(message, connectorId);
  }
}

export function isRetryable(error: unknown): boolean {
  return error instanceof MessageHandlingError ? error.retryable : true;
}

/**
 * One message may fail for several connectors: retry while any failure may pass (the ones done are no-ops
 * next time), dead-letter only when all are permanent. A real failure counts as an attempt before a wait
 * for budget does, the one asking for the longest pause first (an unsure write must not be looked up too
 * early because another connector failed too); when only waits remain, the message waits for the earliest.
 */
export function combinedFailure(failures: MessageHandlingError[]): MessageHandlingError | undefined {
  const notBefore = (f: MessageHandlingError) =>
    f instanceof TransientMessageError ? (f.notBeforeMs ?? 0) : 0;
  const retryable = failures.filter((f) => f.retryable && !(f instanceof DeferredMessageError));
  if (retryable.length > 0) return retryable.reduce((a, b) => (notBefore(b) > notBefore(a) ? b : a));
  const waits = failures.filter((f): f is DeferredMessageError => f instanceof DeferredMessageError);
  if (waits.length > 0) return waits.reduce((a, b) => (b.until < a.until ? b : a));
  return failures[0];
}
