import { Logger } from '@nestjs/common';
import amqp, {
  type AmqpConnectionManager,
  type ChannelWrapper,
  type CreateChannelOpts,
} from 'amqp-connection-manager';

export interface RabbitConnectionOptions {
  url: string;
  /** Shown in the broker's connection list, e.g. the service name. */
  name: string;
  heartbeatSeconds?: number;
  reconnectSeconds?: number;
}

/**
 * One broker connection per process. It reconnects by itself; every channel re-runs its setup
 * (topology, consumers) after a reconnect, so consumers come back without help.
 */
export class RabbitConnection {
  private readonly logger = new Logger(RabbitConnection.name);
  private readonly manager: AmqpConnectionManager;
  private connectedOnce = false;

  constructor(readonly options: RabbitConnectionOptions) {
    this.manager = amqp.connect([options.url], {
      heartbeatIntervalInSeconds: options.heartbeatSeconds ?? 10,
      reconnectTimeInSeconds: options.reconnectSeconds ?? 1,
      connectionOptions: { clientProperties: { connection_name: options.name } },
    });
    this.manager.on('connect', () => {
      this.logger.log(this.connectedOnce ? 'reconnected to RabbitMQ' : 'connected to RabbitMQ');
      this.connectedOnce = true;
    });
    this.manager.on('disconnect', ({ err }) =>
      this.logger.warn(`RabbitMQ connection lost: ${err?.message ?? 'closed'}`),
    );
    this.manager.on('connectFailed', ({ err }) => this.logger.warn(`cannot reach RabbitMQ: ${err.message}`));
  }

  isConnected(): boolean {
    return this.manager.isConnected();
  }

  createChannel(options: CreateChannelOpts): ChannelWrapper {
    return this.manager.createChannel(options);
  }

  /** Resolves when connected; rejects after `timeoutMs` so a caller can say the broker is unreachable. */
  async waitForConnect(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`RabbitMQ not reachable within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.race([this.manager.connect({ timeout: timeoutMs }), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await this.manager.close();
  }
}
