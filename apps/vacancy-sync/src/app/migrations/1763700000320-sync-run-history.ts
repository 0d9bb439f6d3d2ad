import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each connector's runs newest first, whatever their status: the retention job trims every connector's
 * history through it (RUN_HISTORY_PER_CONNECTOR, RUN_HISTORY_DAYS); and closed vacancies by when they
 * closed (CLOSED_VACANCY_RETENTION_DAYS).
 */
export class SyncRunHistory1763700000320 implements MigrationInterface {
  name = 'SyncRunHistory1763700000320';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX IF NOT EXISTS "ix_sync_run_connector_created" ON "sync_run" ("connector_id", "created_at")`,
    );
    await queryRunner.query(
      `CREATE INDEX IF NOT EXISTS "ix_vacancy_state_closed" ON "vacancy_state" ("updated_at") WHERE NOT "live"`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX IF EXISTS "ix_vacancy_state_closed"`);
    await queryRunner.query(`DROP INDEX IF EXISTS "ix_sync_run_connector_created"`);
  }
}
