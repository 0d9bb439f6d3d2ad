import { AsyncLocalStorage } from 'node:async_hooks';
import { OBSERVABILITY_OFF } from './observability-switch';

/** What every log line written while handling one message (or one run) carries as JSON fields. */
export interface LogContext {
  correlationId?: string;
  messageId?: string;
  eventType?: string;
  accountId?: string;
  connectorId?: string;
  runId?: string;
}

const storage = new AsyncLocalStorage<LogContext>();

/** The fields of the work this code runs for, or undefined outside any. */
export function currentLogContext(): LogContext | undefined {
  return storage.getStore();
}

/**
 * Runs `work` with `fields` added to the current context (a copy: the caller's context is left as it was),
 * e.g. the connector a loop over an account's connectors is working on.
 */
export function withLogContext<T>(fields: LogContext, work: () => T): T {
  if (OBSERVABILITY_OFF) return work();
  return storage.run({ ...storage.getStore(), ...definedOnly(fields) }, work);
}

/**
 * Adds fields to the current context in place, for what is learnt once the work has begun (the envelope's
 * ids after it was parsed). Outside any context it does nothing.
 */
export function addToLogContext(fields: LogContext): void {
  const store = storage.getStore();
  if (store) Object.assign(store, definedOnly(fields));
}

function definedOnly(fields: LogContext): LogContext {
  const out: LogContext = {};
  for (const [key, value] of Object.entries(fields) as Array<[keyof LogContext, string | undefined]>) {
    if (typeof value === 'string' && value !== '') out[key] = value;
  }
  return out;
}
