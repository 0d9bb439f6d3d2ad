import {
  Column,
  CreateDateColumn,
  type DataSource,
  type EntityTarget,
  type FindOptionsWhere,
  type Repository,
  UpdateDateColumn,
} from 'typeorm';
import {
  entitiesOf,
  type Lease,
  LeaseLostError,
  type LeaseRelease,
  type LeaseStatement,
  preparedStatements,
  type SqlQueryable,
  type SqlStatement,
} from '@connector/persistence';
import {
  type ClaimOrFindRow,
  claimOrFindRow,
  type ClaimOrFindValues,
  type Fenced,
  type LinkKeyBase,
  type LinkStatements,
  linkStatements,
  type LinkTableDescriptor,
  type OrderedLinkStatements,
  orderedLinkStatements,
  type OrderedLinkTableDescriptor,
} from './link-table.sql';
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

/** What a claim-or-find says about one record. */
export type ClaimedOrFound<E> =
  { erased: true } | { erased: false; claimed: true } | { erased: false; claimed: false; link: E };

/** As ClaimedOrFound, for a table with a prerequisite: nothing claimed or read while it is null. */
export type ClaimedOrFoundAfter<E> =
  | { erased: true }
  | { erased: false; prerequisite: null }
  | (Exclude<ClaimedOrFound<E>, { erased: true }> & { prerequisite: string });

/**
 * A claim-or-find for CandidateLocks.runBy: the candidate lock it takes, the statement that takes it and
 * claims or reads the record, and what that found, read under the lock (`found` may throw LeaseLostError:
 * the lock is then released as after any failed work).
 */
export class LinkClaim<F> {
  constructor(
    readonly connectorId: string,
    readonly candidateId: string,
    readonly statement: LeaseStatement<ClaimOrFindRow>,
    readonly found: (row: ClaimOrFindRow) => F,
  ) {}

  /** The same claim, what it found said in the caller's terms. */
  map<G>(to: (found: F) => G): LinkClaim<G> {
    return new LinkClaim(this.connectorId, this.candidateId, this.statement, (row) => to(this.found(row)));
  }
}

/** The write's token and, for the lock holder's last write, the lock's release to go with it. */
export interface FencedWrite extends Fenced {
  release?: Lease['release'];
}

/** An event fully applied (OrderedLinkTable.applied), S what was sent. */
export interface AppliedOptions<S> extends FencedWrite {
  event: { id: string; occurredAt: string };
  contentHash: string;
  sent: S;
  /** The record this event just created, linked in the same statement. */
  created?: { externalId: string };
}

/**
 * The link flow of one link table, every statement generated from its descriptor (link-table.sql.ts) and
 * run prepared: the claim-or-find under the candidate lock, then claim, link, release under its token.
 *
 * `fence` is the caller's lease token (`CandidateLocks`): the claim-or-find records it in the row, and every
 * write under it is refused (LeaseLostError) once the row holds a larger one, i.e. once a later holder of
 * the lease has read or written the record. Rows from before fencing (`fence` null) take any token.
 */
export class LinkTable<E extends LinkColumns, K extends LinkKeyBase, C extends object> {
  protected readonly rows: Repository<E>;
  /** The statements every message runs, prepared. */
  protected readonly db: SqlQueryable;
  private readonly sql: LinkStatements<K, C>;

  constructor(
    dataSource: DataSource,
    entity: EntityTarget<E>,
    protected readonly descriptor: LinkTableDescriptor<K, C>,
    statements: LinkStatements<K, C> = linkStatements(descriptor),
  ) {
    this.rows = dataSource.getRepository(entity);
    this.db = preparedStatements(dataSource);
    this.sql = statements;
    assertDescribes(this.rows, descriptor);
  }

