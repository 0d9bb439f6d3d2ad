import { Logger } from '@nestjs/common';
import amqp, {
  type AmqpConnectionManager,
  type ChannelWrapper,
  type CreateChannelOpts,
} from 'amqp-connection-manager';
import type { Channel } from 'amqplib';
import { Exchange } from '@connector/contracts';
import { brokerUserOf, brokerVhostOf } from './broker-url';
import { declaresQueueWith } from './topology';

export interface RabbitConnectionOptions {
  url: string;
  /** Shown in the broker's connection list, e.g. the service name. */
  name: string;
  heartbeatSeconds?: number;
  reconnectSeconds?: number;
  /** How long a channel's setup waits for the shared exchanges before giving up (`waitForExchanges`). */
  exchangesWaitMs?: number;
  /** How long a consumer may stay missing while connected before the process gives up (`onFatal`). */
  consumerRecoveryMs?: number;
  /**
   * The broker set-up declares this service's queues and their bindings (a broker user of its own, which may
   * declare none: docs/security.md, "On the broker"); the service only waits until they exist. Otherwise
   * (local mode: one user for every service) the service declares them itself.
   */
  declaredBySetUp?: boolean;
}

/** Longer than the exchanges wait, so a set-up that waits for them gets its answer first. */
export const DEFAULT_CONSUMER_RECOVERY_MS = 90_000;

/** Long enough for a broker that is still importing its definitions, or `npm start` creating them. */
export const DEFAULT_EXCHANGES_WAIT_MS = 60_000;

/** The shared exchanges were still missing when a service's wait for them ran out. */
export class MissingExchangesError extends Error {
  constructor(
    readonly exchanges: readonly string[],
    vhost: string,
    waitedMs: number,
  ) {
    super(`${missingExchangesText(exchanges, vhost)}; gave up after ${Math.round(waitedMs / 1000)} s`);
    this.name = MissingExchangesError.name;
  }
}

