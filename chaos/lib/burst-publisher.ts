import { setTimeout as sleep } from 'node:timers/promises';
import { Exchange } from '@connector/contracts';
import { MessagePublisher, RabbitConnection } from '@connector/messaging';

/** One message of a burst as the platform would send it: valid or not, always with an id. */
export interface OutgoingMessage {
  id: string;
  type: string;
  body: Buffer;
}

/**
 * Publishes to `platform.events` the way a careful platform service does: each message waits for the
 * broker's confirm and is sent again until confirmed (the connector services dedupe by id), so a broker
 * restart mid-burst delays messages and loses none.
 */
export class BurstPublisher {
  /** Publishes that were not confirmed and were sent again. */
  republished = 0;

  private constructor(
    private readonly connection: RabbitConnection,
    private readonly publisher: MessagePublisher,
  ) {}

  static async start(url: string): Promise<BurstPublisher> {
    const connection = new RabbitConnection({ url, name: 'chaos-platform' });
    const publisher = new MessagePublisher(connection, 5_000);
    await connection.waitForConnect(30_000);
    return new BurstPublisher(connection, publisher);
  }

  async publish(message: OutgoingMessage, giveUpAfterMs = 180_000): Promise<void> {
    const deadline = Date.now() + giveUpAfterMs;
    for (;;) {
      try {
        await this.publisher.publishRaw(Exchange.PlatformEvents, message.type, message.body, {
          messageId: message.id,
        });
        return;
      } catch (error) {
        if (Date.now() > deadline)
          throw new Error(`${message.type} ${message.id} not confirmed: ${(error as Error).message}`);
        this.republished++;
        await sleep(500);
      }
    }
  }

  async close(): Promise<void> {
    await this.publisher.close().catch(() => undefined);
    await this.connection.close().catch(() => undefined);
  }
}
