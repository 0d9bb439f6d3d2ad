import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AuthGatewayTables1763700000100 implements MigrationInterface {
  name = 'AuthGatewayTables1763700000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "connector_credential" (
        "connector_id" text PRIMARY KEY,
        "account_id" text NOT NULL,
        "ats_type" text NOT NULL CHECK ("ats_type" IN ('ats-a', 'ats-b')),
        "state" text NOT NULL CHECK ("state" IN ('active', 'authorization_required')),
        "base_url" text,
        "client_id" text,
        "secret" jsonb,
        "access" jsonb,
        "access_expires_at" timestamptz,
        "access_fingerprint" text,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE "oauth_state" (
        "state_hash" text PRIMARY KEY,
        "connector_id" text NOT NULL,
        "account_id" text NOT NULL,
        "admin_id" text NOT NULL,
        "nonce_hash" text NOT NULL,
        "expires_at" timestamptz NOT NULL,
        "used_at" timestamptz
      )`);
    await queryRunner.query(`CREATE INDEX "ix_oauth_state_connector" ON "oauth_state" ("connector_id")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "oauth_state"`);
    await queryRunner.query(`DROP TABLE "connector_credential"`);
  }
}
