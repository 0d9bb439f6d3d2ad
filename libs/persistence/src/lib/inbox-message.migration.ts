import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Shared by every service in the database, so written to be applied more than once. */
export class InboxMessageMigration1763700000001 implements MigrationInterface {
  name = 'InboxMessageMigration1763700000001';

  async up(queryRunner: QueryRunner): Promise<void> {
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

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS "inbox_message"`);
  }
}
