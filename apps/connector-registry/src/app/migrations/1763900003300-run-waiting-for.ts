import type { MigrationInterface, QueryRunner } from 'typeorm';

/** What a waiting run waits for: ATS budget, or its ATS system (slow, busy or failing: issue 33). */
export class RunWaitingFor1763900003300 implements MigrationInterface {
  name = 'RunWaitingFor1763900003300';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "run" ADD COLUMN IF NOT EXISTS "waiting_for" text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "run" DROP COLUMN IF EXISTS "waiting_for"`);
  }
}
