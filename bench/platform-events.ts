import amqplib from 'amqplib';
import { type EventEnvelope, Exchange } from '@connector/contracts';
import { rabbitUrl } from '@connector/testing';

/**
 * Publishes events on `platform.events` as the platform does (plain JSON, persistent, `message_id` = id,
 * routing key = type), as fast as the broker confirms them; returns each event's key → publish time.
 */
export async function publishPlatformEvents(
  events: Array<{ key: string; event: EventEnvelope }>,
): Promise<Map<string, number>> {
  const connection = await amqplib.connect(rabbitUrl());
  const channel = await connection.createConfirmChannel();
  const sent = new Map<string, number>();
  for (const [i, { key, event }] of events.entries()) {
    sent.set(key, Date.now());
    channel.publish(Exchange.PlatformEvents, event.type, Buffer.from(JSON.stringify(event)), {
      persistent: true,
      contentType: 'application/json',
      messageId: event.id,
    });
    if (i % 500 === 499) await channel.waitForConfirms();
  }
  await channel.waitForConfirms();
  await connection.close();
  return sent;
}
