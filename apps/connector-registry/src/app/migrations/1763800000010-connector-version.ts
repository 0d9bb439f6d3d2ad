import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A version per connector, so workers can tell that the snapshot they hold is behind. */
export class ConnectorVersion1763800000010 implements MigrationInterface {
  name = 'ConnectorVersion1763800000010';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "connector" ADD COLUMN "version" integer NOT NULL DEFAULT 1`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "connector" DROP COLUMN "version"`);
  }
}
