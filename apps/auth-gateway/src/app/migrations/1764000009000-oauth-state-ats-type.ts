import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A pending login's state names the ATS it was issued for, so another ATS's callback cannot complete it. The
 * states pending at the upgrade were all issued by the one interactive-login ATS of the time, ATS-B.
 */
export class OAuthStateAtsType1764000009000 implements MigrationInterface {
  name = 'OAuthStateAtsType1764000009000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "oauth_state" ADD COLUMN "ats_type" text`);
    await queryRunner.query(`UPDATE "oauth_state" SET "ats_type" = 'ats-b'`);
    await queryRunner.query(`ALTER TABLE "oauth_state" ALTER COLUMN "ats_type" SET NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "oauth_state" DROP COLUMN "ats_type"`);
  }
}
