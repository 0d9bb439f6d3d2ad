import type { MigrationInterface, QueryRunner } from 'typeorm';

export class DeadLetters1763800000002 implements MigrationInterface {
  name = 'DeadLetters1763800000002';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "dead_letter" (
        "id" uuid PRIMARY KEY,
        "queue" text NOT NULL,
        "routing_key" text NOT NULL,
        "message_id" text,
        "account_id" text,
        "connector_id" text,
        "type" text,
        "body" bytea NOT NULL,
        "reasons" jsonb NOT NULL,
        "retryable" boolean NOT NULL,
        "failed_at" timestamptz NOT NULL,
        "replayed_at" timestamptz,
        "replay_count" int NOT NULL DEFAULT 0
      )`);
    await queryRunner.query(
      `CREATE INDEX "ix_dead_letter_account_failed" ON "dead_letter" ("account_id", "failed_at")`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_dead_letter_connector_failed" ON "dead_letter" ("connector_id", "failed_at")`,
    );
    // The collector may be handed the same dead letter twice (a crash between storing and acknowledging).
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_dead_letter_once" ON "dead_letter" ("queue", "message_id", "failed_at") WHERE "message_id" IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "dead_letter"`);
  }
}
