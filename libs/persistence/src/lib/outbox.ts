import { Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { type EventEnvelope, validateMessage } from '@connector/contracts';
import { counter } from '@connector/observability';
import { OutboxMessageEntity } from './outbox-message.entity';
import { MARK_FAILED, MARK_SENT, NEXT_OUTBOX_BATCH, PARK, PURGE_SENT } from './outbox.sql';
import { entitiesOf } from './sql-rows';

const parkedRows = counter({
  name: 'connector_outbox_parked_total',
  help: 'Outbox rows set aside unpublished (invalid, or refused again and again): an operator decides (docs/observability.md)',
  labelNames: ['publisher'],
});

export interface OutboxMessage {
  exchange: string;
  envelope: EventEnvelope;
}

/**
 * Stores messages to publish in `outbox_message` through `manager`: pass the transaction that makes the state
 * change, so the change and the messages that announce it are stored together or not at all.
 */
export async function addToOutbox(
  manager: EntityManager,
  publisher: string,
  messages: OutboxMessage[],
): Promise<void> {
  if (messages.length === 0) return;
  await manager.insert(
    OutboxMessageEntity,
    messages.map(({ exchange, envelope }) => ({
      publisher,
      exchange,
      messageId: envelope.id,
      type: envelope.type,
      envelope: envelope as EventEnvelope<string, object>,
    })),
  );
}

export interface OutboxRelayOptions {
  /** The service whose rows this relay publishes (each service relays only its own). */
  publisher: string;
  /** Resolves once the broker confirmed the message (MessagePublisher.publish). */
  publish: (exchange: string, envelope: EventEnvelope) => Promise<void>;
  /** False while the broker connection is down: the relay waits instead of trying. */
  ready?: () => boolean;
  /** How often an idle relay looks for rows another process (or a lost wake) left. Default 1 000. */
  intervalMs?: number;
  /** Longest wait between attempts while publishing fails. Default 10 000. */
  maxBackoffMs?: number;
  batchSize?: number;
  /** Sent rows are deleted this long after sending. Default one day. */
  keepSentMs?: number;
  /**
   * A row that failed this many times is parked when it fails again while the broker takes the rows behind
   * it (so an outage, where every row fails, parks nothing). Default 10.
   */
  maxAttempts?: number;
}

export interface RelayResult {
  sent: number;
  /** Rows set aside in this batch (see OutboxRelay). */
  parked?: number;
  /** Why the batch stopped early (the broker refused or did not confirm); the rest waits for the next try. */
  failure?: string;
  /** Not connected to the broker: nothing was tried. */
  notReady?: boolean;
  /** The batch was full: more rows may be waiting. */
  more?: boolean;
}

/**
 * Publishes what `addToOutbox` stored, oldest first, with the broker's confirm, and marks each row sent only
 * after its confirm. While the broker is unreachable rows wait and are tried again with a backoff, however
 * long the outage. Several processes may relay the same publisher's rows: each takes rows no other holds
 * (SKIP LOCKED). A crash between the confirm and the mark publishes a row twice: consumers dedupe by id.
 *
 * A row that can never be published does not hold up the rows behind it: one whose envelope fails the
 * contract's check (the publisher refuses it for `connector.events`, consumers dead-letter it otherwise) is
 * parked at once; one that failed `maxAttempts` times and fails again right after the broker confirmed a row
 * behind it is parked then. A parked row (`parked_at` set) is skipped, logged as an error with its id and
 * type, counted in `connector_outbox_parked_total`, and kept for an operator (docs/observability.md).
 */
export class OutboxRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(OutboxRelay.name);
  private readonly intervalMs: number;
  private readonly maxBackoffMs: number;
  private readonly batchSize: number;
  private readonly keepSentMs: number;
  private readonly maxAttempts: number;
  private running?: Promise<void>;
  private stopped = false;
  private wakeUp?: () => void;
  private woken = false;
  private failing = false;
  private lastPurge = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly options: OutboxRelayOptions,
  ) {
    this.intervalMs = options.intervalMs ?? 1_000;
    this.maxBackoffMs = options.maxBackoffMs ?? 10_000;
    this.batchSize = options.batchSize ?? 50;
    this.keepSentMs = options.keepSentMs ?? 24 * 3_600_000;
    this.maxAttempts = options.maxAttempts ?? 10;
  }

  onApplicationBootstrap(): void {
    this.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.stop();
  }

  start(): void {
    this.stopped = false;
    this.running ??= this.loop();
  }

  /** Finishes the batch in hand, then stops; what is left is sent by the next start or another process. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.running;
    this.running = undefined;
  }

  /** Publish now rather than at the next poll (call it after committing an `addToOutbox`). */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /**
   * One batch: publishes unsent rows in order until one fails. A row that failed `maxAttempts` times is a
   * suspect: the rows behind it are tried, and once the broker confirms one the suspect gets one more try;
   * failing again, it is parked. Invalid rows are parked without a try.
   */
  async relayOnce(): Promise<RelayResult> {
    if (this.options.ready && !this.options.ready()) return { sent: 0, notReady: true };
    await this.purge();
    const parkedNow: Array<{ row: OutboxMessageEntity; reason: string; attempts: number }> = [];
    const result = await this.dataSource.transaction(async (manager): Promise<RelayResult> => {
      const rows = entitiesOf(
        manager.getRepository(OutboxMessageEntity),
        await NEXT_OUTBOX_BATCH.rows(manager, { publisher: this.options.publisher, limit: this.batchSize }),
      );
      /** Publishes the row and marks it; the failure's reason, or undefined once sent. */
      const attempt = async (row: OutboxMessageEntity): Promise<string | undefined> => {
        try {
          await this.options.publish(row.exchange, row.envelope);
        } catch (error) {
          const failure = (error as Error).message;
          await MARK_FAILED.rows(manager, { id: row.id, lastError: failure });
          return failure;
        }
        await MARK_SENT.rows(manager, { id: row.id });
        return undefined;
      };
      /** `attempts`: how many times it was tried in all, with this batch's tries. */
      const park = async (row: OutboxMessageEntity, reason: string, attempts: number) => {
        await PARK.rows(manager, { id: row.id, lastError: reason });
        parkedNow.push({ row, reason, attempts });
      };
      let sent = 0;
      let parked = 0;
      let suspect: { row: OutboxMessageEntity; failure: string } | undefined;
      for (const row of rows) {
        const invalid = invalidReason(row);
        if (invalid) {
          await park(row, invalid, row.attempts);
          parked += 1;
          continue;
        }
        const failure = await attempt(row);
        if (failure !== undefined) {
          // A second failure in a row: the broker refuses more than the suspect; everything waits.
          if (suspect || row.attempts + 1 < this.maxAttempts) return { sent, parked, failure };
          suspect = { row, failure };
          continue;
        }
        sent += 1;
        if (suspect) {
          // The broker took a row behind the suspect: one more try, then it is the row, not the broker.
          const again = await attempt(suspect.row);
          if (again === undefined) sent += 1;
          else {
            await park(suspect.row, again, suspect.row.attempts + 2);
            parked += 1;
          }
          suspect = undefined;
        }
      }
      if (suspect) return { sent, parked, failure: suspect.failure };
      return { sent, parked, more: rows.length === this.batchSize };
    });
    // Once committed: a batch rolled back parked nothing.
    for (const { row, reason, attempts } of parkedNow) {
      parkedRows.inc({ publisher: this.options.publisher });
      // Its id and type only: the payload may hold personal data.
      this.logger.error(
        `outbox of ${this.options.publisher}: row ${row.id} (${row.type}, message ${row.messageId}) parked after ${attempts} attempts, the rows behind it go on: ${reason}`,
      );
    }
    return result;
  }

  private async loop(): Promise<void> {
    let delay = 0;
    while (!this.stopped) {
      await this.sleep(delay);
      if (this.stopped) break;
      let result: RelayResult;
      try {
        result = await this.relayOnce();
      } catch (error) {
        result = { sent: 0, failure: `the outbox could not be read: ${(error as Error).message}` };
      }
      if (result.failure || result.notReady) {
        if (!this.failing) {
          this.logger.warn(
            `outbox of ${this.options.publisher} waits: ${result.failure ?? 'broker not connected'}`,
          );
        }
        this.failing = true;
        // Waiting for the connection costs nothing; a publish that failed is not hammered.
        delay = result.notReady
          ? this.intervalMs
          : Math.min(Math.max(delay * 2, this.intervalMs), this.maxBackoffMs);
        continue;
      }
      if (this.failing) this.logger.log(`outbox of ${this.options.publisher} publishes again`);
      this.failing = false;
      delay = result.more ? 0 : this.intervalMs;
    }
  }

  /** Waits `ms`, or less when woken; a wake that came while a batch ran is not lost. */
  private sleep(ms: number): Promise<void> {
    if (this.woken || ms === 0) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.wakeUp?.(), ms);
      this.wakeUp = () => {
        clearTimeout(timer);
        this.wakeUp = undefined;
        this.woken = false;
        resolve();
      };
    });
  }

  private async purge(): Promise<void> {
    if (Date.now() - this.lastPurge < 3_600_000) return;
    this.lastPurge = Date.now();
    await PURGE_SENT.rows(this.dataSource, {
      publisher: this.options.publisher,
      before: new Date(Date.now() - this.keepSentMs),
    });
  }
}

/** Why the row's envelope fails the contract's check (the check every consumer runs), or undefined. */
function invalidReason(row: OutboxMessageEntity): string | undefined {
  const validation = validateMessage(JSON.stringify(row.envelope), row.type);
  return validation.ok ? undefined : `invalid ${row.type}: ${validation.errors.join('; ')}`;
}
