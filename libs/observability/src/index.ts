/**
 * @connector/observability: what every service reports about its work, by concern.
 * - Log context: the ids of the message (or run) being handled, as fields of every log line (AsyncLocalStorage).
 * - Metrics: prom-client's default registry, process metrics, helpers that keep names and labels in one style.
 * - OBSERVABILITY=off (benchmarks only) turns metrics and log context off: observability-switch.ts.
 * - Traces: OpenTelemetry, started only when OTEL_EXPORTER_OTLP_ENDPOINT is set; spans and header propagation.
 */
export * from './lib/log-context';
export * from './lib/metrics';
export * from './lib/tracing';
