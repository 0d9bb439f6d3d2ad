import { randomUUID } from 'node:crypto';
import { Controller, type INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EventPattern, Payload } from '@nestjs/microservices';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { register } from 'prom-client';
import { createEvent, type EventEnvelope, Exchange, Header, RoutingKey } from '@connector/contracts';
import {
  currentLogContext,
  type LogContext,
  startTracing,
  type TracingHandle,
} from '@connector/observability';
import { eventually, rabbitUrl, TestBroker, useTestVhost } from '@connector/testing';
import { connectRabbitMqConsumer } from './connect-consumer';
import { DeferredMessageError, PermanentMessageError, TransientMessageError } from './message-errors';
import { MessagePublisher } from './message-publisher';
import { MessagingModule } from './messaging.module';
import { deadLetterQueueName, retryQueueName } from './topology';

// Its own vhost: never the default one, where `npm start` runs (the hermetic guard refuses it).
useTestVhost('message_observer');

/** What the handler does with each candidateId, and what it saw of the log context. */
const behaviour = new Map<string, 'ok' | 'transient' | 'permanent' | 'defer-once'>();
const contexts = new Map<string, LogContext | undefined>();

@Controller()
class TestHandler {
  constructor(private readonly publisher: MessagePublisher) {}

  @EventPattern(RoutingKey.CandidateCreated)
  async handle(@Payload() event: EventEnvelope<string, { candidateId: string }>) {
    const { candidateId } = event.data;
    contexts.set(candidateId, { ...currentLogContext() });
    switch (behaviour.get(candidateId) ?? 'ok') {
      case 'transient':
        throw new TransientMessageError('ATS answered 503', 'conn-1');
      case 'permanent':
        throw new PermanentMessageError('ATS refused the email', 'conn-1');
      case 'defer-once':
        behaviour.set(candidateId, 'ok');
        throw new DeferredMessageError('no budget', new Date(Date.now() + 100), 'conn-1');
      case 'ok':
        // Published without a correlation id: it gets the handled message's.
        await this.publisher.publish(
          Exchange.ConnectorEvents,
          createEvent(RoutingKey.CandidateSynced, event.accountId, {
            connectorId: 'conn-1',
            candidateId,
            externalId: '42',
            action: 'created',
          }),
        );
    }
  }
}

const queue = `test-observer-${randomUUID().slice(0, 8)}`;
const delays = [100, 200];

@Module({
  imports: [
    MessagingModule.forRootAsync({
      useFactory: () => ({
        url: rabbitUrl(),
        serviceName: 'observer-test',
        consumer: {
          queue,
          bindings: [{ exchange: Exchange.PlatformEvents, routingKeys: [RoutingKey.CandidateCreated] }],
          retryDelaysMs: delays,
        },
      }),
    }),
  ],
  controllers: [TestHandler],
})
class TestModule {}

const candidate = (candidateId: string, correlationId?: string) =>
  createEvent(
    RoutingKey.CandidateCreated,
    'acct_obs',
    { candidateId, firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
    correlationId ? { correlationId } : {},
  );

/** A counter's value for the labels given (0 when it has none yet). */
async function value(name: string, labels: Record<string, string>): Promise<number> {
  const metric = register.getSingleMetric(name);
  const values = metric ? (await metric.get()).values : [];
  const match = values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l));
  return match?.value ?? 0;
}

