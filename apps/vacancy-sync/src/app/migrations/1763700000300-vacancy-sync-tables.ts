import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * vacancy-sync's tables: what was published per vacancy (`vacancy_state`), the connectors it syncs with their
 * schedule and run lease (`sync_connector`), and the runs with their cursor (`sync_run`).
 */
export class VacancySyncTables1763700000300 implements MigrationInterface {
  name = 'VacancySyncTables1763700000300';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE IF NOT EXISTS "vacancy_state" (
        "connector_id" text NOT NULL,
        "external_id" text NOT NULL,
        "content_hash" text NOT NULL,
        "live" boolean NOT NULL,
        "last_seen_run" text NOT NULL,
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "pk_vacancy_state" PRIMARY KEY ("connector_id", "external_id")
      )`);
    await queryRunner.query(
      `CREATE INDEX IF NOT EXISTS "ix_vacancy_state_live_seen" ON "vacancy_state" ("connector_id", "last_seen_run") WHERE "live"`,
    );
    await queryRunner.query(`
      CREATE TABLE IF NOT EXISTS "sync_connector" (
        "connector_id" text PRIMARY KEY,
        "account_id" text NOT NULL,
        "interval_seconds" integer NOT NULL DEFAULT 900,
        "next_run_at" timestamptz NOT NULL,
        "active" boolean NOT NULL DEFAULT true,
        "last_success_started_at" timestamptz,
        "last_full_started_at" timestamptz,
        "lease_owner" text,
        "lease_until" timestamptz
      )`);
    await queryRunner.query(
      `CREATE INDEX IF NOT EXISTS "ix_sync_connector_due" ON "sync_connector" ("next_run_at") WHERE "active"`,
    );
    await queryRunner.query(`
      CREATE TABLE IF NOT EXISTS "sync_run" (
        "run_id" text PRIMARY KEY,
        "connector_id" text NOT NULL,
        "account_id" text NOT NULL,
        "trigger" text NOT NULL,
        "requested_mode" text,
        "mode" text,
        "since" timestamptz,
        "status" text NOT NULL,
        "phase" text NOT NULL DEFAULT 'listing',
        "after_position" bigint NOT NULL DEFAULT 0,
        "fetched" integer NOT NULL DEFAULT 0,
        "upserted" integer NOT NULL DEFAULT 0,
        "unchanged" integer NOT NULL DEFAULT 0,
        "closed" integer NOT NULL DEFAULT 0,
        "api_calls" integer NOT NULL DEFAULT 0,
        "attempts" integer NOT NULL DEFAULT 0,
        "resume_at" timestamptz,
        "error" text,
        "correlation_id" text,
        "created_at" timestamptz NOT NULL DEFAULT clock_timestamp(),
        "started_at" timestamptz,
        "finished_at" timestamptz
      )`);
    await queryRunner.query(
      `CREATE INDEX IF NOT EXISTS "ix_sync_run_open" ON "sync_run" ("connector_id", "created_at") WHERE "status" IN ('queued', 'running', 'paused')`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS "sync_run"`);
    await queryRunner.query(`DROP TABLE IF EXISTS "sync_connector"`);
    await queryRunner.query(`DROP TABLE IF EXISTS "vacancy_state"`);
  }
}
