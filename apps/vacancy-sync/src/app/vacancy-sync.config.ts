import { Type } from 'class-transformer';
import { IsIn, IsInt, Max, Min } from 'class-validator';
import { ADDRESS_ALLOWANCES, type AddressAllowance, DEFAULT_MAX_RESPONSE_BYTES } from '@connector/ats-http';
import { ServiceConfig } from '@connector/service-kit';

export const SERVICE_NAME = 'vacancy-sync';

/** vacancy-sync's environment, validated at boot. */
export class VacancySyncConfig extends ServiceConfig {
  override PORT = 3002;
  /** Handlers running at once; they take the buffered messages in turn by account. */
  @Type(() => Number) @IsInt() @Min(1) @Max(500) CONCURRENCY = 10;
  /** Messages delivered and not yet settled: the buffer the handlers take from. */
  @Type(() => Number) @IsInt() @Min(1) @Max(2000) PREFETCH = 40;
  /** Handlers of one account running at once: one account's slow ATS holds no more than these. */
  @Type(() => Number) @IsInt() @Min(1) @Max(500) PER_KEY_CONCURRENCY = 4;
  /** Messages of one account waiting for a handler; more wait in a retry queue (not an attempt). */
  @Type(() => Number) @IsInt() @Min(1) @Max(2000) PER_KEY_BUFFERED = 16;
  /** Requests of one type handled at once; more are answered BUSY with when to ask again. */
  @Type(() => Number) @IsInt() @Min(1) @Max(1000) REQUEST_CONCURRENCY = 16;
  /** How often the scheduler looks for due connectors and runs to start or resume (also whenever a run ends). */
  @Type(() => Number) @IsInt() @Min(100) @Max(600_000) SCHEDULER_TICK_MS = 1_000;
  /** A connector's run lease: another process may take the connector over when it lapses (crash). */
  @Type(() => Number) @IsInt() @Min(5_000) @Max(3_600_000) RUN_LEASE_TTL_MS = 60_000;
  /** A rate-limit wait up to this long is slept through in place; a longer one parks the run until the reset. */
  @Type(() => Number) @IsInt() @Min(0) @Max(600_000) RUN_INLINE_WAIT_MAX_MS = 15_000;
  /** Connectors this process syncs at once: runs wait on the ATS, not the CPU, so many at once. */
  @Type(() => Number) @IsInt() @Min(1) @Max(2_000) RUN_CONCURRENCY = 200;
  /** Runs at once on one customer system, across every vacancy-sync process (several connectors, one ATS). */
  @Type(() => Number) @IsInt() @Min(1) @Max(100) RUN_SYSTEM_CONCURRENCY = 2;
  /**
   * The most pages one run reads (2 000 ATS-A pages of 100: 200 000 vacancies); a listing that goes on past it
   * (a host that lies about its page count) fails the run with RUN_PAGE_LIMIT instead of holding its slot.
   */
  @Type(() => Number) @IsInt() @Min(1) @Max(1_000_000) RUN_MAX_PAGES = 2_000;
  /**
   * How long a run may execute before it stops with RUN_DEADLINE (counted from when a process takes it up or
   * resumes it after a wait: a budget wait does not count), keeping what it published.
   */
  @Type(() => Number) @IsInt() @Min(1) @Max(1_440) RUN_DEADLINE_MINUTES = 60;
  /** The largest ATS answer a run reads; a larger one fails the run with ATS_ANSWER_TOO_LARGE. */
  @Type(() => Number) @IsInt() @Min(65_536) @Max(268_435_456) ATS_MAX_RESPONSE_BYTES =
    DEFAULT_MAX_RESPONSE_BYTES;
  /**
   * Scheduled runs of one account at once, across every process (as connector-registry's limit on asked-for
   * runs): an account's due connectors beyond it wait their turn, holding no run slot.
   */
  @Type(() => Number) @IsInt() @Min(1) @Max(10_000) MAX_CONCURRENT_RUNS_PER_ACCOUNT = 4;
  /** How long a connector's run history goes back (its newest run is kept whatever its age). */
  @Type(() => Number) @IsInt() @Min(1) @Max(3_650) RUN_HISTORY_DAYS = 30;
  /** The most runs of a connector its history keeps (the newest; open runs are never deleted). */
  @Type(() => Number) @IsInt() @Min(20) @Max(100_000) RUN_HISTORY_PER_CONNECTOR = 500;
  /** How long a closed vacancy's state stays (should it come back live, it is published again as new). */
  @Type(() => Number) @IsInt() @Min(1) @Max(3_650) CLOSED_VACANCY_RETENTION_DAYS = 30;
  /** How often this process claims due event feeds (ATS-B subscriptions) to read. */
  @Type(() => Number) @IsInt() @Min(100) @Max(60_000) EVENT_FEED_TICK_MS = 1_000;
  /** Event feeds one tick claims at most, and feeds this process reads at once. */
  @Type(() => Number) @IsInt() @Min(1) @Max(1_000) EVENT_FEED_CONCURRENCY = 100;
  /** The floor of a connector's `eventPollSeconds` (the vendor's sense: 5; tests may go lower). */
  @Type(() => Number) @IsInt() @Min(1) @Max(3_600) EVENT_POLL_MIN_SECONDS = 5;
  /**
   * Test hook: `exit` ends the process right after a batch's requestId is stored and before anything is acted
   * on (a crash at the worst moment, for the e2e). Empty in production.
   */
  @IsIn(['', 'exit']) EVENT_FEED_CRASH_AFTER_STORE: '' | 'exit' = '';
  /** Non-public addresses (and plain http) its ATS calls may reach: `none` unless local mode or tests say. */
  @IsIn(ADDRESS_ALLOWANCES) ALLOW_PRIVATE_ADDRESSES: AddressAllowance = 'none';
}
