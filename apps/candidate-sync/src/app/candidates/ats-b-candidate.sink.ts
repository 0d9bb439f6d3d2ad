import type { AtsBClient } from '@connector/ats-clients';
import type { CandidateDataDto } from '@connector/contracts';
import type { CandidateSink, CreatedCandidate, SentState } from './candidate-sink';
import {
  toAtsBCandidate,
  toAtsBCandidateInsert,
  toAtsBEducation,
  toAtsBWorkHistory,
} from './candidate-mapping';
import { type FieldHasher, legacyHashOf } from './field-diff';

/**
 * ATS-B: the candidate first, then each work-history and education entry as its own record. Entries are
 * known by a hash of their content: a new or changed entry is created; ATS-B records are never deleted by
 * the connector (recruiters may have worked on them).
 */
export class AtsBCandidateSink implements CandidateSink {
  constructor(
    private readonly client: AtsBClient,
    private readonly hasher: FieldHasher,
  ) {}

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
    for (const entry of (candidate.workHistory ?? []).map(toAtsBWorkHistory)) {
      state = rekeyLegacyChild(state, 'work', entry, this.hasher);
      const key = `work:${this.hasher.hash(entry)}`;
      if (state.children[key] !== undefined) continue;
      const { changedEntityId } = await this.client.createWorkHistory(
        { candidate: { id }, ...entry },
        { signal },
      );
      state = { ...state, children: { ...state.children, [key]: changedEntityId } };
      await checkpoint(state);
    }
    for (const entry of (candidate.education ?? []).map(toAtsBEducation)) {
      state = rekeyLegacyChild(state, 'education', entry, this.hasher);
      const key = `education:${this.hasher.hash(entry)}`;
      if (state.children[key] !== undefined) continue;
      const { changedEntityId } = await this.client.createEducation(
        { candidate: { id }, ...entry },
        { signal },
      );
      state = { ...state, children: { ...state.children, [key]: changedEntityId } };
      await checkpoint(state);
    }
    return { ...state, fields: this.hasher.fields(desired) };
  }
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
