import {
  leaseCte,
  leaseReleaseCte,
  type LeaseRelease,
  type LeaseValues,
  type Placeholders,
  type RowOf,
  type RowShape,
  type SqlRow,
  type SqlStatement,
  sqlStatement,
} from '@connector/persistence';

/** What every link table's key holds: the candidate lock's connector and candidate (and the erasure check's). */
export interface LinkKeyBase {
  connectorId: string;
  candidateId: string;
}

/**
 * A link table (`candidate_link`, `application_link`, `document_link`) as its statements need it: every
 * statement of the link flow is generated from this, so the fence rule and the claim are written once.
 * Property → column maps, in column order.
 */
export interface LinkTableDescriptor<K extends LinkKeyBase, C extends object> {
  table: string;
  /** The primary key, connector and candidate first. */
  key: { readonly [P in keyof K]-?: string };
  /** What a claim writes besides the key (`accountId` here is also the erasure check's account). */
  claim: { readonly [P in keyof C]-?: string };
  /** Of `claim`, what a claim taken again (its create made anew) writes anew. */
  reclaim: ReadonlyArray<keyof C & string>;
  /**
   * A value the claim waits for, as a scalar query on the key (an application's: its candidate's ATS id):
   * while it is null nothing is claimed or read; otherwise the claim-or-find answers it.
   */
  prerequisite?: (p: Placeholders<K>) => string;
}

/** A link table that also keeps the last event applied and what was sent (`OrderedLinkColumns`). */
export interface OrderedLinkTableDescriptor<
  K extends LinkKeyBase,
  C extends object,
> extends LinkTableDescriptor<K, C> {
  /** The jsonb column of what was sent, so an update sends only what changed. */
  sent: string;
}

/** A write under the candidate lock: its token. */
export interface Fenced {
  fence: number;
}

/** What a claim-or-find takes besides the lease: the key, what a claim writes, the erasure check's account. */
export type ClaimOrFindValues<K, C> = K & C & { accountId: string };

export interface LinkValues {
  externalId: string;
  /** What was sent as JSON, for a table that keeps it. */
  sent?: string;
}

export interface AppliedValues {
  sent: string;
  eventId: string;
  occurredAt: string;
  contentHash: string;
  /** The record this event just created, linked in the same statement; null when it was there before. */
  createdExternalId: string | null;
}

/** What a fenced write answers: a row when it wrote, none when a later holder has been there. */
const WRITTEN_ROW = { written: 'boolean' } as const satisfies RowShape;
type Written = RowOf<typeof WRITTEN_ROW>;

/**
 * The claim-or-find's own columns (`prerequisite` null for a table without one); the link row's columns
 * follow, by their names (claimOrFindShape), all null when nothing was claimed or read.
 */
const CLAIM_OR_FIND_ROW = {
  lease_token: 'string | null',
  erased: 'boolean',
  prerequisite: 'string | null',
  claimed: 'boolean | null',
} as const satisfies RowShape;
type ClaimOrFindShape = typeof CLAIM_OR_FIND_ROW & RowShape;
type ClaimOrFindRaw = RowOf<ClaimOrFindShape>;

/** What a link table's statements are, generated from its descriptor. */
export interface LinkStatements<K, C> {
  /**
   * The first statement under a candidate's lock: takes the lock (leaseCte) and, only when it was granted,
   * asks whether the candidate is erased (and reads the prerequisite); if not, reads the link row under the
   * lock's new token (recording it) or, when there is none, claims the create (`pending`): a record without
   * a row is always created next. One row (ClaimOrFindRow); nothing written for an erased candidate.
   */
  claimOrFind: SqlStatement<LeaseValues & ClaimOrFindValues<K, C>, ClaimOrFindRaw>;
  /** A claim taken (again) under the fence: a linked row, or one a later holder fenced, answers no row. */
  claim: SqlStatement<K & C & Fenced, Written>;
  /** The ATS id, under the fence: no row when a later holder has been there. */
  link: SqlStatement<K & Fenced & LinkValues, Written>;
  /** As link, and the lock's release in the same round trip. */
  linkAndRelease: SqlStatement<K & Fenced & LinkValues & LeaseRelease, Written>;
  /** Frees a claim whose create surely did not happen; a linked or later-fenced row stays. */
  release: SqlStatement<K & Fenced>;
}

export interface OrderedLinkStatements<K, C> extends LinkStatements<K, C> {
  /** What was sent so far, and the event's time when given (an older event is stale from then on). */
  progress: SqlStatement<K & Fenced & { sent: string; occurredAt: string | null }, Written>;
  /** The event fully applied: the last event, its content and what was sent; linked when it created the record. */
  applied: SqlStatement<K & Fenced & AppliedValues, Written>;
  /** As applied, and the lock's release in the same round trip. */
  appliedAndRelease: SqlStatement<K & Fenced & AppliedValues & LeaseRelease, Written>;
}

