import { BaseRpcContext } from '@nestjs/microservices';
import type { ConsumeMessage } from 'amqplib';

/** What a handler can learn about the message beyond its payload (`@Ctx() ctx: RabbitMqContext`). */
export class RabbitMqContext extends BaseRpcContext<[ConsumeMessage, number]> {
  getMessage(): ConsumeMessage {
    return this.args[0];
  }
  /** 1 on first delivery, then 2, 3… on each retry. */
  getAttempt(): number {
    return this.args[1];
  }
}
