import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createIndexConcurrently, dropIndexConcurrently } from '@connector/persistence';

/**
 * A candidate's links across connectors (erasure's `connectorsOf`): found by candidate instead of a read of
 * every link, millions at fleet size. Built without blocking the table's writes.
 */
export class CandidateLinkByCandidate1763900000720 implements MigrationInterface {
  name = 'CandidateLinkByCandidate1763900000720';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    await createIndexConcurrently(
      queryRunner,
      'ix_candidate_link_candidate',
      `ON "candidate_link" ("candidate_id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropIndexConcurrently(queryRunner, 'ix_candidate_link_candidate');
  }
}
