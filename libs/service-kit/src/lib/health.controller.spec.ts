import { Module, ServiceUnavailableException } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TerminusModule, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { RabbitConnection } from '@connector/messaging';
import { HealthController } from './health.controller';

const rabbit = { isConnected: () => true, missingConsumers: (): string[] => [] };

@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController],
  providers: [
    { provide: RabbitConnection, useValue: rabbit },
    {
      provide: TypeOrmHealthIndicator,
      useValue: { pingCheck: () => Promise.resolve({ postgres: { status: 'up' } }) },
    },
  ],
})
class HealthTestModule {}

describe(HealthController.name, () => {
  let sut: HealthController;

  beforeAll(async () => {
    const app = await NestFactory.createApplicationContext(HealthTestModule, { logger: false });
    sut = app.get(HealthController);
  });

  it('is ready while connected with every consumer consuming', async () => {
    rabbit.missingConsumers = () => [];
    await expect(sut.ready()).resolves.toMatchObject({ status: 'ok' });
  });

  it('is not ready while a consumer is missing, and says which and why', async () => {
    rabbit.missingConsumers = () => ['auth-gateway.commands: the broker cancelled it (queue deleted?)'];
    const ready = sut.ready();
    await expect(ready).rejects.toBeInstanceOf(ServiceUnavailableException);
    await expect(ready).rejects.toMatchObject({
      response: {
        error: {
          rabbitmq: {
            status: 'down',
            message: 'consumer missing: auth-gateway.commands: the broker cancelled it (queue deleted?)',
          },
        },
      },
    });
  });
});
