import {
  collectDefaultMetrics,
  Counter,
  type CounterConfiguration,
  Gauge,
  type GaugeConfiguration,
  Histogram,
  type HistogramConfiguration,
  register,
} from 'prom-client';
import { OBSERVABILITY_OFF } from './observability-switch';

/**
 * Metrics live in prom-client's default registry, declared beside the code that records them (the transport,
 * the ATS clients, the budgets): those are plain classes built outside Nest's injector, so a module-level
 * metric reaches them where an injected one would not. `/metrics` (service-kit) serves the registry.
 * Every name starts with `connector_`; labels are low-cardinality (types, queues, outcomes, never an id).
 */

/** Handler and HTTP latencies, 5 ms to a minute. */
export const LATENCY_BUCKETS_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * What the helpers hand out with OBSERVABILITY=off: every recording method of a metric, doing nothing. Cast to
 * prom-client's classes below: the services only call these methods, and a real metric would register itself.
 */
const NOTHING = {
  inc: () => undefined,
  dec: () => undefined,
  set: () => undefined,
  observe: () => undefined,
  reset: () => undefined,
  remove: () => undefined,
  zero: () => undefined,
  labels: (): unknown => NOTHING,
  startTimer: () => () => 0,
};

// Declared once per process: a second declaration of a name (a module loaded twice) gets the first metric.
export function counter<L extends string>(config: CounterConfiguration<L>): Counter<L> {
  if (OBSERVABILITY_OFF) return NOTHING as unknown as Counter<L>;
  return (register.getSingleMetric(config.name) as Counter<L> | undefined) ?? new Counter(config);
}

export function gauge<L extends string>(config: GaugeConfiguration<L>): Gauge<L> {
  if (OBSERVABILITY_OFF) return NOTHING as unknown as Gauge<L>;
  return (register.getSingleMetric(config.name) as Gauge<L> | undefined) ?? new Gauge(config);
}

export function histogram<L extends string>(config: HistogramConfiguration<L>): Histogram<L> {
  if (OBSERVABILITY_OFF) return NOTHING as unknown as Histogram<L>;
  return (register.getSingleMetric(config.name) as Histogram<L> | undefined) ?? new Histogram(config);
}

/** 200 → '2xx'; an answer that never came is counted by the caller under its own class ('error'). */
export function statusClass(status: number): string {
  return status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : 'other';
}

/** CPU, memory, event-loop lag, GC and handles (`process_*`, `nodejs_*`), registered once per process. */
export function collectProcessMetrics(): void {
  if (register.getSingleMetric('process_cpu_user_seconds_total')) return;
  collectDefaultMetrics({ register });
}
