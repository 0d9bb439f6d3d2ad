import type { ChannelWrapper } from 'amqp-connection-manager';
import type { Channel, ConsumeMessage } from 'amqplib';
import { Exchange } from '@connector/contracts';
import { RabbitConnection } from '@connector/messaging';
import type { CapturedEvent } from '@connector/testing';

/**
 * Everything published on `connector.events`, kept from outside. A durable quorum queue and a reconnecting
 * consumer, so the record survives a broker restart (an exclusive tap queue would die with its connection).
 */
export class EventRecorder {
  readonly events: CapturedEvent[] = [];
  private readonly seen = new Set<string>();
  /** Distinct events per "type|source event|connector". */
  private readonly counts = new Map<string, number>();

  private constructor(
    private readonly connection: RabbitConnection,
    private channel?: ChannelWrapper,
  ) {}

  static async start(url: string, queue: string): Promise<EventRecorder> {
    const connection = new RabbitConnection({ url, name: 'chaos-recorder' });
    const recorder = new EventRecorder(connection);
    recorder.channel = connection.createChannel({
      name: 'chaos-recorder',
      json: false,
      setup: async (channel: Channel) => {
        await channel.assertExchange(Exchange.ConnectorEvents, 'topic', { durable: true });
        await channel.assertQueue(queue, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
        await channel.bindQueue(queue, Exchange.ConnectorEvents, '#');
        await channel.prefetch(500);
        await channel.consume(queue, (message) => {
          if (!message) return;
          recorder.receive(message);
          channel.ack(message);
        });
      },
    });
    await recorder.channel.waitForConnect();
    return recorder;
  }

  /** Distinct events of `type` caused by `sourceEventId` (correlation id or data.sourceEventId). */
  count(type: string, sourceEventId: string, connectorId?: string): number {
    return this.counts.get(key(type, sourceEventId, connectorId)) ?? 0;
  }

  ofType(type: string): CapturedEvent[] {
    return this.events.filter((e) => e.type === type);
  }

  async close(): Promise<void> {
    await this.channel?.close().catch(() => undefined);
    await this.connection.close().catch(() => undefined);
  }

  private receive(message: ConsumeMessage): void {
    let event: CapturedEvent;
    try {
      event = JSON.parse(message.content.toString()) as CapturedEvent;
    } catch {
      return;
    }
    // A redelivery to this recorder after a reconnect is the same event, not a second publish.
    const identity = `${event.id}|${message.fields.routingKey}`;
    if (this.seen.has(identity)) return;
    this.seen.add(identity);
    this.events.push(event);
    const data = event.data as { sourceEventId?: unknown; connectorId?: unknown };
    const source = typeof data.sourceEventId === 'string' ? data.sourceEventId : event.correlationId;
    if (!source) return;
    const connectorId = typeof data.connectorId === 'string' ? data.connectorId : undefined;
    for (const k of [key(event.type, source), ...(connectorId ? [key(event.type, source, connectorId)] : [])])
      this.counts.set(k, (this.counts.get(k) ?? 0) + 1);
  }
}

const key = (type: string, source: string, connectorId?: string) => `${type}|${source}|${connectorId ?? '*'}`;
