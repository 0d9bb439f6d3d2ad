import type { DataSource } from 'typeorm';
import type { OrderedLink } from './write-once';

/** A link row's primary key, column → value, in the order of the table's key. */
export type LinkKey = Readonly<Record<string, string>>;

/** Column → value; JSON columns are passed as strings. */
export type LinkColumns = Readonly<Record<string, string | Date | null>>;

/**
 * The SQL every link table shares (`candidate_link`, `application_link`, `document_link`): one row per
 * record, claimed `pending` before the ATS create and `linked` with its `external_id` after. Table and
 * column names are the repositories' constants, never input.
 */
export class LinkTable {
  constructor(
    private readonly db: Pick<DataSource, 'query'>,
    private readonly table: string,
  ) {}

  async find<Row>(key: LinkKey): Promise<Row | undefined> {
    const rows = (await this.db.query(
      `SELECT * FROM "${this.table}" WHERE ${where(key)}`,
      Object.values(key),
    )) as Row[];
    return rows[0];
  }

  /** The claim: inserted, or an unlinked row claimed again with `reclaim`'s new values; a linked row stays. */
  async claim(key: LinkKey, values: LinkColumns, reclaim: readonly string[] = []): Promise<void> {
    const columns = [...Object.keys(key), ...Object.keys(values)];
    const placeholders = columns.map((_, index) => `$${index + 1}`);
    const sets = [
      `"state" = 'pending'`,
      ...reclaim.map((c) => `"${c}" = EXCLUDED."${c}"`),
      `"updated_at" = now()`,
    ];
    await this.db.query(
      `INSERT INTO "${this.table}" (${columns.map((c) => `"${c}"`).join(', ')}, "state")
       VALUES (${placeholders.join(', ')}, 'pending')
       ON CONFLICT (${Object.keys(key)
         .map((c) => `"${c}"`)
         .join(', ')}) DO UPDATE SET ${sets.join(', ')}
       WHERE "${this.table}"."external_id" IS NULL`,
      [...Object.values(key), ...Object.values(values)],
    );
  }

  /** The ATS record exists: its id, and what the caller keeps with it. */
  async link(key: LinkKey, externalId: string, values: LinkColumns = {}): Promise<void> {
    await this.update(key, { external_id: externalId, state: 'linked', ...values });
  }

  async update(key: LinkKey, values: LinkColumns): Promise<void> {
    const offset = Object.keys(key).length;
    const sets = Object.keys(values).map((c, index) => `"${c}" = $${offset + index + 1}`);
    await this.db.query(
      `UPDATE "${this.table}" SET ${[...sets, `"updated_at" = now()`].join(', ')} WHERE ${where(key)}`,
      [...Object.values(key), ...Object.values(values)],
    );
  }

  /** The event is fully applied: the last event's id, time and content hash (see `orderOf`), and `values`. */
  async applied(
    key: LinkKey,
    event: { id: string; occurredAt: string },
    contentHash: string,
    values: LinkColumns,
  ): Promise<void> {
    await this.update(key, {
      last_event_id: event.id,
      last_occurred_at: event.occurredAt,
      content_hash: contentHash,
      ...values,
    });
  }

  /** Frees a claim whose create surely did not happen; a linked row stays. */
  async release(key: LinkKey): Promise<void> {
    await this.db.query(
      `DELETE FROM "${this.table}" WHERE ${where(key)} AND "external_id" IS NULL`,
      Object.values(key),
    );
  }
}

function where(key: LinkKey): string {
  return Object.keys(key)
    .map((c, index) => `"${c}" = $${index + 1}`)
    .join(' AND ');
}

/** The columns `candidate_link` and `application_link` share: the link, and the last event applied. */
export interface OrderedLinkRow {
  external_id: string | null;
  state: 'pending' | 'linked';
  created_event_id: string | null;
  last_event_id: string | null;
  last_occurred_at: Date | null;
  content_hash: string | null;
}

export function orderedLinkOf(row: OrderedLinkRow): OrderedLink {
  return {
    externalId: row.external_id,
    state: row.state,
    createdEventId: row.created_event_id,
    lastEventId: row.last_event_id,
    lastOccurredAt: row.last_occurred_at,
    contentHash: row.content_hash,
  };
}