describe('the transport, observed', () => {
  let app: INestApplication;
  let broker: TestBroker;
  let synced: Awaited<ReturnType<TestBroker['tap']>>;
  let tracing: TracingHandle | undefined;
  const exporter = new InMemorySpanExporter();
  const labels = { queue, event_type: RoutingKey.CandidateCreated };

  beforeAll(async () => {
    tracing = await startTracing(
      'observer-test',
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' },
      exporter,
    );
    broker = await TestBroker.connect();
    synced = await broker.tap(Exchange.ConnectorEvents, RoutingKey.CandidateSynced);
    app = await NestFactory.create(TestModule, { logger: ['error'] });
    connectRabbitMqConsumer(app);
    await app.startAllMicroservices();
    await app.init();
  });

  afterAll(async () => {
    await app?.close();
    await tracing?.shutdown();
    await broker.deleteQueues([
      queue,
      deadLetterQueueName(queue),
      ...delays.map((d) => retryQueueName(queue, d)),
    ]);
    await broker.close();
  });

  it("gives the handler the message's ids as log context and copies its correlation id onto what it publishes", async () => {
    const event = candidate(`ok-${randomUUID()}`, 'corr-observed');
    broker.channel.publish(Exchange.PlatformEvents, event.type, Buffer.from(JSON.stringify(event)), {
      messageId: event.id,
    });
    const out = await eventually(
      () => synced.find((m) => m.content.toString().includes(event.data.candidateId)),
      5_000,
      'candidate.synced',
    );
    expect(contexts.get(event.data.candidateId)).toEqual({
      messageId: event.id,
      eventType: RoutingKey.CandidateCreated,
      correlationId: 'corr-observed',
      accountId: 'acct_obs',
    });
    expect(JSON.parse(out.content.toString())).toMatchObject({ correlationId: 'corr-observed' });
  });

  it('counts what it did with each message: handled, retried, deferred, dead-lettered by reason', async () => {
    const before = {
      handled: await value('connector_messages_handled_total', labels),
      retried: await value('connector_messages_retried_total', labels),
      deferred: await value('connector_messages_deferred_total', labels),
      invalid: await value('connector_messages_dead_lettered_total', { ...labels, reason: 'invalid' }),
      permanent: await value('connector_messages_dead_lettered_total', { ...labels, reason: 'permanent' }),
      exhausted: await value('connector_messages_dead_lettered_total', {
        ...labels,
        reason: 'attempts_exhausted',
      }),
    };
    const ids = {
      transient: `t-${randomUUID()}`,
      permanent: `p-${randomUUID()}`,
      defer: `d-${randomUUID()}`,
    };
    behaviour.set(ids.transient, 'transient');
    behaviour.set(ids.permanent, 'permanent');
    behaviour.set(ids.defer, 'defer-once');
    for (const id of [...Object.values(ids), `ok-${randomUUID()}`]) {
      broker.publish(Exchange.PlatformEvents, RoutingKey.CandidateCreated, candidate(id));
    }
    broker.publish(Exchange.PlatformEvents, RoutingKey.CandidateCreated, '{ not json');

    const after = async () => ({
      handled: (await value('connector_messages_handled_total', labels)) - before.handled,
      retried: (await value('connector_messages_retried_total', labels)) - before.retried,
      deferred: (await value('connector_messages_deferred_total', labels)) - before.deferred,
      invalid:
        (await value('connector_messages_dead_lettered_total', { ...labels, reason: 'invalid' })) -
        before.invalid,
      permanent:
        (await value('connector_messages_dead_lettered_total', { ...labels, reason: 'permanent' })) -
        before.permanent,
      exhausted:
        (await value('connector_messages_dead_lettered_total', { ...labels, reason: 'attempts_exhausted' })) -
        before.exhausted,
    });
    const expected = { handled: 2, retried: 2, deferred: 1, invalid: 1, permanent: 1, exhausted: 1 };
    await eventually(
      async () => JSON.stringify(await after()) === JSON.stringify(expected),
      10_000,
      'the counts',
    );
    expect(await after()).toEqual(expected);
    const text = await register.metrics();
    expect(text).toMatch(
      new RegExp(
        `connector_message_handler_duration_seconds_count\\{queue="${queue}",event_type="candidate.created",outcome="failure"\\} [1-9]`,
      ),
    );
  });

  it("reports the queue's depth and consumers from the broker", async () => {
    const text = await register.metrics();
    expect(text).toContain(`connector_queue_consumers{queue="${queue}"} 1`);
    expect(text).toMatch(new RegExp(`connector_queue_messages\\{queue="${queue}"\\} \\d+`));
    expect(text).toMatch(
      new RegExp(`connector_queue_messages\\{queue="${deadLetterQueueName(queue)}"\\} \\d+`),
    );
  });

  it('continues the trace the publisher started; a retried message stays in that trace', async () => {
    const traceId = randomUUID().replaceAll('-', '');
    const traceparent = `00-${traceId}-${'1'.repeat(16)}-01`;
    const id = `traced-${randomUUID()}`;
    behaviour.set(id, 'transient');
    const event = candidate(id);
    broker.channel.publish(Exchange.PlatformEvents, event.type, Buffer.from(JSON.stringify(event)), {
      headers: { traceparent },
    });
    const dead = await eventually(
      async () =>
        (await broker.getAll(deadLetterQueueName(queue))).find((m) => m.content.toString().includes(id)),
      10_000,
      'the dead letter',
    );
    expect(dead.properties.headers?.['traceparent']).toBe(traceparent);
    expect(dead.properties.headers?.[Header.Attempt]).toBe(3);
    await tracing?.flush();
    const spans = exporter
      .getFinishedSpans()
      .filter((span) => span.spanContext().traceId === traceId && span.name === 'candidate.created process');
    // Three attempts, each a consumer span whose parent is the publisher's span, each marked failed.
    expect(spans.map((span) => span.parentSpanContext?.spanId)).toEqual([
      '1'.repeat(16),
      '1'.repeat(16),
      '1'.repeat(16),
    ]);
    expect(spans.map((span) => span.status.code)).toEqual([2, 2, 2]);
  });
});
