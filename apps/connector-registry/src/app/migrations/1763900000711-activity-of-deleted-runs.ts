import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A connector's day keeps the totals of its runs the retention job deleted (calls, vacancies published,
 * failed runs), so the 14 days of activity stay whole when its run history is shorter; and days are found
 * by date, for the job that lets old ones go.
 */
export class ActivityOfDeletedRuns1763900000711 implements MigrationInterface {
  name = 'ActivityOfDeletedRuns1763900000711';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const column of ['deleted_runs_api_calls', 'deleted_runs_published', 'deleted_runs_failed']) {
      await queryRunner.query(
        `ALTER TABLE "connector_activity" ADD COLUMN IF NOT EXISTS "${column}" integer NOT NULL DEFAULT 0`,
      );
    }
    await queryRunner.query(
      `CREATE INDEX IF NOT EXISTS "ix_connector_activity_day" ON "connector_activity" ("day")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX IF EXISTS "ix_connector_activity_day"`);
    for (const column of ['deleted_runs_api_calls', 'deleted_runs_published', 'deleted_runs_failed']) {
      await queryRunner.query(`ALTER TABLE "connector_activity" DROP COLUMN IF EXISTS "${column}"`);
    }
  }
}
