import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Deleted connectors as workers learn of them: DELETED_CONNECTOR_SCHEMA, recorded in `migrations_persistence`. */
export class DeletedConnectorMigration1763900000507 implements MigrationInterface {
  name = 'DeletedConnectorMigration1763900000507';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE IF NOT EXISTS "deleted_connector" (
        "connector_id" text PRIMARY KEY,
        "deleted_at" timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS "deleted_connector"`);
  }
}
