import {
  type Attributes,
  context,
  type Context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';

export { SpanKind };

/** The tracer every span of ours comes from; the instrumentations (HTTP, Postgres) name their own. */
const TRACER_NAME = 'ats-connector';

let active: TracingHandle | undefined;

export interface TracingHandle {
  /** Sends the spans ended so far. */
  flush(): Promise<void>;
  /** Sends the spans still buffered and stops (at process exit). */
  shutdown(): Promise<void>;
}

/**
 * Starts OpenTelemetry when `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set:
 * spans for our HTTP servers and clients, Postgres, RabbitMQ and ATS calls, sent as OTLP over HTTP (JSON).
 * Without it nothing is loaded: the SDK is imported here, never at module load. Call it before the app
 * opens connections (runService does, first thing), so the HTTP and Postgres modules are patched in time.
 */
export async function startTracing(
  serviceName: string,
  env: NodeJS.ProcessEnv = process.env,
  /** In-process tests: where spans go instead of OTLP (Jest cannot run the OTLP exporter's own imports). */
  exporter?: SpanExporter,
): Promise<TracingHandle | undefined> {
  const endpoint = env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'] || env['OTEL_EXPORTER_OTLP_ENDPOINT'];
  if (!endpoint || env['OTEL_SDK_DISABLED'] === 'true') return undefined;
  if (active) return active;
  const [{ NodeTracerProvider }, { BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }] =
    await Promise.all([
      import('@opentelemetry/sdk-trace-node'),
      import('@opentelemetry/sdk-trace-base'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
    ]);
  const [{ registerInstrumentations }, { HttpInstrumentation }, { PgInstrumentation }] = await Promise.all([
    import('@opentelemetry/instrumentation'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-pg'),
  ]);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env['OTEL_SERVICE_NAME'] || serviceName }),
    // The exporter reads the OTEL_EXPORTER_OTLP_* variables itself (endpoint, headers, timeout).
    spanProcessors: [new BatchSpanProcessor(exporter ?? new OTLPTraceExporter())],
  });
  // W3C trace context as the propagator, AsyncLocalStorage as the context manager.
  provider.register();
  const unload = registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        // Probes and scrapes every few seconds would bury the requests that matter.
        ignoreIncomingRequestHook: (request) => /^\/(health|metrics)\b/.test(request.url ?? ''),
        // The OAuth callback's code and state, and tokens some ATS calls carry in their query.
        redactedQueryParamsServer: SECRET_QUERY_PARAMS,
        redactedQueryParams: SECRET_QUERY_PARAMS,
      }),
      new PgInstrumentation({ requireParentSpan: true }),
    ],
  });
  active = {
    flush: () => provider.forceFlush(),
    shutdown: async () => {
      unload();
      await provider.shutdown();
      active = undefined;
    },
  };
  return active;
}

/** Query parameters whose values never reach a span (the instrumentation's own list, and ours). */
const SECRET_QUERY_PARAMS = [
  'sig',
  'Signature',
  'AWSAccessKeyId',
  'X-Goog-Signature',
  'X-Amz-Signature',
  'X-Amz-Credential',
  'X-Amz-Security-Token',
  'code',
  'state',
  'access_token',
  'refresh_token',
  'client_secret',
  'BhRestToken',
  'password',
  'token',
];

/** Writes the current trace context into message headers (`traceparent`), unless they carry one already. */
export function injectTraceContext(headers: Record<string, unknown>): void {
  if (!active || typeof headers['traceparent'] === 'string') return;
  propagation.inject(context.active(), headers);
}

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** Message headers to continue the trace of (a consumer); otherwise the current context is the parent. */
  parentHeaders?: Record<string, unknown>;
}

/**
 * Runs `work` inside a span that ends when it settles, marked as an error when it throws. With tracing off it
 * just runs `work` (no span object is made).
 */
export function inSpan<T>(
  name: string,
  options: SpanOptions,
  work: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  // Not an async function itself: with tracing off, no promise of its own around `work`'s.
  return active ? inActiveSpan(name, options, work) : work(undefined);
}

async function inActiveSpan<T>(
  name: string,
  options: SpanOptions,
  work: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  const parent: Context = options.parentHeaders
    ? propagation.extract(ROOT_CONTEXT, options.parentHeaders)
    : context.active();
  const span = trace
    .getTracer(TRACER_NAME)
    .startSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes }, parent);
  try {
    return await context.with(trace.setSpan(parent, span), () => work(span));
  } catch (error) {
    span.recordException(error as Error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
    throw error;
  } finally {
    span.end();
  }
}

/** Marks the current span as failed (work that catches its own error, e.g. a handler the transport retries). */
export function markSpanFailed(error: unknown): void {
  if (!active) return;
  const span = trace.getSpan(context.active());
  span?.recordException(error as Error);
  span?.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message ?? String(error) });
}

/** The current trace and span ids, for log lines; undefined with tracing off or outside any span. */
export function currentTraceIds(): { traceId: string; spanId: string } | undefined {
  if (!active) return undefined;
  const spanContext = trace.getSpan(context.active())?.spanContext();
  return spanContext ? { traceId: spanContext.traceId, spanId: spanContext.spanId } : undefined;
}
