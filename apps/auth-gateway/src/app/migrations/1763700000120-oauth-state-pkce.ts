import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The PKCE code verifier of a pending ATS-B login, sealed like every other secret. */
export class OAuthStatePkce1763700000120 implements MigrationInterface {
  name = 'OAuthStatePkce1763700000120';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "oauth_state" ADD COLUMN "code_verifier" jsonb`);
    await queryRunner.query(`CREATE INDEX "ix_oauth_state_expires" ON "oauth_state" ("expires_at")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "ix_oauth_state_expires"`);
    await queryRunner.query(`ALTER TABLE "oauth_state" DROP COLUMN "code_verifier"`);
  }
}
