import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Refused ATS-A secrets by when they are tried again: the re-check job's tick (every minute, in every
 * gateway process) finds the due ones without reading every connector's credentials.
 */
export class CredentialRecheck1763700000140 implements MigrationInterface {
  name = 'CredentialRecheck1763700000140';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX IF NOT EXISTS "ix_connector_credential_recheck" ON "connector_credential" ("recheck_at") WHERE "state" = 'rejected'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX IF EXISTS "ix_connector_credential_recheck"`);
  }
}
