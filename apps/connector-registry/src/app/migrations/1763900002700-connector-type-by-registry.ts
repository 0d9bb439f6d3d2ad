import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A connector's `type` is checked against the ATS registry (`@connector/ats-registry`) when it is created,
 * not by a CHECK that lists the names: a new ATS is one folder and one registry line, no migration (issue 27).
 */
export class ConnectorTypeByRegistry1763900002700 implements MigrationInterface {
  name = 'ConnectorTypeByRegistry1763900002700';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "connector" DROP CONSTRAINT IF EXISTS "connector_type_check"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "connector" ADD CONSTRAINT "connector_type_check" CHECK ("type" IN ('ats-a', 'ats-b'))`,
    );
  }
}
