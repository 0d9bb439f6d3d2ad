import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A candidate's links across connectors (erasure's `connectorsOf`): found by candidate instead of a read of
 * every link, millions at fleet size.
 */
export class CandidateLinkByCandidate1763900000720 implements MigrationInterface {
  name = 'CandidateLinkByCandidate1763900000720';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX IF NOT EXISTS "ix_candidate_link_candidate" ON "candidate_link" ("candidate_id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX IF EXISTS "ix_candidate_link_candidate"`);
  }
}
