import type { ConsumeMessage } from 'amqplib';
import { Header, RoutingKey } from '@connector/contracts';
import {
  addToLogContext,
  counter,
  currentLogContext,
  gauge,
  histogram,
  inSpan,
  LATENCY_BUCKETS_SECONDS,
  SpanKind,
  withLogContext,
} from '@connector/observability';
import { attemptNumber } from './retry-policy';

const KNOWN_TYPES = new Set<string>(Object.values(RoutingKey));

/** A routing key as a label: one of ours, or 'unknown' (anyone can publish any key; labels stay few). */
export function eventTypeLabel(routingKey: string): string {
  return KNOWN_TYPES.has(routingKey) ? routingKey : 'unknown';
}

const LABELS = ['queue', 'event_type'] as const;

/** Why a message went to the dead-letter queue. */
export type DeadLetterReason = 'invalid' | 'no_handler' | 'permanent' | 'attempts_exhausted';

const handled = counter({
  name: 'connector_messages_handled_total',
  help: 'Messages handled and acknowledged (requests answered included), by queue and event type',
  labelNames: LABELS,
});
const retried = counter({
  name: 'connector_messages_retried_total',
  help: 'Messages whose handler failed, sent to a delay queue for another attempt',
  labelNames: LABELS,
});
const deferred = counter({
  name: 'connector_messages_deferred_total',
  help: 'Messages sent back to wait (e.g. for ATS budget) without using up an attempt',
  labelNames: LABELS,
});
const deadLettered = counter({
  name: 'connector_messages_dead_lettered_total',
  help: 'Messages moved to the dead-letter queue, by reason: invalid, no_handler, permanent, attempts_exhausted',
  labelNames: [...LABELS, 'reason'],
});
const requestErrors = counter({
  name: 'connector_request_errors_total',
  help: 'Requests (request-reply) answered with an error, by queue, request type and error code',
  labelNames: [...LABELS, 'code'],
});
const handlerDuration = histogram({
  name: 'connector_message_handler_duration_seconds',
  help: 'Time a handler took with one message, by queue, event type and outcome (success, failure)',
  labelNames: [...LABELS, 'outcome'],
  buckets: LATENCY_BUCKETS_SECONDS,
});

const overflowDeferred = counter({
  name: 'connector_messages_overflow_deferred_total',
  help: "Messages deferred on arrival because their key's lane (e.g. one account's) already held its share of the buffer",
  labelNames: LABELS,
});

/** What a consumer says about its slots when /metrics is scraped. */
export interface ConsumerSaturation {
  slots: number;
  running: number;
  buffered: number;
  lanesWaiting: number;
  /** Per request type: its slots and how many are busy. */
  requests: Array<{ routingKey: string; slots: number; running: number }>;
}

const saturationSources = new Map<string, () => ConsumerSaturation>();

/** A gauge per queue (or per queue and request type) read from the live consumers when scraped. */
function saturationGauge(name: string, help: string, read: (stats: ConsumerSaturation) => number): void {
  const metric = gauge({
    name,
    help,
    labelNames: ['queue'],
    collect() {
      metric.reset();
      for (const [queue, stats] of saturationSources) metric.set({ queue }, read(stats()));
    },
  });
}
saturationGauge(
  'connector_consumer_handler_slots',
  'Handlers a consumer may run at once (CONCURRENCY)',
  (s) => s.slots,
);
saturationGauge(
  'connector_consumer_handler_slots_busy',
  'Handlers of a consumer running now (of its CONCURRENCY)',
  (s) => s.running,
);
saturationGauge(
  'connector_consumer_messages_buffered',
  'Messages delivered and waiting in their lane for a handler slot',
  (s) => s.buffered,
);
saturationGauge(
  'connector_consumer_lanes_waiting',
  'Keys (e.g. accounts) with messages waiting for a handler slot; counted, never named',
  (s) => s.lanesWaiting,
);
function requestGauge(
  name: string,
  help: string,
  read: (slots: { slots: number; running: number }) => number,
) {
  const metric = gauge({
    name,
    help,
    labelNames: LABELS,
    collect() {
      metric.reset();
      for (const [queue, stats] of saturationSources) {
        for (const request of stats().requests) {
          metric.set({ queue, event_type: eventTypeLabel(request.routingKey) }, read(request));
        }
      }
    },
  });
}
requestGauge(
  'connector_request_slots',
  'Requests of a type a consumer may handle at once (more are answered BUSY)',
  (r) => r.slots,
);
requestGauge('connector_request_slots_busy', 'Requests of a type being handled now', (r) => r.running);

