import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which save of a connector's credentials a row holds (a new value on every save): a renewal writes its
 * outcome only while the row still holds the credentials it renewed.
 */
export class CredentialGeneration1763700000130 implements MigrationInterface {
  name = 'CredentialGeneration1763700000130';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "connector_credential" ADD COLUMN "generation" text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "connector_credential" DROP COLUMN "generation"`);
  }
}
