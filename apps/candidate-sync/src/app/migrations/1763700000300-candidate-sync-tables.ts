import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * candidate_link: platform candidate ↔ ATS record per connector, with the last event applied and what was
 * sent. application_link: one ATS application per (connector, candidate, vacancy). A row in state
 * `pending` means an ATS create may have happened: look it up in the ATS before creating again.
 */
export class CandidateSyncTables1763700000300 implements MigrationInterface {
  name = 'CandidateSyncTables1763700000300';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "candidate_link" (
        "connector_id" text NOT NULL,
        "candidate_id" text NOT NULL,
        "account_id" text NOT NULL,
        "external_id" text,
        "state" text NOT NULL CHECK ("state" IN ('pending', 'linked')),
        "created_event_id" text,
        "last_event_id" text,
        "last_occurred_at" timestamptz,
        "content_hash" text,
        "sent" jsonb NOT NULL DEFAULT '{}',
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "pk_candidate_link" PRIMARY KEY ("connector_id", "candidate_id")
      )`);
    await queryRunner.query(`
      CREATE TABLE "application_link" (
        "connector_id" text NOT NULL,
        "candidate_id" text NOT NULL,
        "vacancy_external_id" text NOT NULL,
        "application_id" text NOT NULL,
        "external_id" text,
        "state" text NOT NULL CHECK ("state" IN ('pending', 'linked')),
        "created_event_id" text,
        "last_event_id" text,
        "last_occurred_at" timestamptz,
        "content_hash" text,
        "answers" jsonb NOT NULL DEFAULT '{}',
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "pk_application_link" PRIMARY KEY ("connector_id", "candidate_id", "vacancy_external_id")
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "application_link"`);
    await queryRunner.query(`DROP TABLE "candidate_link"`);
  }
}