  /** The claim-or-find of a table without a prerequisite. */
  claimOrFind(key: K, values: Omit<ClaimOrFindValues<K, C>, keyof K>): LinkClaim<ClaimedOrFound<E>> {
    if (this.descriptor.prerequisite) throw new TypeError(`${this.descriptor.table} has a prerequisite`);
    return this.claimOrFindRow(key, values).map((row) => {
      if (row.erased) return { erased: true };
      return this.claimedOrFound(key, row);
    });
  }

  /** The claim-or-find of a table with a prerequisite, whose value it answers. */
  claimOrFindAfter(
    key: K,
    values: Omit<ClaimOrFindValues<K, C>, keyof K>,
  ): LinkClaim<ClaimedOrFoundAfter<E>> {
    if (!this.descriptor.prerequisite) throw new TypeError(`${this.descriptor.table} has no prerequisite`);
    return this.claimOrFindRow(key, values).map((row) => {
      if (row.erased) return { erased: true };
      // Nothing was claimed or read: the record waits for its prerequisite.
      if (row.prerequisite === null) return { erased: false, prerequisite: null };
      return { ...this.claimedOrFound(key, row), prerequisite: row.prerequisite };
    });
  }

  /** The link as it is, read without the lock (nothing is fenced by it). */
  async find(key: K): Promise<E | undefined> {
    return (await this.rows.findOneBy(this.keyOf(key) as FindOptionsWhere<E>)) ?? undefined;
  }

  /** The claim taken again, committed before the create: a linked row, or a later holder's, refuses it. */
  async claim(key: K, values: C & Fenced): Promise<void> {
    await this.fenced(key, this.sql.claim, { ...values, ...this.keyOf(key) });
  }

  /** The ATS record exists: its id, and with `release` the lock's release in the same round trip. */
  async link(key: K, { externalId, fence, release }: { externalId: string } & FencedWrite): Promise<void> {
    await this.linkWith(key, { externalId, fence, release });
  }

  /** Frees a claim whose create surely did not happen; a linked row, or one a later holder fenced, stays. */
  async release(key: K, { fence }: Fenced): Promise<void> {
    await this.sql.release.rows(this.db, { ...this.keyOf(key), fence });
  }

  protected async linkWith(
    key: K,
    { externalId, fence, release, sent }: { externalId: string; sent?: string } & FencedWrite,
  ): Promise<void> {
    const values = { ...this.keyOf(key), externalId, fence, ...(sent === undefined ? {} : { sent }) };
    await this.fenced(key, this.sql.link, values, { andRelease: this.sql.linkAndRelease, release });
  }

  /**
   * A fenced write, and with `release` the lock's release in the same round trip (`andRelease`): no row
   * means a later holder of the lock has been at the record (LeaseLostError).
   */
  protected async fenced<V extends object>(
    key: K,
    write: SqlStatement<V, unknown>,
    values: V,
    last?: { andRelease: SqlStatement<V & LeaseRelease, unknown>; release: Lease['release'] },
  ): Promise<void> {
    const release = last?.release;
    const rows = release
      ? await last.andRelease.rows(this.db, { ...values, ...release.values })
      : await write.rows(this.db, values);
    release?.done();
    if (rows.length === 0) throw staleLink(this.descriptor.table, this.keyOf(key));
  }

  /** Only the key's columns, whatever else the caller's object carries. */
  protected keyOf(key: K): K {
    return Object.fromEntries(
      Object.keys(this.descriptor.key).map((name) => [name, key[name as keyof K]]),
    ) as unknown as K;
  }

  private claimOrFindRow(key: K, values: Omit<ClaimOrFindValues<K, C>, keyof K>): LinkClaim<ClaimOrFindRow> {
    const statement: LeaseStatement<ClaimOrFindRow> = async (lease) => {
      const [raw] = await this.sql.claimOrFind.rows(this.db, {
        ...lease,
        ...(values as ClaimOrFindValues<K, C>),
        ...this.keyOf(key),
      });
      const row = raw && claimOrFindRow(raw);
      if (!row || row.leaseToken === null) return undefined;
      return { token: row.leaseToken, result: row };
    };
    return new LinkClaim(key.connectorId, key.candidateId, statement, (row) => row);
  }

