import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Controller, type INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { createEvent, type EventEnvelope, Exchange, Header, RoutingKey } from '@connector/contracts';
import { eventually, rabbitUrl, TestBroker, useTestVhost, WORKSPACE_ROOT } from '@connector/testing';
import { connectRabbitMqConsumer } from './connect-consumer';
import { type DeadLetter, DeadLetterCollector } from './dead-letters';
import { MessagingModule } from './messaging.module';
import { RabbitConnection } from './rabbitmq.connection';
import type { RabbitMqContext } from './rabbitmq.context';
import {
  deadLetterQueueName,
  deliveryLimitPolicyCommand,
  mainQueueArguments,
  retryQueueName,
} from './topology';

// Its own vhost: never the default one, where `npm start` runs (the hermetic guard refuses it).
useTestVhost('poison_messages');

const run = promisify(execFile);

const candidate = (candidateId: string) =>
  createEvent(RoutingKey.CandidateCreated, 'acct_1', {
    candidateId,
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
  });

/** The consumer of crashing-consumer.ts as its own process; its output lines are collected. */
function startConsumer(queue: string, deliveryLimit: number, output: string[]): ChildProcess {
  const child = spawn(
    process.execPath,
    ['-r', '@swc-node/register', join('libs', 'messaging', 'src', 'test', 'crashing-consumer.ts')],
    {
      cwd: WORKSPACE_ROOT,
      env: {
        ...process.env,
        RABBITMQ_URL: rabbitUrl(),
        CONSUMER_QUEUE: queue,
        DELIVERY_LIMIT: String(deliveryLimit),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.on('data', (chunk: Buffer) => output.push(...chunk.toString().split('\n').filter(Boolean)));
  return child;
}

/** The suite's own vhost, for the rabbitmqctl commands a test runs. */
const vhost = (): string => decodeURIComponent(new URL(rabbitUrl()).pathname.slice(1));

describe('poison messages', () => {
  let broker: TestBroker;

  beforeAll(async () => {
    broker = await TestBroker.connect();
  });

  afterAll(async () => {
    await broker.close();
  });

  it('dead-letters a message that kills its consumer every time, after the delivery limit', async () => {
    const queue = `test-poison-${randomUUID().slice(0, 8)}`;
    const deliveryLimit = 2;
    const connection = new RabbitConnection({ url: rabbitUrl(), name: 'poison-collector' });
    const kept: DeadLetter[] = [];
    const collector = new DeadLetterCollector(connection, [queue], async (d) => void kept.push(d));
    const output: string[] = [];
    let consumer: ChildProcess | undefined;
    try {
      consumer = startConsumer(queue, deliveryLimit, output);
      await eventually(() => output.includes('ready'), 30_000, 'the consumer ready');
      collector.start();
      const poison = candidate(`poison-${randomUUID()}`);
      const next = `ok-${randomUUID()}`;
      broker.publish(Exchange.PlatformEvents, RoutingKey.CandidateCreated, poison);
      broker.publish(Exchange.PlatformEvents, RoutingKey.CandidateCreated, candidate(next));

      // Kill, restart, kill…, until the broker gives up on the message and a consumer stays up.
      let crashes = 0;
      for (;;) {
        const current: ChildProcess = consumer;
        const crashed = await eventually(
          () =>
            current.signalCode ? 'crashed' : kept.length > 0 && output.includes('ready') ? 'up' : undefined,
          30_000,
          'a crash, or the dead letter and a consumer up',
        );
        if (crashed === 'up') break;
        expect(current.signalCode).toBe('SIGKILL');
        crashes += 1;
        if (crashes > deliveryLimit + 2) throw new Error(`still crashing after ${crashes} deliveries`);
        output.length = 0;
        consumer = startConsumer(queue, deliveryLimit, output);
      }
      const [deadLetter] = kept;
      // Past the limit: delivered `deliveryLimit` times and redelivered once more.
      expect(crashes).toBe(deliveryLimit + 1);
      expect(deadLetter).toMatchObject({
        queue,
        routingKey: RoutingKey.CandidateCreated,
        messageId: poison.id,
        type: RoutingKey.CandidateCreated,
        accountId: 'acct_1',
        reported: false,
        retryable: true,
      });
      expect(deadLetter.reasons[0]).toMatch(/delivery limit of .*never settled/);
      expect(Math.abs(deadLetter.failedAt.getTime() - Date.now())).toBeLessThan(60_000);
      expect(JSON.parse(deadLetter.body.toString())).toEqual(poison);
      // The consumer lives on and takes the next message.
      await eventually(() => output.includes(`handled ${next}`), 20_000, 'the next message handled');
      expect(kept).toHaveLength(1);
    } finally {
      consumer?.kill('SIGKILL');
      await collector.close();
      await connection.close();
      await broker.deleteQueuesIfPresent([queue, deadLetterQueueName(queue), retryQueueName(queue, 200)]);
    }
  });

  it('keeps a queue declared before the delivery limit working, and says how to set the limit', async () => {
    const queue = `test-old-queue-${randomUUID().slice(0, 8)}`;
    await broker.channel.assertQueue(queue, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
    const connection = new RabbitConnection({ url: rabbitUrl(), name: 'old-queue-probe' });
    try {
      await connection.waitForConnect(5_000);
      expect(await connection.declaresQueueWith(queue, mainQueueArguments({ queue }))).toBe(false);
      // The command the transport logs for it gives the queue the same limit through a policy (here in the
      // suite's vhost: the default one is a running system's).
      const command = deliveryLimitPolicyCommand({ queue, deliveryLimit: 4 });
      await run('sh', [
        '-c',
        command.replace('rabbitmqctl set_policy', `rabbitmqctl set_policy -p ${vhost()}`),
      ]);
      const queues = await run('rabbitmqctl', ['list_queues', '-p', vhost(), '-q', 'name', 'policy']);
      expect(queues.stdout).toContain(`${queue}\t${queue}-delivery-limit`);
      const policies = await run('rabbitmqctl', ['list_policies', '-p', vhost(), '-q']);
      expect(policies.stdout).toContain('"delivery-limit":4');
      expect(policies.stdout).toContain(`"dead-letter-routing-key":"${deadLetterQueueName(queue)}"`);
      const fresh = `${queue}-new`;
      expect(await connection.declaresQueueWith(fresh, mainQueueArguments({ queue: fresh }))).toBe(true);
      expect(await connection.declaresQueueWith(fresh, mainQueueArguments({ queue: fresh }))).toBe(true);
      await broker.deleteQueuesIfPresent([fresh]);
    } finally {
      await run('rabbitmqctl', ['clear_policy', '-p', vhost(), `${queue}-delivery-limit`]).catch(
        () => undefined,
      );
      await connection.close();
      await broker.deleteQueuesIfPresent([queue]);
    }
  });
});

/** What the hanging handler saw; `hang` never ends unless its signal aborts. */
const seen: Array<{ candidateId: string; attempt: number }> = [];
const aborted: string[] = [];

@Controller()
class HangingHandler {
  @EventPattern(RoutingKey.CandidateCreated)
  async handle(
    @Payload() event: EventEnvelope<string, { candidateId: string }>,
    @Ctx() ctx: RabbitMqContext,
  ) {
    const { candidateId } = event.data;
    seen.push({ candidateId, attempt: ctx.getAttempt() });
    if (!candidateId.startsWith('hang')) return;
    await new Promise<void>((resolve) =>
      ctx.getSignal().addEventListener('abort', () => {
        aborted.push(candidateId);
        resolve();
      }),
    );
    await new Promise<never>(() => undefined); // and ignores it: left behind, its message moves on
  }
}

const hangQueue = `test-hang-${randomUUID().slice(0, 8)}`;

@Module({
  imports: [
    MessagingModule.forRootAsync({
      useFactory: () => ({
        url: rabbitUrl(),
        serviceName: 'hang-test',
        consumer: {
          queue: hangQueue,
          bindings: [{ exchange: Exchange.PlatformEvents, routingKeys: [RoutingKey.CandidateCreated] }],
          retryDelaysMs: [100],
          handlerTimeoutMs: 300,
          prefetch: 1,
          drainTimeoutMs: 100,
        },
      }),
    }),
  ],
  controllers: [HangingHandler],
})
class HangingModule {}

describe('handler time limit', () => {
  let app: INestApplication;
  let broker: TestBroker;

  beforeAll(async () => {
    broker = await TestBroker.connect();
    app = await NestFactory.create(HangingModule, { logger: ['error'] });
    connectRabbitMqConsumer(app);
    await app.startAllMicroservices();
    await app.init();
  });

  afterAll(async () => {
    await app?.close();
    await broker.deleteQueuesIfPresent([
      hangQueue,
      deadLetterQueueName(hangQueue),
      retryQueueName(hangQueue, 100),
    ]);
    await broker.close();
  });

  it('fails a hanging handler at its time limit, retries then dead-letters it, and goes on', async () => {
    const hanging = `hang-${randomUUID()}`;
    const next = `next-${randomUUID()}`;
    broker.publish(Exchange.PlatformEvents, RoutingKey.CandidateCreated, candidate(hanging));
    broker.publish(Exchange.PlatformEvents, RoutingKey.CandidateCreated, candidate(next));

    // One message at a time: the next one is handled only because the hanging one was let go.
    await eventually(() => seen.find((s) => s.candidateId === next), 5_000, 'the next message handled');
    const dead = await eventually(
      async () => {
        const messages = await broker.getAll(deadLetterQueueName(hangQueue));
        return messages.length > 0 ? messages : undefined;
      },
      10_000,
      'the hanging message dead-lettered',
    );
    expect(seen.filter((s) => s.candidateId === hanging).map((s) => s.attempt)).toEqual([1, 2]);
    expect(aborted).toEqual([hanging, hanging]);
    expect(JSON.parse(String(dead[0].properties.headers?.[Header.DeadLetterReasons]))[0]).toBe(
      'gave up after 2 attempts: the handler did not finish within 300 ms',
    );
  });
});
