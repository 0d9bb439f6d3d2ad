import { Logger } from '@nestjs/common';
import { eventually, rabbitUrl, useTestVhost } from '@connector/testing';
import { RabbitConnection } from './rabbitmq.connection';

// Its own vhost: never the default one, where `npm start` runs (the hermetic guard refuses it).
useTestVhost('rabbitmq_connection');

describe(RabbitConnection.name, () => {
  afterEach(() => jest.restoreAllMocks());

  it('survives a channel whose setup fails (a process closing while it connects): warned, not thrown', async () => {
    const warned = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const connection = new RabbitConnection({ url: rabbitUrl(), name: 'connection-test' });
    try {
      let attempts = 0;
      // Unheard, the wrapper's 'error' event would be an uncaught exception that ends the process.
      connection.createChannel({
        name: 'failing-setup',
        setup: async () => {
          attempts++;
          throw new Error('Channel ended, no reply will be forthcoming');
        },
      });
      await connection.waitForConnect(10_000);
      await eventually(() => attempts > 0, 5_000, 'setup ran');
      await eventually(
        () => warned.mock.calls.some(([message]) => String(message).includes('failing-setup setup failed')),
        5_000,
        'warned',
      );
    } finally {
      await connection.close();
    }
  });
});