/** The fence rule, the one spelling: never fenced, or last fenced by this token or an older one. */
export function fenceAllows(column: string, token: string): string {
  return `(${column} IS NULL OR ${column} <= ${token})`;
}

export function linkStatements<K extends LinkKeyBase, C extends object>(
  d: LinkTableDescriptor<K, C>,
): LinkStatements<K, C> {
  return generate(d, undefined);
}

export function orderedLinkStatements<K extends LinkKeyBase, C extends object>(
  d: OrderedLinkTableDescriptor<K, C>,
): OrderedLinkStatements<K, C> {
  const base = generate(d, d.sent);
  const table = `"${d.table}"`;
  const applied = (p: Placeholders<K & Fenced & AppliedValues>) => `
UPDATE ${table}
   SET "${d.sent}" = ${p.sent}::jsonb, "last_event_id" = ${p.eventId},
       "last_occurred_at" = ${p.occurredAt}::timestamptz, "content_hash" = ${p.contentHash},
       "fence" = ${p.fence}::bigint, "updated_at" = now(),
       "external_id" = coalesce(${p.createdExternalId}::text, "external_id"),
       "state" = CASE WHEN ${p.createdExternalId}::text IS NULL THEN "state" ELSE 'linked' END,
       "created_event_id" = CASE WHEN ${p.createdExternalId}::text IS NULL THEN "created_event_id" ELSE ${p.eventId} END
 WHERE ${keyIs(d, p)} AND ${fenceAllows('"fence"', `${p.fence}::bigint`)}
RETURNING true AS "written"`;
  return {
    ...base,
    progress: sqlStatement<K & Fenced & { sent: string; occurredAt: string | null }>(
      (p) => `
UPDATE ${table}
   SET "${d.sent}" = ${p.sent}::jsonb, "last_occurred_at" = coalesce(${p.occurredAt}::timestamptz, "last_occurred_at"),
       "fence" = ${p.fence}::bigint, "updated_at" = now()
 WHERE ${keyIs(d, p)} AND ${fenceAllows('"fence"', `${p.fence}::bigint`)}
RETURNING true AS "written"`,
    ).withRow(WRITTEN_ROW),
    applied: sqlStatement(applied).withRow(WRITTEN_ROW),
    appliedAndRelease: sqlStatement<K & Fenced & AppliedValues & LeaseRelease>(
      (p) => `WITH ${leaseReleaseCte(p)}, applied AS (${applied(p)})\nSELECT "written" FROM applied`,
    ).withRow(WRITTEN_ROW),
  };
}

