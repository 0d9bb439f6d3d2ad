import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A candidate's refs and files across connectors (erasure's `connectorsOf`): found by candidate instead of a
 * read of every row, millions at fleet size.
 */
export class DocumentsByCandidate1763900000720 implements MigrationInterface {
  name = 'DocumentsByCandidate1763900000720';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX IF NOT EXISTS "ix_candidate_ref_candidate" ON "candidate_ref" ("candidate_id")`,
    );
    await queryRunner.query(
      `CREATE INDEX IF NOT EXISTS "ix_document_link_candidate" ON "document_link" ("candidate_id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX IF EXISTS "ix_document_link_candidate"`);
    await queryRunner.query(`DROP INDEX IF EXISTS "ix_candidate_ref_candidate"`);
  }
}
