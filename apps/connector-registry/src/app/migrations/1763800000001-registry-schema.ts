import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Connectors, their job mapping versions and their runs. */
export class RegistrySchema1763800000001 implements MigrationInterface {
  name = 'RegistrySchema1763800000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "connector" (
        "id" uuid PRIMARY KEY,
        "account_id" text NOT NULL,
        "type" text NOT NULL CHECK ("type" IN ('ats-a', 'ats-b')),
        "name" text NOT NULL,
        "status" text NOT NULL
          CHECK ("status" IN ('pending_authorization', 'connected', 'auth_failed', 'disabled')),
        "status_before_disable" text,
        "status_changed_at" timestamptz NOT NULL DEFAULT now(),
        "options" jsonb NOT NULL DEFAULT '{}',
        "config" jsonb NOT NULL DEFAULT '{}',
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        "deleted_at" timestamptz
      )`);
    await queryRunner.query(
      `CREATE INDEX "ix_connector_account_created" ON "connector" ("account_id", "created_at")`,
    );
    await queryRunner.query(`
      CREATE TABLE "job_mapping" (
        "connector_id" uuid NOT NULL REFERENCES "connector" ("id"),
        "version" int NOT NULL CHECK ("version" > 0),
        "mapping" jsonb NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "created_by" text NOT NULL,
        CONSTRAINT "pk_job_mapping" PRIMARY KEY ("connector_id", "version")
      )`);
    await queryRunner.query(`
      CREATE TABLE "run" (
        "id" uuid PRIMARY KEY,
        "connector_id" uuid NOT NULL REFERENCES "connector" ("id"),
        "account_id" text NOT NULL,
        "status" text NOT NULL CHECK ("status" IN ('queued', 'running', 'succeeded', 'failed')),
        "mode" text NOT NULL CHECK ("mode" IN ('incremental', 'full')),
        "counts" jsonb NOT NULL,
        "api_calls" int NOT NULL DEFAULT 0,
        "errors" jsonb NOT NULL DEFAULT '[]',
        "queued_at" timestamptz NOT NULL,
        "started_at" timestamptz,
        "finished_at" timestamptz,
        "updated_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX "ix_run_connector_queued" ON "run" ("connector_id", "queued_at")`);
    // Two concurrent "Run" clicks cannot both start a run: the second insert violates this index.
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_run_connector_active" ON "run" ("connector_id") WHERE "status" IN ('queued', 'running')`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS "run"`);
    await queryRunner.query(`DROP TABLE IF EXISTS "job_mapping"`);
    await queryRunner.query(`DROP TABLE IF EXISTS "connector"`);
  }
}
