import { type AuthErrorCodeName } from '@connector/contracts';

/** An answer auth-gateway gives instead of a result; `code` travels back to the requester over RPC. */
export class GatewayError extends Error {
  override name = 'GatewayError';
  constructor(
    readonly code: AuthErrorCodeName,
    message: string,
    /** BUSY: when to ask again (jittered); the transport copies it onto the reply. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}
