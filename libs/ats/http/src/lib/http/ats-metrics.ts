import { counter, histogram, statusClass } from '@connector/observability';

const LABELS = ['ats', 'endpoint', 'status_class'] as const;

const atsRequests = counter({
  name: 'connector_ats_requests_total',
  help: "Calls to an ATS's API, by ATS, endpoint template and status class (timeout and network_error when no answer came)",
  labelNames: LABELS,
});

const atsDuration = histogram({
  name: 'connector_ats_request_duration_seconds',
  help: 'Time an ATS took to answer a call (body included), by ATS, endpoint template and status class',
  labelNames: LABELS,
  buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
});

/**
 * One ATS call, counted: `ats` is 'ats-a' or 'ats-b', `endpoint` the client's template ('PATCH
 * /api/candidates/{id}', never an id), `outcome` an HTTP status or why none came ('timeout', 'network_error').
 */
export function countAtsCall(
  atsName: string,
  endpoint: string,
  outcome: number | string,
  seconds: number,
): void {
  const labels = {
    ats: atsName.toLowerCase(),
    endpoint,
    status_class: typeof outcome === 'number' ? statusClass(outcome) : outcome,
  };
  atsRequests.inc(labels);
  atsDuration.observe(labels, seconds);
}
