import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Wrong admin keys per client address, shared by every registry replica (issue 26). */
export class AdminKeyFailure1763900002602 implements MigrationInterface {
  name = 'AdminKeyFailure1763900002602';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE IF NOT EXISTS "admin_key_failure" (
        "address" text PRIMARY KEY,
        "window_started_at" timestamptz NOT NULL,
        "failures" integer NOT NULL
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS "admin_key_failure"`);
  }
}
