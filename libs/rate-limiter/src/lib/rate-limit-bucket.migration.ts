import type { MigrationInterface } from 'typeorm';
import type { SharedSchema, SqlQueryable } from '@connector/persistence';
import { RateLimitBucketEntity } from './rate-limit-bucket.entity';

/** One row per limiter key, shared by every process of every service. */
export const RATE_LIMIT_BUCKET_TABLE = 'rate_limit_bucket';

/**
 * Creates the shared buckets (RATE_LIMIT_BUCKET_SCHEMA, recorded in `migrations_rate_limiter`); databases
 * where services recorded it in their own history already have the table, hence IF NOT EXISTS. Tests can run
 * up() with a plain pg client, since it only needs query().
 */
export class RateLimitBucketMigration1763700000000 implements MigrationInterface {
  readonly name = 'RateLimitBucketMigration1763700000000';

  async up(queryRunner: SqlQueryable): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE IF NOT EXISTS "${RATE_LIMIT_BUCKET_TABLE}" (
        "key" text NOT NULL,
        "tokens" double precision NOT NULL,
        "capacity" double precision NOT NULL,
        "refill_per_second" double precision NOT NULL,
        "reserve" double precision NOT NULL DEFAULT 0,
        "updated_at" timestamptz NOT NULL DEFAULT clock_timestamp(),
        "paused_until" timestamptz NULL,
        CONSTRAINT "pk_rate_limit_bucket" PRIMARY KEY ("key")
      )`);
  }

  async down(queryRunner: SqlQueryable): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS "${RATE_LIMIT_BUCKET_TABLE}"`);
  }
}

/** `rate_limit_bucket`, for services that use PostgresRateLimiter. */
export const RATE_LIMIT_BUCKET_SCHEMA: SharedSchema = {
  owner: 'rate-limiter',
  entities: [RateLimitBucketEntity],
  migrations: [RateLimitBucketMigration1763700000000],
};
