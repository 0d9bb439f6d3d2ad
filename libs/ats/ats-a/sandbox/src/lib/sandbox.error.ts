/** Failure codes of the sandbox's API; mapped to HTTP status in one place ({@link httpStatusOf}). */
export enum SandboxErrorCode {
  Validation = 'VALIDATION',
  Unauthorized = 'UNAUTHORIZED',
  Forbidden = 'FORBIDDEN',
  NotFound = 'NOT_FOUND',
  /** Admin surface only: e.g. a tenant name in use. */
  Conflict = 'CONFLICT',
  PayloadTooLarge = 'PAYLOAD_TOO_LARGE',
  RateLimited = 'RATE_LIMITED',
  Transient = 'TRANSIENT',
  Unavailable = 'UNAVAILABLE',
}

export class SandboxError extends Error {
  constructor(
    readonly code: SandboxErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SandboxError';
  }
}

/** OAuth errors of the token endpoint, which answer `{"error": "<code>"}` instead of `error_message`. */
export type OAuthErrorCode =
  'invalid_client' | 'unsupported_grant_type' | 'invalid_request' | 'invalid_scope';

export class OAuthError extends Error {
  constructor(readonly code: OAuthErrorCode) {
    super(code);
    this.name = 'OAuthError';
  }

  get status(): number {
    return this.code === 'invalid_client' ? 401 : 400;
  }
}

export function httpStatusOf(code: SandboxErrorCode): number {
  switch (code) {
    case SandboxErrorCode.Validation:
      return 400;
    case SandboxErrorCode.Unauthorized:
      return 401;
    case SandboxErrorCode.Forbidden:
      return 403;
    case SandboxErrorCode.NotFound:
      return 404;
    case SandboxErrorCode.Conflict:
      return 409;
    case SandboxErrorCode.PayloadTooLarge:
      return 413;
    case SandboxErrorCode.RateLimited:
      return 429;
    case SandboxErrorCode.Transient:
      return 500;
    case SandboxErrorCode.Unavailable:
      return 503;
  }
}

export const validation = (message: string): SandboxError =>
  new SandboxError(SandboxErrorCode.Validation, message);
export const notFound = (message: string): SandboxError =>
  new SandboxError(SandboxErrorCode.NotFound, message);
