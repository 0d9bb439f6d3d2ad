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
    if (exception instanceof RegistryException && exception.retryAfterSeconds !== undefined) {
      response.setHeader('Retry-After', String(exception.retryAfterSeconds));
    }
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
    const clientError = exposedClientError(exception);
    if (clientError) {
      return new RegistryException(
        codeOfHttpStatus(clientError.statusCode) ?? RegistryErrorCode.ValidationFailed,
        clientError.message,
      );
    }
    this.logger.error(exception instanceof Error ? exception : String(exception));
    return new RegistryException(RegistryErrorCode.Internal, 'Something went wrong on our side; try again.');
  }
}

/**
 * An error of the request itself that is not a Nest HttpException but says it may be shown: body-parser's
 * (http-errors: a body over the limit 413, an unknown content encoding or charset 415, a broken gzip/deflate/br
 * body 400), with `expose: true` and a 4xx `statusCode`. Anything else stays a generic 500.
 */
function exposedClientError(exception: unknown): { statusCode: number; message: string } | undefined {
  if (!(exception instanceof Error)) return undefined;
  const { expose, statusCode } = exception as Error & { expose?: unknown; statusCode?: unknown };
  if (expose !== true || typeof statusCode !== 'number' || statusCode < 400 || statusCode > 499) {
    return undefined;
  }
  return { statusCode, message: exception.message || 'The request body could not be read' };
}

/** Nest's own HTTP errors (unknown route, malformed JSON body, body too large); also body-parser's. */
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
