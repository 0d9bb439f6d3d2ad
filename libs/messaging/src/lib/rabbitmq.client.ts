import { ClientProxy, type ReadPacket, type WritePacket } from '@nestjs/microservices';
import type { EventEnvelope } from '@connector/contracts';
import type { MessagePublisher } from './message-publisher';

/**
 * The @nestjs/microservices client side: `client.emit(RoutingKey.X, envelope)` publishes the envelope to
 * this client's exchange with confirms. Request-response is not offered: our messages are events.
 */
export class RabbitMqClient extends ClientProxy {
  constructor(
    private readonly publisher: MessagePublisher,
    private readonly exchange: string,
  ) {
    super();
  }

  async connect(): Promise<void> {
    // The shared RabbitConnection connects on its own and reconnects after failures.
  }

  async close(): Promise<void> {
    // The publisher belongs to the MessagingModule, which closes it on shutdown.
  }

  unwrap<T>(): T {
    return this.publisher as T;
  }

  protected async dispatchEvent<T = undefined>(packet: ReadPacket<EventEnvelope>): Promise<T> {
    if (packet.pattern !== packet.data.type) {
      throw new Error(`pattern ${String(packet.pattern)} does not match envelope type ${packet.data.type}`);
    }
    await this.publisher.publish(this.exchange, packet.data);
    return undefined as T;
  }

  protected publish(_packet: ReadPacket, callback: (packet: WritePacket) => void): () => void {
    callback({ err: new Error('RabbitMqClient publishes events only; use emit()'), isDisposed: true });
    return () => undefined;
  }
}
