import {
  Column,
  CreateDateColumn,
  type FindOptionsWhere,
  IsNull,
  type ObjectLiteral,
  type QueryDeepPartialEntity,
  Raw,
  type Repository,
  UpdateDateColumn,
} from 'typeorm';
import {
  entitiesOf,
  LeaseLostError,
  type LeaseStatement,
  rowsOf,
  type SqlQueryable,
  type SqlRow,
} from '@connector/persistence';
import type { LinkState, OrderedLink } from './write-once';

/**
 * The columns every link table has (`candidate_link`, `application_link`, `document_link`): one row per
 * record, claimed `pending` before the ATS create and `linked` with its `external_id` after. An entity
 * extends this with its key (primary columns) and what it keeps, and names its state CHECK.
 */
export abstract class LinkColumns implements LinkState {
  @Column('text', { name: 'external_id', nullable: true }) externalId!: string | null;
  @Column('text') state!: 'pending' | 'linked';
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
  /** The token of the last candidate lock holder that read or wrote the row (see LinkTable); null before. */
  @Column('bigint', { nullable: true }) fence!: string | null;
}

/** A link that also keeps the event that created the record and the last event applied (`orderOf`). */
export abstract class OrderedLinkColumns extends LinkColumns implements OrderedLink {
  @Column('text', { name: 'created_event_id', nullable: true }) createdEventId!: string | null;
  @Column('text', { name: 'last_event_id', nullable: true }) lastEventId!: string | null;
  @Column('timestamptz', { name: 'last_occurred_at', nullable: true }) lastOccurredAt!: Date | null;
  @Column('text', { name: 'content_hash', nullable: true }) contentHash!: string | null;
}

/** The CHECK every link table puts on `state`, as the migrations named it (`<table>_state_check`). */
export const LINK_STATE_CHECK = `"state" IN ('pending', 'linked')`;

/** A link row's primary key, property → value. */
export type LinkKey<E> = FindOptionsWhere<E>;

/** What a write sets besides the key, property → value (JSON columns as objects). */
export type LinkValues<E> = QueryDeepPartialEntity<E>;

/** Rows a fenced write may touch: never fenced, or last fenced by this token or an older one. */
const FENCE_ALLOWS = `("fence" IS NULL OR "fence" <= :fence)`;

/**
 * The reads and writes every link table shares, over its entity's repository.
 *
 * `fence` is the caller's lease token (`CandidateLocks`): a read under it records it in the row, and every
 * write under it is refused (LeaseLostError) once the row holds a larger one, i.e. once a later holder of
 * the lease has read or written the record. Rows from before fencing (`fence` null) take any token.
 */
export class LinkTable<E extends LinkColumns> {
  constructor(private readonly links: Repository<E>) {}

  async find(key: LinkKey<E>, fence?: number): Promise<E | undefined> {
    if (fence !== undefined) {
      const result = await this.links
        .createQueryBuilder()
        .update()
        // Kept as it was: for a pending row, `updated_at` is when its create was claimed (see writeOnce).
        // Cast: TypeORM cannot check a partial of the generic row type E; every link table has these columns.
        .set({ fence: String(fence), updatedAt: () => '"updated_at"' } as unknown as LinkValues<E>)
        .where(key)
        .andWhere(`("fence" IS NULL OR "fence" < :fence)`, { fence })
        .returning('*')
        .updateEntity(false)
        .execute();
      const [fenced] = entitiesOf(this.links, result.raw);
      if (fenced) return fenced;
    }
    const row = (await this.links.findOneBy(key)) ?? undefined;
    if (fence !== undefined && row && Number(row.fence ?? 0) > fence) throw this.stale(key);
    return row;
  }

  /**
   * The claim, one statement: inserted, or an unlinked row claimed again with `reclaim`'s new values; a
   * linked row stays as it is.
   */
  async claim(
    key: LinkKey<E>,
    values: LinkValues<E>,
    reclaim: ReadonlyArray<keyof E & string> = [],
    fence?: number,
  ): Promise<void> {
    const { metadata } = this.links;
    const column = (property: string) =>
      metadata.findColumnWithPropertyName(property)?.databaseName ?? property;
    const fenced = fence !== undefined;
    const result = await this.links
      .createQueryBuilder()
      .insert()
      .values({
        ...key,
        ...values,
        state: 'pending',
        ...(fenced ? { fence: String(fence) } : {}),
      } as LinkValues<E>)
      .orUpdate(
        // A claim taken again is a new create about to be made: `updated_at` says when.
        ['state', 'updated_at', ...reclaim.map(column), ...(fenced ? ['fence'] : [])],
        metadata.primaryColumns.map((primary) => primary.databaseName),
        {
          overwriteCondition: {
            where: {
              externalId: IsNull(),
              ...(fenced ? { fence: Raw((c) => `(${c} IS NULL OR ${c} <= :fence)`, { fence }) } : {}),
            } as FindOptionsWhere<E>,
          },
        },
      )
      .returning('state')
      .updateEntity(false)
      .execute();
    // Read unlinked under this lease, yet linked or fenced now: a later holder has been here.
    if (fenced && rowsOf(result.raw).length === 0) throw this.stale(key);
  }

