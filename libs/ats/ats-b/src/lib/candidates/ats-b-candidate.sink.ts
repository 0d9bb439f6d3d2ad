import {
  type CandidateSink,
  type CandidateSinkFactory,
  type CreatedCandidate,
  type FieldHasher,
  legacyHashOf,
  type SentState,
} from '@connector/ats-core';
import { AtsError } from '@connector/ats-http';
import type { CandidateDataDto } from '@connector/contracts';
import type { AtsBClient } from '../client/ats-b.client';
import type { AtsBChangeResult } from '../client/ats-b.types';
import {
  toAtsBCandidate,
  toAtsBCandidateInsert,
  toAtsBEducation,
  toAtsBWorkHistory,
} from './ats-b-candidate-mapping';

/**
 * What `children[key]` holds besides a record id (ATS-B ids are positive). Kept in `children` because that
 * is what the stored JSON carries (states stored before hold ids only, and read the same).
 */
export const CHILD_UNSURE = 0; // create sent, answer unknown: looked up in ATS-B before any new create
export const CHILD_REFUSED = -1; // ATS-B refused this content for good: not sent again

/** A date ATS-B reads back may be shifted to its own time zone's day; ours are months apart. */
const DATE_TOLERANCE_MS = 24 * 60 * 60 * 1000;

interface ChildKind {
  kind: 'work' | 'education';
  label: string;
  entries: Record<string, unknown>[];
  create: (entry: Record<string, unknown>) => Promise<AtsBChangeResult>;
  /** The candidate's records of this kind, as ATS-B holds them. */
  list: () => Promise<({ id: number } & Record<string, unknown>)[]>;
}

interface Refusal {
  label: string;
  endpoint: string;
  /** The ATS's words: may quote the candidate, so they stay out of the error's message. */
  reason: string;
  fields: readonly string[];
}

/**
 * ATS-B: the candidate first, then each work-history and education entry as its own record. Entries are
 * known by a hash of their content: a new or changed entry is created; ATS-B records are never deleted by
 * the connector (recruiters may have worked on them).
 *
 * A child is recorded as unsure (CHILD_UNSURE) before its create is sent, and by its id once answered: a
 * create whose answer is lost (timeout, crash, checkpoint not written) is looked up among the candidate's
 * records by content on the next try, and created only when not there. A child ATS-B refuses for good
 * (a 400) is recorded as refused and the others are still sent; the refusal is thrown at the end, after
 * everything is checkpointed, as a permanent AtsError (the event is dead-lettered and reported in
 * `operation.failed` with the connector; a later event no longer trips on it).
 */
export class AtsBCandidateSink implements CandidateSink {
  constructor(
    private readonly client: AtsBClient,
    private readonly hasher: FieldHasher,
  ) {}

  get settleMs(): number {
    return this.client.unsureWriteSettleMs;
  }

  async findExisting(candidate: CandidateDataDto): Promise<string | undefined> {
    const ids = await this.client.findCandidateIdsByEmail(candidate.email);
    return ids.length > 0 ? String(Math.max(...ids)) : undefined;
  }

  /** Work history and education are records of their own, made by `update`: never complete. */
  async create(candidate: CandidateDataDto, signal?: AbortSignal): Promise<CreatedCandidate> {
    const fields = toAtsBCandidate(candidate);
    const { changedEntityId } = await this.client.createCandidate(toAtsBCandidateInsert(fields), { signal });
    return {
      externalId: String(changedEntityId),
      sent: { fields: this.hasher.fields(fields), children: {} },
      complete: false,
    };
  }

