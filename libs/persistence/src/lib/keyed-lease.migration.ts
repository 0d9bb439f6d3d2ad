import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Creates `keyed_lease`. KEYED_LEASE_SCHEMA, recorded in `migrations_persistence`; databases where
 * services recorded it in their own history already have the table, hence IF NOT EXISTS.
 */
export class KeyedLeaseMigration1763700000002 implements MigrationInterface {
  name = 'KeyedLeaseMigration1763700000002';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE IF NOT EXISTS "keyed_lease" (
        "namespace" text NOT NULL,
        "key" text NOT NULL,
        "owner" text NOT NULL,
        "expires_at" timestamptz NOT NULL,
        PRIMARY KEY ("namespace", "key")
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS "keyed_lease"`);
  }
}
