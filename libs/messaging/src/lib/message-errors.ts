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

export function isRetryable(error: unknown): boolean {
  return error instanceof MessageHandlingError ? error.retryable : true;
}
