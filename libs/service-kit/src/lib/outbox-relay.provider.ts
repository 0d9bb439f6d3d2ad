import type { Provider } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { MessagePublisher, RabbitConnection } from '@connector/messaging';
import { OutboxRelay } from '@connector/persistence';

/**
 * A service's OutboxRelay (inject it to `wake()` after a commit): publishes the service's outbox rows through
 * its confirming publisher while the broker connection is up; started and stopped with the application.
 * The service also lists OUTBOX_SCHEMA among its shared schemas.
 */
export function outboxRelayProvider(serviceName: string): Provider {
  return {
    provide: OutboxRelay,
    inject: [getDataSourceToken(), MessagePublisher, RabbitConnection],
    useFactory: (dataSource: DataSource, publisher: MessagePublisher, connection: RabbitConnection) =>
      new OutboxRelay(dataSource, {
        publisher: serviceName,
        // Mandatory: a message no queue takes (none bound yet) stays in the outbox instead of being lost.
        publish: (exchange, envelope) => publisher.publish(exchange, envelope, { mandatory: true }),
        ready: () => connection.isConnected(),
      }),
  };
}
