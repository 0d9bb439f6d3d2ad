import { Logger } from '@nestjs/common';
import amqp, {
  type AmqpConnectionManager,
  type ChannelWrapper,
  type CreateChannelOpts,
} from 'amqp-connection-manager';
import { brokerUserOf } from './broker-url';

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
  /** The broker user this connection is opened as: every message published on it says so (`user_id`). */
  readonly user: string;

  constructor(readonly options: RabbitConnectionOptions) {
    this.user = brokerUserOf(options.url);
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
    const channel = this.manager.createChannel(options);
    // A setup that fails (the connection closing under it, e.g. a process that stops right after starting)
    // is emitted as 'error'; unheard, it would crash the process. The wrapper sets the channel up again on
    // the next connect.
    channel.on('error', (error: Error) =>
      this.logger.warn(`RabbitMQ channel ${options.name ?? ''} setup failed: ${error.message}`),
    );
    return channel;
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

  /**
   * Declares `queue` with `args` on a channel of its own and says whether the broker took them: false when
   * the queue exists with other arguments (they never change), which would close a channel in use.
   */
  async declaresQueueWith(queue: string, args: Record<string, unknown>): Promise<boolean> {
    const connection = this.manager.connection;
    if (!connection) throw new Error('not connected to RabbitMQ');
    const channel = await connection.createChannel();
    channel.on('error', () => undefined); // a refused declaration closes this channel: that is the answer
    try {
      await channel.assertQueue(queue, { durable: true, arguments: args });
    } catch (error) {
      if ((error as { code?: unknown }).code === 406) return false;
      throw error;
    }
    await channel.close().catch(() => undefined);
    return true;
  }

  async close(): Promise<void> {
    await this.manager.close();
  }
}
