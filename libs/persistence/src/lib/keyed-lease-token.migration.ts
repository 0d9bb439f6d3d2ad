import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The fencing token of each lease, from one sequence (KEYED_LEASE_SCHEMA, in `migrations_persistence`). */
export class KeyedLeaseTokenMigration1763900000500 implements MigrationInterface {
  name = 'KeyedLeaseTokenMigration1763900000500';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE SEQUENCE IF NOT EXISTS "keyed_lease_token"`);
    await queryRunner.query(
      `ALTER TABLE "keyed_lease" ADD COLUMN IF NOT EXISTS "token" bigint NOT NULL DEFAULT 0`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "keyed_lease" DROP COLUMN IF EXISTS "token"`);
    await queryRunner.query(`DROP SEQUENCE IF EXISTS "keyed_lease_token"`);
  }
}
