import { AuthErrorCode } from '@connector/contracts';
import { RpcError } from '@connector/messaging';
import { RegistryErrorCode, RegistryException } from '../common/registry.exception';

/** The codes a requester sees when nobody answered (see RpcClient). */
const UNANSWERED = new Set(['TIMEOUT', 'NO_RESPONDER', 'UNAVAILABLE', 'NO_HANDLER']);

export function isUnanswered(error: unknown): boolean {
  return error instanceof RpcError && UNANSWERED.has(error.code);
}

/** What an ATS problem reported by auth-gateway means for the admin; undefined for other codes. */
export function atsProblemCode(code: string): RegistryErrorCode | undefined {
  switch (code) {
    case AuthErrorCode.AuthFailed:
      return RegistryErrorCode.AuthFailed;
    case AuthErrorCode.InvalidUrl:
      return RegistryErrorCode.InvalidUrl;
    case AuthErrorCode.Unreachable:
      return RegistryErrorCode.AtsUnreachable;
    case AuthErrorCode.AtsError:
      return RegistryErrorCode.AtsError;
    case AuthErrorCode.UnknownStatuses:
      return RegistryErrorCode.UnknownStatuses;
    default:
      return undefined;
  }
}

/** Turns a failed request to another service into the admin API's error. */
export function dependencyError(error: unknown, service: string): RegistryException {
  if (error instanceof RegistryException) return error;
  if (!(error instanceof RpcError)) {
    return new RegistryException(RegistryErrorCode.Internal, `request to ${service} failed unexpectedly`);
  }
  if (UNANSWERED.has(error.code)) {
    return new RegistryException(
      RegistryErrorCode.DependencyUnavailable,
      `${service} did not answer in time; try again in a moment`,
      { service },
    );
  }
  if (error.code === AuthErrorCode.NotFound) return RegistryException.notFound();
  const code = atsProblemCode(error.code);
  if (code) return new RegistryException(code, error.message);
  return new RegistryException(
    RegistryErrorCode.DependencyUnavailable,
    `${service} could not handle the request (${error.code}); try again in a moment`,
    { service, reason: error.code },
  );
}
