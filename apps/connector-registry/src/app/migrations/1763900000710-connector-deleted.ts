import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Deleted connectors by when: the retention job's rules (a deleted connector's runs, mappings, failures, then
 * the connector) find them without reading every live connector, hourly, four times.
 */
export class ConnectorDeleted1763900000710 implements MigrationInterface {
  name = 'ConnectorDeleted1763900000710';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX IF NOT EXISTS "ix_connector_deleted" ON "connector" ("deleted_at") WHERE "deleted_at" IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX IF EXISTS "ix_connector_deleted"`);
  }
}