function generate<K extends LinkKeyBase, C extends object>(
  d: LinkTableDescriptor<K, C>,
  sentColumn: string | undefined,
): LinkStatements<K, C> {
  const table = `"${d.table}"`;
  const keyColumns = columnsOf(d.key)
    .map(([, column]) => `"${column}"`)
    .join(', ');
  const inserted = [...columnsOf(d.key), ...columnsOf(d.claim)];
  const insertedColumns = inserted.map(([, column]) => `"${column}"`).join(', ');
  const insertedValues = (p: Record<string, string>) => inserted.map(([name]) => p[name]).join(', ');
  const prerequisite = d.prerequisite;
  const link = (p: Placeholders<K & Fenced & LinkValues>) => `
UPDATE ${table}
   SET "external_id" = ${p.externalId}, "state" = 'linked',${sentColumn ? ` "${sentColumn}" = ${p.sent}::jsonb,` : ''}
       "fence" = ${p.fence}::bigint, "updated_at" = now()
 WHERE ${keyIs(d, p)} AND ${fenceAllows('"fence"', `${p.fence}::bigint`)}
RETURNING true AS "written"`;
  return {
    claimOrFind: sqlStatement<LeaseValues & ClaimOrFindValues<K, C>>((p) => {
      const values = p as unknown as Record<string, string>;
      return `
WITH ${leaseCte(p)}, erased AS (
  SELECT EXISTS (
    SELECT 1 FROM "erased_candidate" WHERE "account_id" = ${p.accountId} AND "candidate_id" = ${p.candidateId}
  ) AS yes
)${prerequisite ? `, prerequisite AS (SELECT (${prerequisite(p)}) AS "value")` : ''}, claimed AS (
  INSERT INTO ${table} AS l (${insertedColumns}, "state", "fence")
  SELECT ${insertedValues(values)}, 'pending', lease."token" FROM lease, erased${prerequisite ? ', prerequisite' : ''}
   WHERE NOT erased.yes${prerequisite ? ' AND prerequisite."value" IS NOT NULL' : ''}
  ON CONFLICT (${keyColumns}) DO UPDATE SET "fence" = EXCLUDED."fence"
    WHERE ${fenceAllows('l."fence"', 'EXCLUDED."fence"')}
  RETURNING l.*, (l.xmax = 0) AS "claimed"
)
SELECT lease."token" AS "lease_token", erased.yes AS "erased",
       ${prerequisite ? 'prerequisite."value"' : 'NULL::text'} AS "prerequisite", claimed.*
  FROM erased${prerequisite ? ' CROSS JOIN prerequisite' : ''} LEFT JOIN lease ON true LEFT JOIN claimed ON true`;
    }).withRow(claimOrFindShape(d, sentColumn)),
    claim: sqlStatement<K & C & Fenced>((p) => {
      const reclaimed = d.reclaim
        .map((name) => `"${d.claim[name]}" = EXCLUDED."${d.claim[name]}", `)
        .join('');
      return `
INSERT INTO ${table} AS l (${insertedColumns}, "state", "fence")
VALUES (${insertedValues(p as unknown as Record<string, string>)}, 'pending', ${p.fence}::bigint)
ON CONFLICT (${keyColumns}) DO UPDATE
  SET "state" = EXCLUDED."state", "updated_at" = now(), ${reclaimed}"fence" = EXCLUDED."fence"
  WHERE l."external_id" IS NULL AND ${fenceAllows('l."fence"', 'EXCLUDED."fence"')}
RETURNING true AS "written"`;
    }).withRow(WRITTEN_ROW),
    link: sqlStatement(link).withRow(WRITTEN_ROW),
    linkAndRelease: sqlStatement<K & Fenced & LinkValues & LeaseRelease>(
      (p) => `WITH ${leaseReleaseCte(p)}, linked AS (${link(p)})\nSELECT "written" FROM linked`,
    ).withRow(WRITTEN_ROW),
    release: sqlStatement(
      (p) => `
DELETE FROM ${table}
 WHERE ${keyIs(d, p)} AND "external_id" IS NULL AND ${fenceAllows('"fence"', `${p.fence}::bigint`)}`,
    ),
  };
}

/** One claim-or-find row, read (see LinkStatements.claimOrFind). */
export interface ClaimOrFindRow {
  /** The lock's new token; null while another worker holds the lock (nothing else was done). */
  leaseToken: number | null;
  erased: boolean;
  /** The prerequisite's value, for a table that has one. */
  prerequisite: string | null;
  /** Whether the statement claimed the create; null when it neither claimed nor read (see `link`). */
  claimed: boolean | null;
  /** The link row's own columns, by column name (all null when nothing was claimed or read). */
  link: SqlRow;
}

export function claimOrFindRow(row: ClaimOrFindRaw): ClaimOrFindRow {
  const { lease_token, erased, prerequisite, claimed, ...link } = row;
  // bigint: pg hands it over as text.
  return {
    leaseToken: lease_token === null ? null : Number(lease_token),
    erased,
    prerequisite,
    claimed,
    link,
  };
}

/**
 * The claim-or-find's row: its own columns, then the link row's (`claimed.*`), each null when nothing was
 * claimed or read: the key and the claim (text), the columns every link table has (LinkColumns), and an
 * ordered table's (OrderedLinkColumns, and what was sent).
 */
function claimOrFindShape<K extends LinkKeyBase, C extends object>(
  d: LinkTableDescriptor<K, C>,
  sentColumn: string | undefined,
): ClaimOrFindShape {
  const text = (map: object) => columnsOf(map).map(([, column]) => [column, 'string | null'] as const);
  const link: RowShape = Object.fromEntries([
    ...text(d.key),
    ...text(d.claim),
    ['external_id', 'string | null'],
    ['state', 'string | null'],
    ['created_at', 'date | null'],
    ['updated_at', 'date | null'],
    // bigint: pg hands it over as text.
    ['fence', 'string | null'],
    ...(sentColumn
      ? ([
          ['created_event_id', 'string | null'],
          ['last_event_id', 'string | null'],
          ['last_occurred_at', 'date | null'],
          ['content_hash', 'string | null'],
          [sentColumn, 'json | null'],
        ] as const)
      : []),
  ]);
  return { ...link, ...CLAIM_OR_FIND_ROW };
}

function columnsOf(map: object): Array<[string, string]> {
  return Object.entries(map) as Array<[string, string]>;
}

/** The key's columns equal to their placeholders. */
function keyIs(d: { key: object }, p: object): string {
  const placeholders = p as Record<string, string>;
  return columnsOf(d.key)
    .map(([name, column]) => `"${column}" = ${placeholders[name]}`)
    .join(' AND ');
}