/** Reports a consumer's slots in the saturation gauges until the returned function is called. */
export function watchSaturation(queue: string, read: () => ConsumerSaturation): () => void {
  saturationSources.set(queue, read);
  return () => {
    if (saturationSources.get(queue) === read) saturationSources.delete(queue);
  };
}

/** What the transport reports about each message it settles (counters and handler latency). */
export const messageMetrics = {
  handled(queue: string, routingKey: string, seconds: number): void {
    const labels = { queue, event_type: eventTypeLabel(routingKey) };
    handled.inc(labels);
    handlerDuration.observe({ ...labels, outcome: 'success' }, seconds);
  },
  failed(queue: string, routingKey: string, seconds: number): void {
    handlerDuration.observe({ queue, event_type: eventTypeLabel(routingKey), outcome: 'failure' }, seconds);
  },
  retried(queue: string, routingKey: string): void {
    retried.inc({ queue, event_type: eventTypeLabel(routingKey) });
  },
  deferred(queue: string, routingKey: string): void {
    deferred.inc({ queue, event_type: eventTypeLabel(routingKey) });
  },
  deadLettered(queue: string, routingKey: string, reason: DeadLetterReason): void {
    deadLettered.inc({ queue, event_type: eventTypeLabel(routingKey), reason });
  },
  overflowDeferred(queue: string, routingKey: string): void {
    const labels = { queue, event_type: eventTypeLabel(routingKey) };
    deferred.inc(labels);
    overflowDeferred.inc(labels);
  },
  requestFailed(queue: string, routingKey: string, code: string, seconds: number): void {
    const labels = { queue, event_type: eventTypeLabel(routingKey) };
    requestErrors.inc({ ...labels, code: /^[A-Z_]{1,40}$/.test(code) ? code : 'OTHER' });
    handlerDuration.observe({ ...labels, outcome: 'failure' }, seconds);
  },
};

/**
 * The key a message was published with: `x-original-routing-key` on our retry and dead-letter copies (a
 * string, or it is ignored: a header is whatever its publisher wrote), else the delivery's own.
 */
export function routingKeyOf(message: ConsumeMessage): string {
  const original: unknown = message.properties.headers?.[Header.OriginalRoutingKey];
  return typeof original === 'string' ? original : message.fields.routingKey;
}

/**
 * The handling of one delivered message, observed: its log lines carry the message's ids (see noteEnvelope
 * for those read from the body), and with tracing on it is a consumer span continuing the publisher's trace
 * from the `traceparent` header (which retry and dead-letter copies keep).
 */
export function inMessageScope(
  queue: string,
  message: ConsumeMessage,
  work: () => Promise<void>,
): Promise<void> {
  const headers = (message.properties.headers ?? {}) as Record<string, unknown>;
  const routingKey = routingKeyOf(message);
  const messageId =
    typeof message.properties.messageId === 'string' ? message.properties.messageId : undefined;
  return withLogContext({ messageId, eventType: routingKey }, () =>
    inSpan(
      `${eventTypeLabel(routingKey)} process`,
      {
        kind: SpanKind.CONSUMER,
        parentHeaders: headers,
        attributes: {
          'messaging.system': 'rabbitmq',
          'messaging.operation.type': 'process',
          'messaging.destination.name': queue,
          'messaging.rabbitmq.destination.routing_key': routingKey,
          ...(messageId ? { 'messaging.message.id': messageId } : {}),
          'messaging.rabbitmq.attempt': attemptNumber(headers[Header.Attempt]),
        },
      },
      work,
    ),
  );
}

/**
 * The parsed envelope's ids join the log context: the correlation id is the message's own id when it has
 * none, and the envelope's id stands for the AMQP message id when the publisher set none.
 */
export function noteEnvelope(value: unknown): void {
  if (typeof value !== 'object' || value === null) return;
  const envelope = value as { id?: unknown; correlationId?: unknown; accountId?: unknown; data?: unknown };
  const text = (field: unknown) => (typeof field === 'string' ? field : undefined);
  const data = (typeof envelope.data === 'object' && envelope.data !== null ? envelope.data : {}) as {
    connectorId?: unknown;
  };
  addToLogContext({
    messageId: currentLogContext()?.messageId ? undefined : text(envelope.id),
    correlationId: text(envelope.correlationId) ?? text(envelope.id),
    accountId: text(envelope.accountId),
    connectorId: text(data.connectorId),
  });
}

/** An envelope published while handling a message carries its correlation id, unless it names its own. */
export function withCorrelation<T extends { correlationId?: string }>(envelope: T): T {
  if (envelope.correlationId) return envelope;
  const correlationId = currentLogContext()?.correlationId;
  return correlationId ? { ...envelope, correlationId } : envelope;
}
