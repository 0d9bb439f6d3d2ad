import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { injectTraceContext, inSpan, SpanKind, startTracing, type TracingHandle } from './tracing';

/** The SDK in this process with the SDK's in-memory exporter; the OTLP/HTTP path is covered end to end. */
describe('tracing', () => {
  let tracing: TracingHandle | undefined;

  afterAll(async () => {
    await tracing?.shutdown();
  });

  it('stays off, with nothing to send, while no OTLP endpoint is configured', async () => {
    expect(await startTracing('test-service', {})).toBeUndefined();
    const headers: Record<string, unknown> = {};
    const result = await inSpan('work', {}, async (span) => {
      injectTraceContext(headers);
      return span;
    });
    expect(result).toBeUndefined();
    expect(headers).toEqual({});
  });

  it('continues the trace of a message from its headers, keeping the traceparent a copy carries', async () => {
    const exporter = new InMemorySpanExporter();
    tracing = await startTracing(
      'test-service',
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' },
      exporter,
    );
    expect(tracing).toBeDefined();
    const headers: Record<string, unknown> = {};
    await inSpan('candidate.created publish', { kind: SpanKind.PRODUCER }, async () => {
      injectTraceContext(headers);
    });
    const original = headers['traceparent'];
    expect(original).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    // A retry or dead-letter copy carries the headers as they were: the same trace, not a new one.
    await inSpan('unrelated', {}, async () => injectTraceContext(headers));
    expect(headers['traceparent']).toBe(original);
    await expect(
      inSpan('candidate.created process', { kind: SpanKind.CONSUMER, parentHeaders: headers }, async () => {
        await inSpan('POST /api/candidates', { kind: SpanKind.CLIENT }, async () => undefined);
        throw new Error('the handler failed');
      }),
    ).rejects.toThrow('the handler failed');
    await tracing?.flush();
    const spans = new Map(exporter.getFinishedSpans().map((span) => [span.name, span]));
    const ids = (name: string) => {
      const span = spans.get(name) as ReadableSpan;
      return {
        trace: span.spanContext().traceId,
        span: span.spanContext().spanId,
        parent: span.parentSpanContext?.spanId,
      };
    };
    const producer = ids('candidate.created publish');
    expect(ids('candidate.created process')).toEqual({
      trace: producer.trace,
      span: expect.any(String),
      parent: producer.span,
    });
    expect(ids('POST /api/candidates')).toMatchObject({
      trace: producer.trace,
      parent: ids('candidate.created process').span,
    });
    expect(spans.get('candidate.created process')?.status.code).toBe(2);
    expect(spans.get('candidate.created process')?.resource.attributes['service.name']).toBe('test-service');
  });
});
