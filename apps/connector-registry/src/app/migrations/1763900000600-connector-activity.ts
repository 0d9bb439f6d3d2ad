import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Records written to the ATS per connector and UTC day (from candidate.synced, application.synced and
 * document.synced), and the events already counted, so a redelivered event is counted once.
 */
export class ConnectorActivity1763900000600 implements MigrationInterface {
  name = 'ConnectorActivity1763900000600';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE IF NOT EXISTS "connector_activity" (
        "connector_id" text NOT NULL,
        "day" date NOT NULL,
        "records_written" integer NOT NULL DEFAULT 0,
        CONSTRAINT "pk_connector_activity" PRIMARY KEY ("connector_id", "day")
      )`);
    await queryRunner.query(`
      CREATE TABLE IF NOT EXISTS "connector_activity_event" (
        "event_id" uuid NOT NULL,
        "connector_id" text NOT NULL,
        "day" date NOT NULL,
        CONSTRAINT "pk_connector_activity_event" PRIMARY KEY ("event_id")
      )`);
    await queryRunner.query(
      `CREATE INDEX IF NOT EXISTS "ix_connector_activity_event_connector_day" ON "connector_activity_event" ("connector_id", "day")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS "connector_activity_event"`);
    await queryRunner.query(`DROP TABLE IF EXISTS "connector_activity"`);
  }
}
