import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Field hashes become keyed (HMAC under FIELD_HASH_KEY) and application answers are kept as keyed hashes:
 * the unkeyed hashes and the answers in clear go now. The next event of each record then sends all its
 * fields or answers once: an update of the ATS record with the values it has, never a second record. ATS-B
 * child keys stay until their candidate's next update re-keys them (they stop duplicate child records).
 */
export class KeyedHashes1763900000503 implements MigrationInterface {
  name = 'KeyedHashes1763900000503';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE "candidate_link" SET "sent" = jsonb_set("sent", '{fields}', '{}'::jsonb), "content_hash" = NULL`,
    );
    await queryRunner.query(`UPDATE "application_link" SET "answers" = '{}'::jsonb, "content_hash" = NULL`);
  }

  async down(): Promise<void> {
    // Nothing to restore: what was cleared is sent again.
  }
}
