import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tombstones and deletions as each service's own rows (`owner_role`, the database role that wrote the row),
 * so under per-service roles row-level security keeps one service's rows from another (see service-roles.ts).
 * With one role for every service (local mode, the tests) the rows are shared as before.
 */
export class ErasedCandidateOwnerMigration1764000003001 implements MigrationInterface {
  name = 'ErasedCandidateOwnerMigration1764000003001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "erased_candidate" ADD COLUMN IF NOT EXISTS "owner_role" text NOT NULL DEFAULT CURRENT_USER`,
    );
    await queryRunner.query(`ALTER TABLE "erased_candidate" DROP CONSTRAINT "pk_erased_candidate"`);
    await queryRunner.query(
      `ALTER TABLE "erased_candidate" ADD CONSTRAINT "pk_erased_candidate" PRIMARY KEY ("account_id", "candidate_id", "owner_role")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "erased_candidate" DROP CONSTRAINT "pk_erased_candidate"`);
    await queryRunner.query(
      `DELETE FROM "erased_candidate" a USING "erased_candidate" b
        WHERE a.account_id = b.account_id AND a.candidate_id = b.candidate_id AND a.owner_role > b.owner_role`,
    );
    await queryRunner.query(`ALTER TABLE "erased_candidate" DROP COLUMN "owner_role"`);
    await queryRunner.query(
      `ALTER TABLE "erased_candidate" ADD CONSTRAINT "pk_erased_candidate" PRIMARY KEY ("account_id", "candidate_id")`,
    );
  }
}
