import type { IncomingMessage, ServerResponse } from 'node:http';
import { Logger } from '@nestjs/common';
import { counter, histogram, LATENCY_BUCKETS_SECONDS, statusClass } from '@connector/observability';

const LABELS = ['method', 'route', 'status_class'] as const;

const httpRequests = counter({
  name: 'connector_http_requests_total',
  help: 'HTTP requests answered, by method, route template and status class',
  labelNames: LABELS,
});

const httpDuration = histogram({
  name: 'connector_http_request_duration_seconds',
  help: 'Time to answer an HTTP request, by method, route template and status class',
  labelNames: LABELS,
  buckets: LATENCY_BUCKETS_SECONDS,
});

/** Probes and scrapes come every few seconds: logged at debug, still counted. */
const QUIET_ROUTES = /^\/(health|metrics)\b/;

type Request = IncomingMessage & { route?: { path?: unknown }; baseUrl?: string; path?: string };
type Next = (error?: unknown) => void;

/**
 * Express middleware: each answered request becomes one log line (method, route, status, duration) and a
 * count and latency by route template (`/api/v1/connectors/:id`, never the ids, nor the query with its codes).
 */
export function httpObserver(logger: Pick<Logger, 'log' | 'debug'> = new Logger('Http')) {
  return (request: Request, response: ServerResponse, next: Next): void => {
    const started = process.hrtime.bigint();
    response.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = routeOf(request);
      const labels = {
        method: request.method ?? 'OTHER',
        route,
        status_class: statusClass(response.statusCode),
      };
      httpRequests.inc(labels);
      httpDuration.observe(labels, seconds);
      const line = {
        msg: `${labels.method} ${route} ${response.statusCode}`,
        method: labels.method,
        route,
        status: response.statusCode,
        durationMs: Math.round(seconds * 1_000_000) / 1_000,
      };
      if (QUIET_ROUTES.test(route)) logger.debug(line);
      else logger.log(line);
    });
    next();
  };
}

/** The route the request matched, as declared; 'unmatched' for a 404 that matched none. */
function routeOf(request: Request): string {
  const path = request.route?.path;
  return typeof path === 'string' ? `${request.baseUrl ?? ''}${path}` : 'unmatched';
}