  /** The ATS record exists: its id, and what the caller keeps with it. */
  async link(key: LinkKey<E>, externalId: string, values: LinkValues<E> = {}, fence?: number): Promise<void> {
    await this.update(key, { ...values, externalId, state: 'linked' } as LinkValues<E>, fence);
  }

  async update(key: LinkKey<E>, values: LinkValues<E>, fence?: number): Promise<void> {
    if (fence === undefined) {
      await this.links.update(key, values);
      return;
    }
    const result = await this.links
      .createQueryBuilder()
      .update()
      .set({ ...values, fence: String(fence) } as LinkValues<E>)
      .where(key)
      .andWhere(FENCE_ALLOWS, { fence })
      .execute();
    if ((result.affected ?? 0) === 0) throw this.stale(key);
  }

  /** Frees a claim whose create surely did not happen; a linked row, or one a later holder fenced, stays. */
  async release(key: LinkKey<E>, fence?: number): Promise<void> {
    if (fence === undefined) {
      await this.links.delete({ ...key, externalId: IsNull() } as LinkKey<E>);
      return;
    }
    await this.links
      .createQueryBuilder()
      .delete()
      .where({ ...key, externalId: IsNull() } as LinkKey<E>)
      .andWhere(FENCE_ALLOWS, { fence })
      .execute();
  }

  private stale(key: LinkKey<E>): LeaseLostError {
    return staleLink(this.links.metadata.tableName, key as object);
  }
}

/** A write or read under a lease token older than the one a link row holds: a later holder has been there. */
export function staleLink(table: string, key: object): LeaseLostError {
  return new LeaseLostError(
    `${table} ${Object.values(key).join('/')}`,
    'a later holder of its lease has been at this record',
  );
}

/**
 * The first statement of a message under a candidate's lock, for CandidateLocks.runBy: `sql`, built on
 * LEASE_CTE with `params` as its $5…, answers one row with `lease_token` (null while another worker holds
 * the lock), `erased`, `claimed` and the link row's columns (null when it was fenced by a later holder);
 * see `claimedOrFound`. Run prepared (`statements`).
 */
export function claimOrFindStatement(
  statements: SqlQueryable,
  sql: string,
  params: unknown[],
): LeaseStatement<SqlRow> {
  return async (lease) => {
    const [row] = rowsOf(await statements.query(sql, [...lease, ...params]));
    if (!row || row['lease_token'] === null) return undefined;
    return { token: Number(row['lease_token']), result: row };
  };
}

/** What a claimOrFindStatement row says about one record. */
export type ClaimedOrFound<E> =
  { erased: true } | { erased: false; claimed: true } | { erased: false; claimed: false; link: E };

/**
 * Reads a claimOrFindStatement row: the candidate erased (nothing was written), the create claimed by the
 * statement itself, or the link as it was read under the lock's token; LeaseLostError when a later holder
 * of the lock had fenced it. `key` names the record in that error.
 */
export function claimedOrFound<E extends ObjectLiteral>(
  links: Repository<E>,
  row: SqlRow,
  key: object,
): ClaimedOrFound<E> {
  if (row['erased'] === true) return { erased: true };
  if (row['connector_id'] === null) throw staleLink(links.metadata.tableName, key);
  if (row['claimed'] === true) return { erased: false, claimed: true };
  const [link] = entitiesOf(links, [row]);
  return { erased: false, claimed: false, link };
}

/** A link table that also keeps the last event applied. */
export class OrderedLinkTable<E extends OrderedLinkColumns> extends LinkTable<E> {
  /** The event is fully applied: the last event's id, time and content hash (see `orderOf`), and `values`. */
  async applied(
    key: LinkKey<E>,
    event: { id: string; occurredAt: string },
    contentHash: string,
    values: LinkValues<E>,
    fence?: number,
  ): Promise<void> {
    await this.update(
      key,
      {
        ...values,
        lastEventId: event.id,
        lastOccurredAt: new Date(event.occurredAt),
        contentHash,
      } as LinkValues<E>,
      fence,
    );
  }
}
