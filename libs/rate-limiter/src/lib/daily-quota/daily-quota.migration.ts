import type { MigrationInterface } from 'typeorm';
import type { SharedSchema, SqlQueryable } from '@connector/persistence';
import { AtsQuotaEntity, AtsQuotaWaiterEntity } from './ats-quota.entity';

/** One row per ATS customer system (its quota window), shared by every process of every service. */
export const ATS_QUOTA_TABLE = 'ats_quota';
/** Work waiting for budget (messages, runs), so operators can see it; rows refresh while they wait. */
export const ATS_QUOTA_WAITER_TABLE = 'ats_quota_waiter';

/**
 * Creates the daily-quota planner's tables (DAILY_QUOTA_SCHEMA, recorded in `migrations_rate_limiter`);
 * databases where services recorded it in their own history already have them, hence IF NOT EXISTS.
 */
export class DailyQuotaMigration1764000000000 implements MigrationInterface {
  readonly name = 'DailyQuotaMigration1764000000000';

  async up(queryRunner: SqlQueryable): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE IF NOT EXISTS "${ATS_QUOTA_TABLE}" (
        "key" text NOT NULL,
        "daily_limit" double precision NOT NULL,
        "ats_limit" double precision NULL,
        "used" double precision NOT NULL DEFAULT 0,
        "our_used" double precision NOT NULL DEFAULT 0,
        "push_spent" double precision NOT NULL DEFAULT 0,
        "sync_spent" double precision NOT NULL DEFAULT 0,
        "reset_at" timestamptz NOT NULL,
        "paused_until" timestamptz NULL,
        "rate" double precision NOT NULL DEFAULT 0,
        "updated_at" timestamptz NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT "pk_ats_quota" PRIMARY KEY ("key")
      )`);
    await queryRunner.query(`
      CREATE TABLE IF NOT EXISTS "${ATS_QUOTA_WAITER_TABLE}" (
        "key" text NOT NULL,
        "waiter_id" text NOT NULL,
        "kind" text NOT NULL,
        "waiting_until" timestamptz NOT NULL,
        "seen_at" timestamptz NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT "pk_ats_quota_waiter" PRIMARY KEY ("key", "waiter_id")
      )`);
  }

  async down(queryRunner: SqlQueryable): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS "${ATS_QUOTA_WAITER_TABLE}"`);
    await queryRunner.query(`DROP TABLE IF EXISTS "${ATS_QUOTA_TABLE}"`);
  }
}

/** `ats_quota` and `ats_quota_waiter`, for services that use PostgresDailyQuota. */
export const DAILY_QUOTA_SCHEMA: SharedSchema = {
  owner: 'rate-limiter',
  entities: [AtsQuotaEntity, AtsQuotaWaiterEntity],
  migrations: [DailyQuotaMigration1764000000000],
};