  async update(
    externalId: string,
    candidate: CandidateDataDto,
    sent: SentState,
    checkpoint: (sent: SentState) => Promise<void>,
    signal?: AbortSignal,
  ): Promise<SentState> {
    const id = Number(externalId);
    const desired = toAtsBCandidate(candidate);
    const changes = this.hasher.changed(desired, sent.fields);
    let state: SentState = sent;
    if (Object.keys(changes).length > 0) {
      await this.client.updateCandidate(id, changes, { signal });
      state = { ...state, fields: this.hasher.fields(desired) };
      await checkpoint(state);
    }
    const kinds: ChildKind[] = [
      {
        kind: 'work',
        label: 'work history entry',
        entries: (candidate.workHistory ?? []).map(toAtsBWorkHistory),
        create: (entry) => this.client.createWorkHistory({ candidate: { id }, ...entry }, { signal }),
        list: () => this.client.listCandidateWorkHistories(id),
      },
      {
        kind: 'education',
        label: 'education entry',
        entries: (candidate.education ?? []).map(toAtsBEducation),
        create: (entry) => this.client.createEducation({ candidate: { id }, ...entry }, { signal }),
        list: () => this.client.listCandidateEducations(id),
      },
    ];
    const refusals: Refusal[] = [];
    for (const { kind, label, entries, create, list } of kinds) {
      // Read once per kind, and only when an entry is unsure.
      let existing: Awaited<ReturnType<ChildKind['list']>> | undefined;
      for (const entry of entries) {
        state = rekeyLegacyChild(state, kind, entry, this.hasher);
        const key = `${kind}:${this.hasher.hash(entry)}`;
        const recorded = state.children[key];
        if (recorded !== undefined && recorded !== CHILD_UNSURE) continue;
        if (recorded === CHILD_UNSURE) {
          existing ??= await list();
          const taken = new Set(Object.values(state.children));
          const found = existing.find((record) => !taken.has(record.id) && sameChild(entry, record));
          if (found) {
            state = withChild(state, key, found.id);
            await checkpoint(state);
            continue;
          }
        } else {
          // Recorded before it is sent: from here on, a retry looks before creating.
          state = withChild(state, key, CHILD_UNSURE);
          await checkpoint(state);
        }
        let created: AtsBChangeResult;
        try {
          created = await create(entry);
        } catch (error) {
          if (!isRefusal(error)) throw error;
          refusals.push({
            label,
            endpoint: error.endpoint,
            reason: error.atsMessage ?? error.message,
            fields: error.fields ?? [],
          });
          state = withChild(state, key, CHILD_REFUSED);
          await checkpoint(state);
          continue;
        }
        state = withChild(state, key, created.changedEntityId);
        await checkpoint(state);
      }
    }
    const [first, ...more] = refusals;
    if (first) throw refusedError([first, ...more]);
    return { ...state, fields: this.hasher.fields(desired) };
  }
}

/** A child ATS-B refused for good, for its content: a 400, not an unsure write, nor a 403/404 of the candidate. */
function isRefusal(error: unknown): error is AtsError {
  return error instanceof AtsError && error.kind === 'permanent' && !error.ambiguous;
}

/** Mapped by toMessageError to a PermanentMessageError carrying the connector and the ATS's reasons. */
function refusedError(refusals: readonly [Refusal, ...Refusal[]]): AtsError {
  const counts = new Map<string, number>();
  for (const { label } of refusals) counts.set(label, (counts.get(label) ?? 0) + 1);
  const what = [...counts].map(([label, n]) => `${n} ${label}${n > 1 ? 's' : ''}`).join(' and ');
  const reasons = refusals.map(({ label, reason }) => `${label}: ${reason}`).join('; ');
  const fields = [...new Set(refusals.flatMap((refusal) => refusal.fields))];
  return new AtsError(
    `ATS-B refused ${what}${fields.length ? ` (fields: ${fields.join(', ')})` : ''}; the rest was sent`,
    {
      kind: 'permanent',
      endpoint: refusals[0].endpoint,
      code: 'children_refused',
      fields,
      atsMessage: `ATS-B refused ${what} (the rest was sent): ${reasons}`,
    },
  );
}

function withChild(state: SentState, key: string, id: number): SentState {
  return { ...state, children: { ...state.children, [key]: id } };
}

/**
 * Whether a record ATS-B holds is the entry we sent, after ATS-B's own normalisation: text trimmed (empty
 * text, null and an absent field all mean empty), dates as epoch ms within a day of ours.
 */
export function sameChild(sent: Record<string, unknown>, found: Record<string, unknown>): boolean {
  return Object.entries(sent).every(([field, value]) => sameValue(value, found[field]));
}

function sameValue(sent: unknown, found: unknown): boolean {
  if (typeof sent === 'number') {
    const date = typeof found === 'string' && /^-?\d+$/.test(found.trim()) ? Number(found.trim()) : found;
    return typeof date === 'number' && Math.abs(sent - date) < DATE_TOLERANCE_MS;
  }
  return text(sent) === text(found);
}

function text(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.replace(/\r\n?/g, '\n').trim();
  return trimmed === '' ? null : trimmed;
}

/** A child recorded under the unkeyed hash of before FIELD_HASH_KEY is the same record: kept, under its new key. */
export function rekeyLegacyChild(
  state: SentState,
  kind: string,
  entry: object,
  hasher: FieldHasher,
): SentState {
  const legacy = `${kind}:${legacyHashOf(entry)}`;
  const id = state.children[legacy];
  if (id === undefined) return state;
  const { [legacy]: _old, ...children } = state.children;
  return { ...state, children: { ...children, [`${kind}:${hasher.hash(entry)}`]: id } };
}

/** The adapter's `candidateSink`. */
export const atsBCandidateSink: CandidateSinkFactory<AtsBClient> = ({ client, hasher }) =>
  new AtsBCandidateSink(client, hasher);
