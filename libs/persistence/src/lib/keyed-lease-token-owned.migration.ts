import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The lease token's sequence goes with its table: whoever may take leases may draw tokens (service-roles.ts). */
export class KeyedLeaseTokenOwnedMigration1764000003003 implements MigrationInterface {
  name = 'KeyedLeaseTokenOwnedMigration1764000003003';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER SEQUENCE "keyed_lease_token" OWNED BY "keyed_lease"."token"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER SEQUENCE "keyed_lease_token" OWNED BY NONE`);
  }
}
