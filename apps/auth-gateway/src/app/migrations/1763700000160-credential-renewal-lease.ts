import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A renewal's lease in the credential row (who renews, until when) instead of an advisory lock held on a
 * pooled connection across the ATS call; and when access in use is renewed ahead of its end, indexed so
 * the renew-ahead job's tick reads only the due rows at any fleet size.
 */
export class CredentialRenewalLease1763700000160 implements MigrationInterface {
  name = 'CredentialRenewalLease1763700000160';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "connector_credential"
         ADD COLUMN "lease_owner" text,
         ADD COLUMN "lease_until" timestamptz,
         ADD COLUMN "renew_at" timestamptz,
         ADD COLUMN "in_use" boolean NOT NULL DEFAULT false`,
    );
    await queryRunner.query(
      `CREATE INDEX IF NOT EXISTS "ix_connector_credential_renew" ON "connector_credential" ("renew_at")
         WHERE "state" = 'active' AND "in_use"`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX IF EXISTS "ix_connector_credential_renew"`);
    await queryRunner.query(
      `ALTER TABLE "connector_credential"
         DROP COLUMN "lease_owner", DROP COLUMN "lease_until", DROP COLUMN "renew_at", DROP COLUMN "in_use"`,
    );
  }
}