  /** A row neither claimed nor read was fenced by a later holder of the lock: LeaseLostError. */
  private claimedOrFound(key: K, row: ClaimOrFindRow): Exclude<ClaimedOrFound<E>, { erased: true }> {
    if (row.claimed === null) throw staleLink(this.descriptor.table, this.keyOf(key));
    if (row.claimed) return { erased: false, claimed: true };
    const [link] = entitiesOf(this.rows, [row.link]);
    return { erased: false, claimed: false, link };
  }
}

/** A link table that also keeps the last event applied and what was sent (S, kept as JSON). */
export class OrderedLinkTable<
  E extends OrderedLinkColumns,
  K extends LinkKeyBase,
  C extends object,
  S,
> extends LinkTable<E, K, C> {
  private readonly ordered: OrderedLinkStatements<K, C>;

  constructor(dataSource: DataSource, entity: EntityTarget<E>, descriptor: OrderedLinkTableDescriptor<K, C>) {
    const statements = orderedLinkStatements(descriptor);
    super(dataSource, entity, descriptor, statements);
    this.ordered = statements;
  }

  /** The ATS record exists, and what it holds as sent (by its create, or nothing when found). */
  override async link(
    key: K,
    { externalId, sent, fence, release }: { externalId: string; sent: S } & FencedWrite,
  ): Promise<void> {
    await this.linkWith(key, { externalId, sent: JSON.stringify(sent), fence, release });
  }

  /**
   * Progress of an event being applied (what the ATS holds now). With `occurredAt`, the event's time is kept
   * as the record's last too: part of it is in the ATS, so an older event is stale from now on; the event
   * still applies in full when it comes again (its id and content are not recorded until `applied`).
   */
  async progress(
    key: K,
    { sent, fence, occurredAt }: { sent: S; occurredAt?: string } & Fenced,
  ): Promise<void> {
    await this.fenced(key, this.ordered.progress, {
      ...this.keyOf(key),
      sent: JSON.stringify(sent),
      occurredAt: occurredAt ?? null,
      fence,
    });
  }

  /**
   * The event is fully applied: the last event's id, time and content hash (see `orderOf`) and what was
   * sent. `created`: the record this event just created, linked in the same statement. `release`: the lock's
   * release, to go with this last write.
   */
  async applied(
    key: K,
    { event, contentHash, sent, fence, created, release }: AppliedOptions<S>,
  ): Promise<void> {
    const values = {
      ...this.keyOf(key),
      sent: JSON.stringify(sent),
      eventId: event.id,
      occurredAt: event.occurredAt,
      contentHash,
      createdExternalId: created?.externalId ?? null,
      fence,
    };
    await this.fenced(key, this.ordered.applied, values, {
      andRelease: this.ordered.appliedAndRelease,
      release,
    });
  }
}

/** A write or read under a lease token older than the one a link row holds: a later holder has been there. */
export function staleLink(table: string, key: object): LeaseLostError {
  return new LeaseLostError(
    `${table} ${Object.values(key).join('/')}`,
    'a later holder of its lease has been at this record',
  );
}

/** The descriptor names the entity's table and columns: a renamed column fails at construction, not mid-flow. */
function assertDescribes(
  rows: Repository<object>,
  descriptor: { table: string; key: object; claim: object; sent?: unknown },
): void {
  const { metadata } = rows;
  if (metadata.tableName !== descriptor.table) {
    throw new TypeError(`link table ${descriptor.table} described for entity of ${metadata.tableName}`);
  }
  const columns = [
    ...Object.values(descriptor.key),
    ...Object.values(descriptor.claim),
    ...(typeof descriptor.sent === 'string' ? [descriptor.sent] : []),
  ] as string[];
  for (const column of columns) {
    if (!metadata.findColumnWithDatabaseName(column)) {
      throw new TypeError(`${descriptor.table} has no column ${column}`);
    }
  }
}
