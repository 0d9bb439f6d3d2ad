import type { MigrationInterface, QueryRunner } from 'typeorm';

/** `outbox_message` (OUTBOX_SCHEMA): applied once per database, recorded in `migrations_persistence`. */
export class OutboxMessageMigration1763900000400 implements MigrationInterface {
  name = 'OutboxMessageMigration1763900000400';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE IF NOT EXISTS "outbox_message" (
        "id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        "publisher" text NOT NULL,
        "exchange" text NOT NULL,
        "message_id" text NOT NULL,
        "type" text NOT NULL,
        "envelope" jsonb NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "attempts" integer NOT NULL DEFAULT 0,
        "last_error" text,
        "sent_at" timestamptz
      )`);
    await queryRunner.query(
      `CREATE INDEX IF NOT EXISTS "ix_outbox_message_unsent" ON "outbox_message" ("publisher", "id") WHERE "sent_at" IS NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS "outbox_message"`);
  }
}
