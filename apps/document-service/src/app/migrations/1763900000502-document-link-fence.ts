import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The fencing token of the last candidate lock holder that read or wrote each document link: a write under
 * an older token is refused (a worker whose lease passed on to another). Null on older rows.
 */
export class DocumentLinkFence1763900000502 implements MigrationInterface {
  name = 'DocumentLinkFence1763900000502';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "document_link" ADD COLUMN "fence" bigint`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "document_link" DROP COLUMN "fence"`);
  }
}
