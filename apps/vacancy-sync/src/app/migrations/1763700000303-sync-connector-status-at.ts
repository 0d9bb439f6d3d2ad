import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A connector keeps when the status event last applied to it happened, so an older one changes nothing. */
export class SyncConnectorStatusAt1763700000303 implements MigrationInterface {
  name = 'SyncConnectorStatusAt1763700000303';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "sync_connector" ADD COLUMN IF NOT EXISTS "status_changed_at" timestamptz`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sync_connector" DROP COLUMN IF EXISTS "status_changed_at"`);
  }
}
