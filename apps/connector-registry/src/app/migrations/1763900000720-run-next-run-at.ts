import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A finished run keeps when vacancy-sync's schedule had the connector's next run due (`run.completed`). */
export class RunNextRunAt1763900000720 implements MigrationInterface {
  name = 'RunNextRunAt1763900000720';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "run" ADD COLUMN IF NOT EXISTS "next_run_at" timestamptz`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "run" DROP COLUMN IF EXISTS "next_run_at"`);
  }
}
