import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A run waiting for ATS budget shows until when, as progress rather than failure. */
export class RunWaitingUntil1763800000003 implements MigrationInterface {
  name = 'RunWaitingUntil1763800000003';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "run" ADD COLUMN IF NOT EXISTS "waiting_until" timestamptz NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "run" DROP COLUMN IF EXISTS "waiting_until"`);
  }
}
