/**
 * A consumer process for poison-messages.int-spec.ts: the real transport on `CONSUMER_QUEUE`, whose handler
 * kills its own process (SIGKILL, no goodbye) on a candidate whose id starts with "poison".
 */
import 'reflect-metadata';
import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type EventEnvelope, Exchange, RoutingKey } from '@connector/contracts';
import { connectRabbitMqConsumer } from '../lib/connect-consumer';
import { MessagingModule } from '../lib/messaging.module';

@Controller()
class CrashingHandler {
  @EventPattern(RoutingKey.CandidateCreated)
  handle(@Payload() event: EventEnvelope<string, { candidateId: string }>): void {
    if (event.data.candidateId.startsWith('poison')) process.kill(process.pid, 'SIGKILL');
    process.stdout.write(`handled ${event.data.candidateId}\n`);
  }
}

@Module({
  imports: [
    MessagingModule.forRootAsync({
      useFactory: () => ({
        url: String(process.env.RABBITMQ_URL),
        serviceName: 'crashing-consumer',
        consumer: {
          queue: String(process.env.CONSUMER_QUEUE),
          bindings: [{ exchange: Exchange.PlatformEvents, routingKeys: [RoutingKey.CandidateCreated] }],
          retryDelaysMs: [200],
          deliveryLimit: Number(process.env.DELIVERY_LIMIT),
          // One message at a time, so the poison never takes a message that is handled fine down with it.
          prefetch: 1,
        },
      }),
    }),
  ],
  controllers: [CrashingHandler],
})
class CrashingModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create(CrashingModule, { logger: ['error', 'warn'] });
  connectRabbitMqConsumer(app);
  await app.startAllMicroservices();
  await app.init();
  process.stdout.write('ready\n');
}

void main();
