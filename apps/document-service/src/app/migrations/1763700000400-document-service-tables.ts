import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * candidate_ref: a candidate's ATS id per connector, as candidate-sync announced it (`candidate.synced`).
 * document_link: one row per file (sha256) attached to a candidate in a connector, claimed (`pending`)
 * before the upload, so the same file is never attached twice.
 */
export class DocumentServiceTables1763700000400 implements MigrationInterface {
  name = 'DocumentServiceTables1763700000400';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "candidate_ref" (
        "connector_id" text NOT NULL,
        "candidate_id" text NOT NULL,
        "external_id" text NOT NULL,
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "pk_candidate_ref" PRIMARY KEY ("connector_id", "candidate_id")
      )`);
    await queryRunner.query(`
      CREATE TABLE "document_link" (
        "connector_id" text NOT NULL,
        "candidate_id" text NOT NULL,
        "sha256" text NOT NULL,
        "document_id" text NOT NULL,
        "external_id" text,
        "state" text NOT NULL CHECK ("state" IN ('pending', 'linked')),
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "pk_document_link" PRIMARY KEY ("connector_id", "candidate_id", "sha256")
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "document_link"`);
    await queryRunner.query(`DROP TABLE "candidate_ref"`);
  }
}
