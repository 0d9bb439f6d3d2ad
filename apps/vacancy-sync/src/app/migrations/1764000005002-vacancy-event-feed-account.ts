import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The feeds on events per account (the vendor caps event subscriptions per customer): counted by index. */
export class VacancyEventFeedAccount1764000005002 implements MigrationInterface {
  name = 'VacancyEventFeedAccount1764000005002';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX IF NOT EXISTS "ix_vacancy_event_feed_account_events" ON "vacancy_event_feed" ("account_id")
       WHERE "mode" = 'events'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX IF EXISTS "ix_vacancy_event_feed_account_events"`);
  }
}
