import {
  acquireWithRetry,
  defaultJitter,
  type AcquireLoopDeps,
  type AttemptOutcome,
} from '../lib/acquire-loop';
import { BucketConfigs } from '../lib/bucket-configs';
import { RateLimiterErrorCode } from '../lib/rate-limiter.errors';
import {
  systemClock,
  type AcquireOptions,
  type AcquireResult,
  type BucketSnapshot,
  type RateLimiter,
  type RateLimiterOptions,
} from '../lib/rate-limiter';
import { refill, type BucketConfig, type BucketState } from '../lib/token-bucket';
import { fullBucket, tryTake } from './token-bucket.model';

interface Bucket {
  state: BucketState;
  pausedUntil: number | null;
}

/**
 * One process only, for tests: the bucket and retry rules (token-bucket.ts, acquire-loop.ts) the Postgres
 * limiter shares, checked without a database by its spec. Every step between awaits is synchronous, so a try is atomic without locks.
 */
export class InMemoryRateLimiter implements RateLimiter {
  private readonly configs: BucketConfigs;
  private readonly buckets = new Map<string, Bucket>();
  private readonly deps: AcquireLoopDeps;

  constructor(private readonly options: RateLimiterOptions = {}) {
    this.deps = { clock: options.clock ?? systemClock, jitterMs: options.jitterMs ?? defaultJitter };
    this.configs = new BucketConfigs(options.resolveConfig);
  }

  configure(key: string, config: BucketConfig): void {
    this.configs.set(key, config);
  }

  async acquire(key: string, cost: number, options: AcquireOptions = {}): Promise<AcquireResult> {
    const config = this.configs.require(key);
    const priority = options.priority ?? 'normal';
    const attempt = (): Promise<AttemptOutcome> => {
      const now = this.deps.clock.now();
      const bucket = this.bucketOf(key, config, now);
      if (bucket.pausedUntil !== null && bucket.pausedUntil > now) {
        return Promise.resolve({
          granted: false,
          retryAfterMs: bucket.pausedUntil - now,
          reason: RateLimiterErrorCode.Paused,
        });
      }
      const result = tryTake(bucket.state, config, cost, priority, now);
      bucket.state = result.state;
      return Promise.resolve(
        result.granted
          ? { granted: true }
          : { granted: false, retryAfterMs: result.retryAfterMs, reason: RateLimiterErrorCode.Exceeded },
      );
    };
    return acquireWithRetry(key, cost, config, options, attempt, this.deps);
  }

  async pauseUntil(key: string, until: Date): Promise<void> {
    const bucket = this.bucketOf(key, this.configs.require(key), this.deps.clock.now());
    bucket.pausedUntil = Math.max(bucket.pausedUntil ?? 0, until.getTime());
  }

  async resume(key: string): Promise<void> {
    const bucket = this.buckets.get(key);
    if (bucket) bucket.pausedUntil = null;
  }

  async peek(key: string): Promise<BucketSnapshot | undefined> {
    const config = this.configs.find(key);
    if (!config) return undefined;
    const now = this.deps.clock.now();
    const bucket = this.buckets.get(key);
    const state = bucket ? refill(bucket.state, config, now) : fullBucket(config, now);
    const pausedUntil =
      bucket?.pausedUntil != null && bucket.pausedUntil > now ? new Date(bucket.pausedUntil) : null;
    return { key, ...config, tokens: state.tokens, pausedUntil };
  }

  private bucketOf(key: string, config: BucketConfig, now: number): Bucket {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { state: fullBucket(config, now), pausedUntil: null };
      this.buckets.set(key, bucket);
    }
    return bucket;
  }
}
