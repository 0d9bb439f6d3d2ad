import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The erased candidates' tombstones: ERASED_CANDIDATE_SCHEMA, recorded in `migrations_persistence`. */
export class ErasedCandidateMigration1763900000504 implements MigrationInterface {
  name = 'ErasedCandidateMigration1763900000504';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE IF NOT EXISTS "erased_candidate" (
        "account_id" text NOT NULL,
        "candidate_id" text NOT NULL,
        "erased_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "pk_erased_candidate" PRIMARY KEY ("account_id", "candidate_id")
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS "erased_candidate"`);
  }
}
