import { TransientMessageError } from './message-errors';

/** A handler time limit suits every message of a service; a hanging call must not hold a message forever. */
export const DEFAULT_HANDLER_TIMEOUT_MS = 300_000;

/** The handler did not finish in time: retried like any transient failure, then dead-lettered. */
export class HandlerTimeoutError extends TransientMessageError {
  constructor(timeoutMs: number) {
    super(`the handler did not finish within ${timeoutMs} ms`);
  }
}

/**
 * `work`'s result, or HandlerTimeoutError once `timeoutMs` have passed; then `controller` is aborted, so
 * work that listens to its signal stops (work that does not is left behind, its message retried).
 */
export async function withTimeLimit<T>(
  work: Promise<T>,
  timeoutMs: number,
  controller: AbortController,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new HandlerTimeoutError(timeoutMs);
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
