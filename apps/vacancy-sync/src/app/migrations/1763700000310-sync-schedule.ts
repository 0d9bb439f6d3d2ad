import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The fleet scheduler: a connector's customer system (`system_key`, learnt at its first run, so runs on one
 * system can be capped across processes), a run's scheduled time (`scheduled_at`: its start minus it is the
 * scheduler's lag), and the indexes the claim reads at fleet size.
 */
export class SyncSchedule1763700000310 implements MigrationInterface {
  name = 'SyncSchedule1763700000310';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sync_connector" ADD COLUMN IF NOT EXISTS "system_key" text`);
    await queryRunner.query(`ALTER TABLE "sync_run" ADD COLUMN IF NOT EXISTS "scheduled_at" timestamptz`);
    await queryRunner.query(
      `CREATE INDEX IF NOT EXISTS "ix_sync_connector_first_due" ON "sync_connector" ("next_run_at") WHERE "active" AND "last_success_started_at" IS NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX IF NOT EXISTS "ix_sync_connector_system_leased" ON "sync_connector" ("system_key") WHERE "lease_owner" IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX IF EXISTS "ix_sync_connector_system_leased"`);
    await queryRunner.query(`DROP INDEX IF EXISTS "ix_sync_connector_first_due"`);
    await queryRunner.query(`ALTER TABLE "sync_run" DROP COLUMN IF EXISTS "scheduled_at"`);
    await queryRunner.query(`ALTER TABLE "sync_connector" DROP COLUMN IF EXISTS "system_key"`);
  }
}
