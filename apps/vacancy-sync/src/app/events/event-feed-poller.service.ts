import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { VacancySyncConfig } from '../vacancy-sync.config';
import { EventFeedService } from './event-feed.service';

/**
 * Reads connectors' event feeds when they are due, in every process: each tick claims due feeds (in Postgres,
 * FOR UPDATE SKIP LOCKED, by the due index) for the polls this process has room for, and reads them in the
 * background. No timer per connector: a fleet's feeds are rows with their next read time.
 */
@Injectable()
export class EventFeedPoller implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(EventFeedPoller.name);
  private timer?: NodeJS.Timeout;
  private ticking?: Promise<void>;
  private readonly polls = new Map<string, Promise<void>>();
  private stopping = false;

  constructor(
    private readonly feeds: EventFeedService,
    @Inject(VacancySyncConfig) private readonly config: VacancySyncConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.tick(), this.config.EVENT_FEED_TICK_MS);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    await this.ticking;
    await Promise.allSettled([...this.polls.values()]);
  }

  /** Claims what this process has room for and starts reading it; a tick while one is going on is skipped. */
  tick(): Promise<void> {
    this.ticking ??= this.claim().finally(() => (this.ticking = undefined));
    return this.ticking;
  }

  private async claim(): Promise<void> {
    if (this.stopping) return;
    try {
      const room = this.config.EVENT_FEED_CONCURRENCY - this.polls.size;
      for (const feed of await this.feeds.claimDue(room)) {
        if (this.polls.has(feed.connectorId)) continue;
        const poll = this.feeds
          .poll(feed)
          .catch((error: unknown) =>
            this.logger.error(
              `event feed of ${feed.connectorId}: ${(error as Error).message ?? String(error)}`,
            ),
          )
          .finally(() => this.polls.delete(feed.connectorId));
        this.polls.set(feed.connectorId, poll);
      }
    } catch (error) {
      this.logger.error(`event feed tick failed: ${(error as Error).message ?? String(error)}`);
    }
  }
}
