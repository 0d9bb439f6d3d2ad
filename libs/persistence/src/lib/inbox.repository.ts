import type { DataSource, EntityManager } from 'typeorm';
import type { EventEnvelope } from '@connector/contracts';

/** Records that `consumer` took a message; false when it had already taken that message id. */
export class InboxRepository {
  constructor(private readonly dataSource: DataSource) {}

  async record(consumer: string, envelope: EventEnvelope, manager?: EntityManager): Promise<boolean> {
    const rows = (await (manager ?? this.dataSource.manager).query(
      `INSERT INTO "inbox_message" ("consumer", "message_id", "type", "account_id") VALUES ($1, $2, $3, $4)
       ON CONFLICT ("consumer", "message_id") DO NOTHING RETURNING "id"`,
      [consumer, envelope.id, envelope.type, envelope.accountId],
    )) as unknown[];
    return rows.length > 0;
  }

  async count(consumer: string, type?: string): Promise<number> {
    const rows = (await this.dataSource.query(
      `SELECT count(*)::int AS n FROM "inbox_message" WHERE "consumer" = $1 AND ($2::text IS NULL OR "type" = $2)`,
      [consumer, type ?? null],
    )) as Array<{ n: number }>;
    return rows[0].n;
  }
}
