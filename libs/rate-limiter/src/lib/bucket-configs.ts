import { RateLimiterError, RateLimiterErrorCode } from './rate-limiter.errors';
import type { BucketConfigResolver } from './rate-limiter';
import { assertValidConfig, type BucketConfig } from './token-bucket';

/** The buckets' configs a limiter knows: set with configure(), or found by the resolver; validated either way. */
export class BucketConfigs {
  private readonly configs = new Map<string, BucketConfig>();

  constructor(private readonly resolve?: BucketConfigResolver) {}

  set(key: string, config: BucketConfig): void {
    assertValidConfig(config);
    this.configs.set(key, { ...config });
  }

  find(key: string): BucketConfig | undefined {
    const config = this.configs.get(key) ?? this.resolve?.(key);
    if (config) assertValidConfig(config);
    return config;
  }

  require(key: string): BucketConfig {
    const config = this.find(key);
    if (!config) {
      throw new RateLimiterError(
        RateLimiterErrorCode.NotConfigured,
        key,
        `no rate limit config for key "${key}"`,
      );
    }
    return config;
  }
}
