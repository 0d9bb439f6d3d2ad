import type { AtsBClient } from '@connector/ats-clients';
import type { CandidateDataDto } from '@connector/contracts';
import type { CandidateSink, SentState } from './candidate-sink';
import {
  toAtsBCandidate,
  toAtsBCandidateInsert,
  toAtsBEducation,
  toAtsBWorkHistory,
} from './candidate-mapping';
import { changedFields, hashFields, hashOf } from './field-diff';

/**
 * ATS-B: the candidate first, then each work-history and education entry as its own record. Entries are
 * known by a hash of their content: a new or changed entry is created; ATS-B records are never deleted by
 * the connector (recruiters may have worked on them).
 */
export class AtsBCandidateSink implements CandidateSink {
  constructor(private readonly client: AtsBClient) {}

  async findExisting(candidate: CandidateDataDto): Promise<string | undefined> {
    const ids = await this.client.findCandidateIdsByEmail(candidate.email);
    return ids.length > 0 ? String(Math.max(...ids)) : undefined;
  }

  async create(candidate: CandidateDataDto): Promise<{ externalId: string; sent: SentState }> {
    const fields = toAtsBCandidate(candidate);
    const { changedEntityId } = await this.client.createCandidate(toAtsBCandidateInsert(fields));
    return { externalId: String(changedEntityId), sent: { fields: hashFields(fields), children: {} } };
  }

  async update(
    externalId: string,
    candidate: CandidateDataDto,
    sent: SentState,
    checkpoint: (sent: SentState) => Promise<void>,
  ): Promise<SentState> {
    const id = Number(externalId);
    const desired = toAtsBCandidate(candidate);
    const changes = changedFields(desired, sent.fields);
    let state: SentState = sent;
    if (Object.keys(changes).length > 0) {
      await this.client.updateCandidate(id, changes);
      state = { ...state, fields: hashFields(desired) };
      await checkpoint(state);
    }
    for (const entry of (candidate.workHistory ?? []).map(toAtsBWorkHistory)) {
      const key = `work:${hashOf(entry)}`;
      if (state.children[key] !== undefined) continue;
      const { changedEntityId } = await this.client.createWorkHistory({ candidate: { id }, ...entry });
      state = { ...state, children: { ...state.children, [key]: changedEntityId } };
      await checkpoint(state);
    }
    for (const entry of (candidate.education ?? []).map(toAtsBEducation)) {
      const key = `education:${hashOf(entry)}`;
      if (state.children[key] !== undefined) continue;
      const { changedEntityId } = await this.client.createEducation({ candidate: { id }, ...entry });
      state = { ...state, children: { ...state.children, [key]: changedEntityId } };
      await checkpoint(state);
    }
    return { ...state, fields: hashFields(desired) };
  }
}
