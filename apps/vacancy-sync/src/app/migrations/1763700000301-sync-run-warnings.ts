import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A run keeps how many records the ATS returned and what it warns about, across pauses and processes. */
export class SyncRunWarnings1763700000301 implements MigrationInterface {
  name = 'SyncRunWarnings1763700000301';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "sync_run" ADD COLUMN IF NOT EXISTS "read_records" integer NOT NULL DEFAULT 0`,
    );
    await queryRunner.query(
      `ALTER TABLE "sync_run" ADD COLUMN IF NOT EXISTS "warnings" jsonb NOT NULL DEFAULT '[]'::jsonb`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sync_run" DROP COLUMN IF EXISTS "warnings"`);
    await queryRunner.query(`ALTER TABLE "sync_run" DROP COLUMN IF EXISTS "read_records"`);
  }
}
