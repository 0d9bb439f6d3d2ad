import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The inbox table goes: it was written before each handler and never read, and every handler is idempotent
 * (claims in libs/exactly-once, order-proof run and status updates), so it de-duplicated nothing. Every
 * service once created it in the one database; the registry drops it.
 */
export class DropInboxMessage1763900000100 implements MigrationInterface {
  name = 'DropInboxMessage1763900000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS "inbox_message"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE IF NOT EXISTS "inbox_message" (
        "id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        "consumer" text NOT NULL,
        "message_id" text NOT NULL,
        "type" text NOT NULL,
        "account_id" text NOT NULL,
        "received_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX IF NOT EXISTS "uq_inbox_message_consumer_message" ON "inbox_message" ("consumer", "message_id")`,
    );
  }
}
