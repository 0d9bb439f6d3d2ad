import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The progress of each candidate erasure: the parts that reported, and when completion was announced. */
export class CandidateErasure1763900000506 implements MigrationInterface {
  name = 'CandidateErasure1763900000506';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "candidate_erasure" (
        "account_id" text NOT NULL,
        "candidate_id" text NOT NULL,
        "parts" jsonb NOT NULL DEFAULT '{}',
        "completion_event_id" uuid NOT NULL,
        "correlation_id" text,
        "requested_at" timestamptz NOT NULL DEFAULT now(),
        "completed_at" timestamptz,
        CONSTRAINT "pk_candidate_erasure" PRIMARY KEY ("account_id", "candidate_id")
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "candidate_erasure"`);
  }
}
