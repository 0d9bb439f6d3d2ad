import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The fencing token of the last candidate lock holder that read or wrote each link row: a write under an
 * older token is refused (a worker whose lease passed on to another). Null on older rows: any token writes.
 */
export class LinkFence1763900000501 implements MigrationInterface {
  name = 'LinkFence1763900000501';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "candidate_link" ADD COLUMN "fence" bigint`);
    await queryRunner.query(`ALTER TABLE "application_link" ADD COLUMN "fence" bigint`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "application_link" DROP COLUMN "fence"`);
    await queryRunner.query(`ALTER TABLE "candidate_link" DROP COLUMN "fence"`);
  }
}
