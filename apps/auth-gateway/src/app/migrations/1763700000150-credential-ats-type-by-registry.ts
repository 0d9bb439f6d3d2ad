import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A credential's `ats_type` is its connector's, which the ATS registry (`@connector/ats-registry`) checked
 * when the connector was created; no CHECK lists the names any more (issue 27).
 */
export class CredentialAtsTypeByRegistry1763700000150 implements MigrationInterface {
  name = 'CredentialAtsTypeByRegistry1763700000150';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "connector_credential" DROP CONSTRAINT IF EXISTS "connector_credential_ats_type_check"`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "connector_credential" ADD CONSTRAINT "connector_credential_ats_type_check" CHECK ("ats_type" IN ('ats-a', 'ats-b'))`,
    );
  }
}