function missingExchangesText(exchanges: readonly string[], vhost: string): string {
  return (
    `exchange${exchanges.length === 1 ? '' : 's'} ${exchanges.join(', ')} missing in vhost '${vhost}': the ` +
    'broker set-up creates them (deploy/rabbitmq/definitions.json, `npm run broker-users -- --apply`, ' +
    '`npm start`); this service only checks them, its broker user may not declare them'
  );
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
  /** Consumers this process should have but has not (readiness), by name, with why and since when. */
  private readonly missing = new Map<string, { reason: string; since: number }>();
  private readonly fatalListeners = new Set<(error: Error) => void>();
  private failed = false;
  /** One timer per process, running only while a consumer is missing. */
  private watchdog?: NodeJS.Timeout;

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

  /** The wait in progress for the shared exchanges: the channels set up at once share it (and its warning). */
  private exchangesWait?: Promise<void>;

  /**
   * Resolves once the shared exchanges exist, checked passively (which needs no permission). While one is
   * missing it says which and who creates it, and checks again (backing off to every 5 s); after
   * `exchangesWaitMs` it rejects with a MissingExchangesError naming them.
   */
  waitForExchanges(names: readonly string[] = Object.values(Exchange)): Promise<void> {
    this.exchangesWait ??= this.pollExchanges(names).finally(() => (this.exchangesWait = undefined));
    return this.exchangesWait;
  }

  private async pollExchanges(names: readonly string[]): Promise<void> {
    const waitMs = this.options.exchangesWaitMs ?? DEFAULT_EXCHANGES_WAIT_MS;
    const vhost = brokerVhostOf(this.options.url);
    const deadline = Date.now() + waitMs;
    let pauseMs = 100;
    let reported = '';
    for (;;) {
      const missing = await this.missingExchanges(names);
      if (missing.length === 0) {
        if (reported) this.logger.log(`exchanges ${reported} exist now`);
        return;
      }
      if (Date.now() >= deadline) throw new MissingExchangesError(missing, vhost, waitMs);
      if (missing.join(', ') !== reported) {
        reported = missing.join(', ');
        this.logger.warn(`${missingExchangesText(missing, vhost)}; waiting up to ${waitMs / 1000} s`);
      }
      // Waiting for the broker set-up, which nothing here can signal: checked again, less often over time.
      await new Promise((resolve) => setTimeout(resolve, Math.min(pauseMs, deadline - Date.now())));
      pauseMs = Math.min(pauseMs * 2, 5_000);
    }
  }

  /** The exchanges of `names` that do not exist: a passive declare each, on a channel of its own. */
  private missingExchanges(names: readonly string[]): Promise<string[]> {
    return this.missingOf(names, (channel, name) => channel.checkExchange(name));
  }

  /** See `RabbitConnectionOptions.declaredBySetUp`. */
  get declaredBySetUp(): boolean {
    return this.options.declaredBySetUp === true;
  }

  /**
   * Resolves once every queue of `names` exists (passive declares, which need no permission), checked every
   * second while `wanted()`; `onMissing` hears which are missing each time that changes. For queues the broker
   * set-up declares (and its keeper declares again when they are lost).
   */
  async waitForQueues(
    names: readonly string[],
    onMissing: (missing: string[]) => void,
    wanted: () => boolean = () => true,
  ): Promise<void> {
    let reported = '';
    for (;;) {
      const missing = await this.missingOf(names, (channel, name) => channel.checkQueue(name));
      if (missing.length === 0 || !wanted()) return;
      if (missing.join(', ') !== reported) {
        reported = missing.join(', ');
        onMissing(missing);
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }

  private async missingOf(
    names: readonly string[],
    check: (channel: Channel, name: string) => Promise<unknown>,
  ): Promise<string[]> {
    const connection = this.manager.connection;
    if (!connection) throw new Error('not connected to RabbitMQ');
    const missing: string[] = [];
    for (const name of names) {
      const channel = await connection.createChannel();
      channel.on('error', () => undefined); // a missing one closes this channel: that is the answer
      try {
        await check(channel, name);
        await channel.close().catch(() => undefined);
      } catch (error) {
        if ((error as { code?: unknown }).code !== 404) throw error;
        missing.push(name);
      }
    }
    return missing;
  }

  /**
   * Declares `queue` with `args` on a channel of its own and says whether the broker took them: false when
   * the queue exists with other arguments (they never change), which would close a channel in use.
   */
  async declaresQueueWith(queue: string, args: Record<string, unknown>): Promise<boolean> {
    const connection = this.manager.connection;
    if (!connection) throw new Error('not connected to RabbitMQ');
    return declaresQueueWith(connection, queue, args);
  }

  /** A consumer (its queue's name) is not taking messages: `/health` says not ready until `consumerUp`. */
  consumerDown(name: string, reason: string): void {
    if (!this.missing.has(name)) this.missing.set(name, { reason, since: Date.now() });
    this.watchdog ??= setInterval(() => this.checkMissing(), 1_000).unref();
  }

  consumerUp(name: string): void {
    this.missing.delete(name);
  }

  /** A consumer closed on purpose (shutdown): no longer expected. */
  consumerGone(name: string): void {
    this.missing.delete(name);
  }

  /** `name: reason` of each consumer missing now; empty when every consumer consumes. */
  missingConsumers(): string[] {
    return [...this.missing].map(([name, { reason }]) => `${name}: ${reason}`);
  }

  /**
   * Called once when this process cannot get a consumer back (run-service exits non-zero, so its
   * supervisor restarts it). Without a listener the error is only logged.
   */
  onFatal(listener: (error: Error) => void): void {
    this.fatalListeners.add(listener);
  }

  /** Gives up on this process: it cannot consume again by itself. */
  fail(error: Error): void {
    if (this.failed) return;
    this.failed = true;
    this.logger.error(`giving up: ${error.message}`);
    for (const listener of this.fatalListeners) listener(error);
  }

  /** While disconnected the connection manager reconnects; only time connected counts against a consumer. */
  private checkMissing(): void {
    if (this.missing.size === 0) {
      clearInterval(this.watchdog);
      this.watchdog = undefined;
      return;
    }
    const limitMs = this.options.consumerRecoveryMs ?? DEFAULT_CONSUMER_RECOVERY_MS;
    const now = Date.now();
    for (const [name, entry] of this.missing) {
      if (!this.isConnected()) entry.since = now;
      else if (now - entry.since > limitMs)
        this.fail(new Error(`consumer ${name} missing for ${Math.round(limitMs / 1000)} s: ${entry.reason}`));
    }
  }

  async close(): Promise<void> {
    clearInterval(this.watchdog);
    this.watchdog = undefined;
    this.missing.clear();
    await this.manager.close();
  }
}
