import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A run's warnings ({code, message}), as vacancy-sync reports them in run.completed. */
export class RunWarnings1763800000011 implements MigrationInterface {
  name = 'RunWarnings1763800000011';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "run" ADD COLUMN IF NOT EXISTS "warnings" jsonb NOT NULL DEFAULT '[]'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "run" DROP COLUMN IF EXISTS "warnings"`);
  }
}
