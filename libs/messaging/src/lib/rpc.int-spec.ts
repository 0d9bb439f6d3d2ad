import { randomUUID } from 'node:crypto';
import { Controller, type INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { createEvent, type EventEnvelope, Exchange, RoutingKey } from '@connector/contracts';
import { rabbitUrl, TestBroker, useTestVhost } from '@connector/testing';
import { connectRabbitMqConsumer } from './connect-consumer';
import { MessagingModule } from './messaging.module';
import { RpcClient } from './rpc';
import { deadLetterQueueName, retryQueueName } from './topology';

// Its own vhost: never the default one, where `npm start` runs (the hermetic guard refuses it).
useTestVhost('rpc');

const queue = `test-rpc-${randomUUID().slice(0, 8)}`;

class CodedError extends Error {
  readonly code = 'AUTH_FAILED';
}

@Controller()
class Responder {
  @MessagePattern(RoutingKey.CredentialsRequested)
  async answer(@Payload() request: EventEnvelope<string, { connectorId: string }>) {
    const { connectorId } = request.data;
    if (connectorId === 'revoked') throw new CodedError('the customer must authorize again');
    if (connectorId === 'slow') await new Promise((resolve) => setTimeout(resolve, 1_000));
    return { accessToken: `token-for-${connectorId}` };
  }
}

@Module({
  imports: [
    MessagingModule.forRootAsync({
      useFactory: () => ({
        url: rabbitUrl(),
        serviceName: 'document-service', // its reply queues are one of our services'
        consumer: {
          queue,
          bindings: [{ exchange: Exchange.Internal, routingKeys: [RoutingKey.CredentialsRequested] }],
          retryDelaysMs: [1_000],
        },
      }),
    }),
  ],
  controllers: [Responder],
})
class ResponderModule {}

const request = (connectorId: string) =>
  createEvent(RoutingKey.CredentialsRequested, 'acct_1', { connectorId });

describe(RpcClient.name, () => {
  let app: INestApplication;
  let client: RpcClient;

  beforeAll(async () => {
    app = await NestFactory.create(ResponderModule, { logger: ['error'] });
    connectRabbitMqConsumer(app);
    await app.startAllMicroservices();
    await app.init();
    client = app.get(RpcClient);
  });

  afterAll(async () => {
    await app.close();
    const broker = await TestBroker.connect();
    await broker.deleteQueues([queue, deadLetterQueueName(queue), retryQueueName(queue, 1_000)]);
    await broker.close();
  });

  it('gets the answer of the service that takes the request', async () => {
    const answers = await Promise.all(['c1', 'c2', 'c3'].map((id) => client.request(request(id))));
    expect(answers).toEqual([
      { accessToken: 'token-for-c1' },
      { accessToken: 'token-for-c2' },
      { accessToken: 'token-for-c3' },
    ]);
  });

  it("passes the handler's error code back to the requester", async () => {
    await expect(client.request(request('revoked'))).rejects.toMatchObject({
      name: 'RpcError',
      code: 'AUTH_FAILED',
      message: 'the customer must authorize again',
    });
  });

  it('gives up after its timeout', async () => {
    const started = Date.now();
    await expect(client.request(request('slow'), 300)).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('refuses to send a request that breaks the contract', async () => {
    const invalid = createEvent(RoutingKey.CredentialsRequested, 'acct_1', { connectorId: '' });
    await expect(client.request(invalid)).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
  });
});
