import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per connector of an ATS with vacancy events (ATS-B subscriptions): its subscription, whether it is healthy
 * (`events`) or being made again while the runs carry on alone (`polling`), the batch read and not yet applied
 * (`pending_request_id`: read again after a crash), and when it is read next (the due index the pollers claim by).
 */
export class VacancyEventFeed1763700000330 implements MigrationInterface {
  name = 'VacancyEventFeed1763700000330';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE IF NOT EXISTS "vacancy_event_feed" (
      "connector_id" text NOT NULL,
      "account_id" text NOT NULL,
      "subscription_id" text NOT NULL,
      "mode" text NOT NULL DEFAULT 'polling',
      "pending_request_id" integer,
      "next_read_at" timestamptz NOT NULL,
      "poll_seconds" integer NOT NULL DEFAULT 60,
      "last_read_at" timestamptz,
      "last_event_at" timestamptz,
      "since" timestamptz NOT NULL DEFAULT now(),
      "reason" text,
      "failures" integer NOT NULL DEFAULT 0,
      "catch_up" boolean NOT NULL DEFAULT false,
      CONSTRAINT "pk_vacancy_event_feed" PRIMARY KEY ("connector_id")
    )`);
    await queryRunner.query(
      `CREATE INDEX IF NOT EXISTS "ix_vacancy_event_feed_due" ON "vacancy_event_feed" ("next_read_at")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS "vacancy_event_feed"`);
  }
}
