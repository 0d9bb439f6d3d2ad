import type { LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';
import { currentLogContext, currentTraceIds } from '@connector/observability';
import { redactText, SECRET_KEYS } from './redact';

/**
 * One JSON line per event, secrets redacted by key (objects) and by pattern (messages). A line written while
 * a message or run is handled carries its ids as fields (correlationId, messageId, eventType, accountId,
 * connectorId), and the trace and span ids when tracing is on.
 */
export function createPinoLogger(
  service: string,
  level = 'info',
  destination?: pino.DestinationStream,
): Logger {
  return pino(
    {
      level,
      base: { service },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: SECRET_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`]), censor: '[REDACTED]' },
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => ({ ...currentLogContext(), ...currentTraceIds() }),
      hooks: {
        logMethod(args, method) {
          const scrubbed = args.map((arg: unknown) => (typeof arg === 'string' ? redactText(arg) : arg));
          method.apply(this, scrubbed as Parameters<typeof method>);
        },
      },
    },
    destination,
  );
}

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/** Nest's logger interface over pino, so framework and our own lines come out the same way. */
export class JsonLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(level: Level, message: unknown, params: unknown[]): void {
    // Nest passes the context last; error() may pass a stack before it.
    const context = typeof params[params.length - 1] === 'string' ? (params.pop() as string) : undefined;
    const stack = params.find((p): p is string => typeof p === 'string' && p.includes('\n    at '));
    const fields: Record<string, unknown> = {};
    if (context) fields.context = context;
    if (stack) fields.stack = redactText(stack);
    if (message instanceof Error) {
      this.logger[level](
        { ...fields, err: { message: redactText(message.message), stack: redactText(message.stack ?? '') } },
        redactText(message.message),
      );
    } else if (typeof message === 'object' && message !== null) {
      this.logger[level]({ ...fields, ...message });
    } else {
      this.logger[level](fields, String(message));
    }
  }
}
