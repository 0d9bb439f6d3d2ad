import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Deletions as each worker's own rows (`owner_role`), as ErasedCandidateOwnerMigration1764000003001 does for
 * `erased_candidate`.
 */
export class DeletedConnectorOwnerMigration1764000003002 implements MigrationInterface {
  name = 'DeletedConnectorOwnerMigration1764000003002';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "deleted_connector" ADD COLUMN IF NOT EXISTS "owner_role" text NOT NULL DEFAULT CURRENT_USER`,
    );
    await queryRunner.query(`ALTER TABLE "deleted_connector" DROP CONSTRAINT "deleted_connector_pkey"`);
    await queryRunner.query(
      `ALTER TABLE "deleted_connector" ADD CONSTRAINT "pk_deleted_connector" PRIMARY KEY ("connector_id", "owner_role")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "deleted_connector" DROP CONSTRAINT "pk_deleted_connector"`);
    await queryRunner.query(
      `DELETE FROM "deleted_connector" a USING "deleted_connector" b
        WHERE a.connector_id = b.connector_id AND a.owner_role > b.owner_role`,
    );
    await queryRunner.query(`ALTER TABLE "deleted_connector" DROP COLUMN "owner_role"`);
    await queryRunner.query(
      `ALTER TABLE "deleted_connector" ADD CONSTRAINT "deleted_connector_pkey" PRIMARY KEY ("connector_id")`,
    );
  }
}
