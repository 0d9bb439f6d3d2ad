/** Every error the admin API answers with; mapped to an HTTP status in one place (RegistryExceptionFilter). */
export enum RegistryErrorCode {
  ValidationFailed = 'VALIDATION_FAILED',
  InvalidMapping = 'INVALID_MAPPING',
  /** Only an ATS with an interactive login is authorized by logging in (was NOT_ATS_B). */
  NotInteractiveLogin = 'NOT_INTERACTIVE_LOGIN',
  /** Only an ATS with a daily call budget has one to show (was NOT_ATS_A). */
  NoDailyBudget = 'NO_DAILY_BUDGET',
  Unauthorized = 'UNAUTHORIZED',
  NotFound = 'NOT_FOUND',
  MethodNotAllowed = 'METHOD_NOT_ALLOWED',
  InvalidStatusChange = 'INVALID_STATUS_CHANGE',
  ConnectorNotConnected = 'CONNECTOR_NOT_CONNECTED',
  RunInProgress = 'RUN_IN_PROGRESS',
  /** The account has as many connectors as it may. */
  ConnectorLimit = 'CONNECTOR_LIMIT',
  /** The account has as many runs going as it may at once (Retry-After says when to ask again). */
  RunLimit = 'RUN_LIMIT',
  NotReplayable = 'NOT_REPLAYABLE',
  PayloadTooLarge = 'PAYLOAD_TOO_LARGE',
  TooManyRequests = 'TOO_MANY_REQUESTS',
  AuthFailed = 'AUTH_FAILED',
  InvalidUrl = 'INVALID_URL',
  AtsUnreachable = 'ATS_UNREACHABLE',
  AtsError = 'ATS_ERROR',
  UnknownStatuses = 'UNKNOWN_STATUSES',
  DependencyUnavailable = 'DEPENDENCY_UNAVAILABLE',
  Internal = 'INTERNAL',
}

export type ErrorDetails = Record<string, unknown> | unknown[];

export class RegistryException extends Error {
  constructor(
    readonly code: RegistryErrorCode,
    message: string,
    readonly details?: ErrorDetails,
    /** Sent as Retry-After with a 429 or 503: when asking again may succeed. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'RegistryException';
  }

  static notFound(what = 'connector'): RegistryException {
    return new RegistryException(RegistryErrorCode.NotFound, `${what} not found`);
  }
}

/** The body of every error response. */
export interface ErrorBody {
  statusCode: number;
  code: RegistryErrorCode;
  message: string;
  details?: ErrorDetails;
}

/** The one exhaustive code → HTTP status table. */
export function httpStatusOf(code: RegistryErrorCode): number {
  switch (code) {
    case RegistryErrorCode.ValidationFailed:
    case RegistryErrorCode.InvalidMapping:
    case RegistryErrorCode.NotInteractiveLogin:
    case RegistryErrorCode.NoDailyBudget:
      return 400;
    case RegistryErrorCode.Unauthorized:
      return 401;
    case RegistryErrorCode.NotFound:
      return 404;
    case RegistryErrorCode.MethodNotAllowed:
      return 405;
    case RegistryErrorCode.InvalidStatusChange:
    case RegistryErrorCode.ConnectorNotConnected:
    case RegistryErrorCode.RunInProgress:
    case RegistryErrorCode.NotReplayable:
      return 409;
    case RegistryErrorCode.PayloadTooLarge:
      return 413;
    case RegistryErrorCode.TooManyRequests:
    case RegistryErrorCode.RunLimit:
      return 429;
    case RegistryErrorCode.AuthFailed:
    case RegistryErrorCode.InvalidUrl:
    case RegistryErrorCode.AtsUnreachable:
    case RegistryErrorCode.AtsError:
    case RegistryErrorCode.UnknownStatuses:
    case RegistryErrorCode.ConnectorLimit:
      return 422;
    case RegistryErrorCode.DependencyUnavailable:
      return 503;
    case RegistryErrorCode.Internal:
      return 500;
  }
}
