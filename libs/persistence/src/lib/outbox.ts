import { Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import type { EventEnvelope } from '@connector/contracts';
import { OutboxMessageEntity } from './outbox-message.entity';

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
}

export interface RelayResult {
  sent: number;
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
 */
export class OutboxRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(OutboxRelay.name);
  private readonly intervalMs: number;
  private readonly maxBackoffMs: number;
  private readonly batchSize: number;
  private readonly keepSentMs: number;
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

  /** One batch: publishes unsent rows in order until one fails. */
  async relayOnce(): Promise<RelayResult> {
    if (this.options.ready && !this.options.ready()) return { sent: 0, notReady: true };
    await this.purge();
    return this.dataSource.transaction(async (manager) => {
      const rows = await manager
        .getRepository(OutboxMessageEntity)
        .createQueryBuilder('m')
        .where('m.publisher = :publisher AND m.sentAt IS NULL', { publisher: this.options.publisher })
        .orderBy('m.id', 'ASC')
        .limit(this.batchSize)
        .setLock('pessimistic_write')
        .setOnLocked('skip_locked')
        .getMany();
      const mark = (id: string, changes: { sentAt?: () => string; lastError: string | null }) =>
        manager
          .createQueryBuilder()
          .update(OutboxMessageEntity)
          .set({ attempts: () => '"attempts" + 1', ...changes })
          .where('id = :id', { id })
          .execute();
      let sent = 0;
      for (const row of rows) {
        try {
          await this.options.publish(row.exchange, row.envelope);
        } catch (error) {
          const failure = (error as Error).message;
          await mark(row.id, { lastError: failure });
          return { sent, failure };
        }
        await mark(row.id, { sentAt: () => 'now()', lastError: null });
        sent += 1;
      }
      return { sent, more: rows.length === this.batchSize };
    });
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
    await this.dataSource
      .createQueryBuilder()
      .delete()
      .from(OutboxMessageEntity)
      .where('publisher = :publisher AND sent_at < :before', {
        publisher: this.options.publisher,
        before: new Date(Date.now() - this.keepSentMs),
      })
      .execute();
  }
}
