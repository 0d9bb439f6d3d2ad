import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The in-flight marker of an ATS-B refresh (set before a single-use refresh token is spent, cleared when
 * the rotated one is stored), and the `rejected` state of ATS-A credentials the ATS refused (kept, and
 * re-checked at `recheck_at`).
 */
export class CredentialRefreshMarker1763700000110 implements MigrationInterface {
  name = 'CredentialRefreshMarker1763700000110';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE "connector_credential"
        ADD COLUMN "refresh_marker" text,
        ADD COLUMN "refresh_started_at" timestamptz,
        ADD COLUMN "recheck_at" timestamptz,
        DROP CONSTRAINT IF EXISTS "connector_credential_state_check",
        ADD CONSTRAINT "connector_credential_state_check"
          CHECK ("state" IN ('active', 'authorization_required', 'rejected'))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE "connector_credential" SET "state" = 'authorization_required' WHERE "state" = 'rejected'`,
    );
    await queryRunner.query(`
      ALTER TABLE "connector_credential"
        DROP CONSTRAINT "connector_credential_state_check",
        ADD CONSTRAINT "connector_credential_state_check" CHECK ("state" IN ('active', 'authorization_required')),
        DROP COLUMN "recheck_at",
        DROP COLUMN "refresh_started_at",
        DROP COLUMN "refresh_marker"`);
  }
}
