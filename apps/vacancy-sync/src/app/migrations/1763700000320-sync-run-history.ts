import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createIndexConcurrently, dropIndexConcurrently } from '@connector/persistence';

/**
 * Each connector's runs newest first, whatever their status: the retention job trims every connector's
 * history through it (RUN_HISTORY_PER_CONNECTOR, RUN_HISTORY_DAYS); and closed vacancies by when they
 * closed (CLOSED_VACANCY_RETENTION_DAYS). Built without blocking the tables' writes, which may already hold
 * months of runs and every vacancy ever seen.
 */
export class SyncRunHistory1763700000320 implements MigrationInterface {
  name = 'SyncRunHistory1763700000320';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    await createIndexConcurrently(
      queryRunner,
      'ix_sync_run_connector_created',
      `ON "sync_run" ("connector_id", "created_at")`,
    );
    await createIndexConcurrently(
      queryRunner,
      'ix_vacancy_state_closed',
      `ON "vacancy_state" ("updated_at") WHERE NOT "live"`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropIndexConcurrently(queryRunner, 'ix_vacancy_state_closed');
    await dropIndexConcurrently(queryRunner, 'ix_sync_run_connector_created');
  }
}
