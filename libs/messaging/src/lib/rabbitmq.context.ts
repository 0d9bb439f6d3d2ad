import { BaseRpcContext } from '@nestjs/microservices';
import type { ConsumeMessage } from 'amqplib';

/** What a handler can learn about the message beyond its payload (`@Ctx() ctx: RabbitMqContext`). */
export class RabbitMqContext extends BaseRpcContext<[ConsumeMessage, number, AbortController?]> {
  getMessage(): ConsumeMessage {
    return this.args[0];
  }
  /** 1 on first delivery, then 2, 3… on each retry. */
  getAttempt(): number {
    return this.args[1];
  }
  /**
   * Aborted when the handler ran past its time limit: the message is retried, so stop what is left. (The
   * transport passes the controller: a signal costs ~10 µs to make, and most handlers never ask for it.)
   */
  getSignal(): AbortSignal {
    return (this.args[2] ?? new AbortController()).signal;
  }
}
