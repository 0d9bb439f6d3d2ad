import type { ConsumeMessage } from 'amqplib';
import type { EventEnvelope } from '@connector/contracts';
import { eventually } from './eventually';

export type CapturedEvent = EventEnvelope<string, Record<string, unknown>>;

/** A tapped message's event envelope. */
export function parseEvent<T = Record<string, unknown>>(message: ConsumeMessage): EventEnvelope<string, T> {
  return JSON.parse(message.content.toString()) as EventEnvelope<string, T>;
}

/** The events of one routing key among messages a suite tapped, parsed. */
export function eventsOf(messages: readonly ConsumeMessage[], type: string): CapturedEvent[] {
  return messages.filter((m) => m.fields.routingKey === type).map((m) => parseEvent(m));
}

/**
 * Waits for the event of `type` caused by `sourceId` (its correlation id) whose data has every field of
 * `match`. `messages` is read per poll, so a suite may pass the array its tap keeps filling.
 */
export function waitForEvent(
  messages: () => readonly ConsumeMessage[],
  type: string,
  sourceId: string,
  match: Record<string, unknown> = {},
  timeoutMs = 20_000,
): Promise<CapturedEvent> {
  return eventually(
    () =>
      eventsOf(messages(), type).find(
        (e) =>
          e.correlationId === sourceId &&
          Object.entries(match).every(([key, value]) => e.data[key] === value),
      ),
    timeoutMs,
    `${type} for ${sourceId} ${JSON.stringify(match)}`,
  );
}
