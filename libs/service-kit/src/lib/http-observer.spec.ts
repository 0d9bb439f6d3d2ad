import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { register } from 'prom-client';
import { httpObserver } from './http-observer';

function exchange(request: Record<string, unknown>, statusCode: number) {
  const lines: Array<{ level: string; line: Record<string, unknown> }> = [];
  const logger = {
    log: (line: Record<string, unknown>) => lines.push({ level: 'info', line }),
    debug: (line: Record<string, unknown>) => lines.push({ level: 'debug', line }),
  };
  const response = Object.assign(new EventEmitter(), { statusCode });
  let nextCalled = false;
  httpObserver(logger)(
    request as unknown as IncomingMessage,
    response as unknown as ServerResponse,
    () => (nextCalled = true),
  );
  response.emit('finish');
  return { lines, nextCalled };
}

describe(httpObserver.name, () => {
  it('logs method, route template, status and duration, and counts by route and status class', async () => {
    const { lines, nextCalled } = exchange(
      { method: 'GET', url: '/api/v1/connectors/c-123?x=1', route: { path: '/api/v1/connectors/:id' } },
      404,
    );
    expect(nextCalled).toBe(true);
    expect(lines).toEqual([
      {
        level: 'info',
        line: {
          msg: 'GET /api/v1/connectors/:id 404',
          method: 'GET',
          route: '/api/v1/connectors/:id',
          status: 404,
          durationMs: expect.any(Number),
        },
      },
    ]);
    const metrics = await register.getSingleMetricAsString('connector_http_requests_total');
    expect(metrics).toContain(
      'connector_http_requests_total{method="GET",route="/api/v1/connectors/:id",status_class="4xx"} 1',
    );
    expect(metrics).not.toContain('c-123');
  });

  it('names requests that matched no route "unmatched", and keeps probes at debug level', () => {
    expect(exchange({ method: 'GET', url: '/nope' }, 404).lines[0]?.line['route']).toBe('unmatched');
    expect(exchange({ method: 'GET', url: '/health', route: { path: '/health' } }, 200).lines[0]?.level).toBe(
      'debug',
    );
  });
});
