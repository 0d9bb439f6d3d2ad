import type { MigrationInterface, QueryRunner } from 'typeorm';

/** An outbox row the relay set aside (OUTBOX_SCHEMA, in `migrations_persistence`): see OutboxRelay. */
export class OutboxParkedMigration1763900000610 implements MigrationInterface {
  name = 'OutboxParkedMigration1763900000610';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "outbox_message" ADD COLUMN IF NOT EXISTS "parked_at" timestamptz`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "outbox_message" DROP COLUMN IF EXISTS "parked_at"`);
  }
}
