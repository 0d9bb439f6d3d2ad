import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A connector keeps the version of the options its schedule was last set from (`connector.changed`), so a
 * change applies once, an older one never overwrites a newer, and a run started before it keeps its interval.
 */
export class SyncConnectorOptionsVersion1764000005001 implements MigrationInterface {
  name = 'SyncConnectorOptionsVersion1764000005001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "sync_connector" ADD COLUMN IF NOT EXISTS "options_version" integer NOT NULL DEFAULT 0`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sync_connector" DROP COLUMN IF EXISTS "options_version"`);
  }
}
