import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The broker user that published a dead letter, so that a replay is checked against it (issue 14). */
export class DeadLetterPublishedBy1763900000300 implements MigrationInterface {
  name = 'DeadLetterPublishedBy1763900000300';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "dead_letter" ADD COLUMN IF NOT EXISTS "published_by" text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "dead_letter" DROP COLUMN IF EXISTS "published_by"`);
  }
}
