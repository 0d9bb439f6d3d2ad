import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The candidate each dead letter is about, so that `candidate.erased` removes it: taken from the kept bodies
 * (JSON envelopes whose data has a `candidateId`; anything else stays null).
 */
export class DeadLetterCandidate1763900000505 implements MigrationInterface {
  name = 'DeadLetterCandidate1763900000505';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "dead_letter" ADD COLUMN "candidate_id" text`);
    // Read as text without failing on bytes that are not UTF-8 or not JSON: a pattern, not a parse.
    await queryRunner.query(`
      UPDATE "dead_letter"
         SET "candidate_id" = substring(encode("body", 'escape') from '"candidateId"\\s*:\\s*"([^"\\\\]*)"')
       WHERE encode("body", 'escape') LIKE '%"candidateId"%'`);
    await queryRunner.query(
      `CREATE INDEX "ix_dead_letter_account_candidate" ON "dead_letter" ("account_id", "candidate_id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "ix_dead_letter_account_candidate"`);
    await queryRunner.query(`ALTER TABLE "dead_letter" DROP COLUMN "candidate_id"`);
  }
}
