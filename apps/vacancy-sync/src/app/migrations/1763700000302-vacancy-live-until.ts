import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A published vacancy keeps the last day the ATS advertises it, so any run can close it once that day passed. */
export class VacancyLiveUntil1763700000302 implements MigrationInterface {
  name = 'VacancyLiveUntil1763700000302';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "vacancy_state" ADD COLUMN IF NOT EXISTS "live_until" date`);
    await queryRunner.query(
      `CREATE INDEX IF NOT EXISTS "ix_vacancy_state_live_until" ON "vacancy_state" ("connector_id", "live_until") WHERE "live" AND "live_until" IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX IF EXISTS "ix_vacancy_state_live_until"`);
    await queryRunner.query(`ALTER TABLE "vacancy_state" DROP COLUMN IF EXISTS "live_until"`);
  }
}
