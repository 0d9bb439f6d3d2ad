import { AtsError } from '@connector/ats-clients';
import { AuthErrorCode } from '@connector/contracts';
import {
  type MessageHandlingError,
  PermanentMessageError,
  RpcError,
  TransientMessageError,
} from '@connector/messaging';
import { RateLimitExceededError } from '@connector/rate-limiter';

/** A connector that must be authorized again waits this long between checks; nothing is dropped. */
export const AUTHORIZATION_WAIT_MS = 30 * 60_000;

/**
 * The one place where failures of ATS work become retry or dead-letter decisions: what may pass is
 * transient (with the wait the ATS or the budget asks for), what cannot is permanent with the ATS's words.
 */
export function toMessageError(error: unknown, connectorId: string): MessageHandlingError {
  const waitUntil = (date: Date | undefined) => (date ? Math.max(0, date.getTime() - Date.now()) : undefined);
  if (error instanceof RateLimitExceededError) {
    return new TransientMessageError(
      `ATS budget used up until ${error.retryAt.toISOString()}`,
      connectorId,
      undefined,
      waitUntil(error.retryAt),
    );
  }
  if (error instanceof RpcError) {
    switch (error.code) {
      case AuthErrorCode.AuthorizationRequired:
        return new TransientMessageError(error.message, connectorId, undefined, AUTHORIZATION_WAIT_MS);
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
      case 'rate_limited':
        return new TransientMessageError(error.message, connectorId, details, waitUntil(error.retryAt));
      case 'transient':
      case 'unreachable':
      case 'auth':
        return new TransientMessageError(error.message, connectorId, details);
      case 'forbidden':
      case 'not_found':
      case 'permanent':
        return new PermanentMessageError(error.atsMessage ?? error.message, connectorId, details);
    }
  }
  return error instanceof Error && 'retryable' in error
    ? (error as MessageHandlingError)
    : new TransientMessageError(error instanceof Error ? error.message : String(error), connectorId);
}
