import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createIndexConcurrently, dropIndexConcurrently } from '@connector/persistence';

/**
 * A candidate's refs and files across connectors (erasure's `connectorsOf`): found by candidate instead of a
 * read of every row, millions at fleet size. Built without blocking the tables' writes.
 */
export class DocumentsByCandidate1763900000720 implements MigrationInterface {
  name = 'DocumentsByCandidate1763900000720';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    await createIndexConcurrently(
      queryRunner,
      'ix_candidate_ref_candidate',
      `ON "candidate_ref" ("candidate_id")`,
    );
    await createIndexConcurrently(
      queryRunner,
      'ix_document_link_candidate',
      `ON "document_link" ("candidate_id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropIndexConcurrently(queryRunner, 'ix_document_link_candidate');
    await dropIndexConcurrently(queryRunner, 'ix_candidate_ref_candidate');
  }
}
