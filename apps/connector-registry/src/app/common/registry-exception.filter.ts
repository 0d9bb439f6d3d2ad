import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { type ErrorBody, httpStatusOf, RegistryErrorCode, RegistryException } from './registry.exception';

/**
 * The edge of the admin API: every error becomes `{statusCode, code, message, details?}`. Framework errors
 * (unknown route, bad JSON) get a code too; anything unexpected is logged and answered with a generic 500,
 * never its message or stack.
 */
@Catch()
export class RegistryExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger(RegistryExceptionFilter.name);

  catch(exception: unknown, host: ArgumentsHost): void {
    const body = this.toBody(exception);
    const response = host.switchToHttp().getResponse<Response>();
    if (response.headersSent) return;
    response.status(body.statusCode).json(body);
  }

  toBody(exception: unknown): ErrorBody {
    const error = this.toRegistryException(exception);
    return {
      statusCode: httpStatusOf(error.code),
      code: error.code,
      message: error.message,
      ...(error.details !== undefined ? { details: error.details } : {}),
    };
  }

  private toRegistryException(exception: unknown): RegistryException {
    if (exception instanceof RegistryException) return exception;
    if (exception instanceof HttpException) {
      const code = codeOfHttpStatus(exception.getStatus());
      if (code) return new RegistryException(code, messageOf(exception));
    }
    this.logger.error(exception instanceof Error ? exception : String(exception));
    return new RegistryException(RegistryErrorCode.Internal, 'Something went wrong on our side; try again.');
  }
}

/** Nest's own HTTP errors (unknown route, malformed JSON body, body too large). */
function codeOfHttpStatus(status: number): RegistryErrorCode | undefined {
  switch (status) {
    case 400:
      return RegistryErrorCode.ValidationFailed;
    case 401:
      return RegistryErrorCode.Unauthorized;
    case 404:
      return RegistryErrorCode.NotFound;
    case 405:
      return RegistryErrorCode.MethodNotAllowed;
    case 413:
      return RegistryErrorCode.PayloadTooLarge;
    default:
      return undefined;
  }
}

function messageOf(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (typeof message === 'string') return message;
  if (Array.isArray(message)) return message.map(String).join('; ');
  return exception.message;
}
