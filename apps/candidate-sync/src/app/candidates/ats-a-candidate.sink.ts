import type { AtsAClient } from '@connector/ats-clients';
import type { CandidateDataDto } from '@connector/contracts';
import type { CandidateSink, SentState } from './candidate-sink';
import { toAtsACandidate } from './candidate-mapping';
import { changedFields, hashFields } from './field-diff';

/** ATS-A: one record with employment history and education inline; PATCH with the changed fields. */
export class AtsACandidateSink implements CandidateSink {
  constructor(private readonly client: AtsAClient) {}

  async findExisting(candidate: CandidateDataDto): Promise<string | undefined> {
    const page = await this.client.search<{ CandidateId: number }>('candidates', {
      Paging: { RecordsPerPage: 50, RequestedPage: 1 },
      Filters: [{ Route: 'Candidate.Email', Operation: 'Equals', Value: candidate.email }],
      ResponseBlocks: ['CandidateId'],
    });
    // Ours is the newest one with that address, if several exist.
    const ids = page.Records.map((record) => record.CandidateId);
    return ids.length > 0 ? String(Math.max(...ids)) : undefined;
  }

  async create(candidate: CandidateDataDto): Promise<{ externalId: string; sent: SentState }> {
    const body = toAtsACandidate(candidate);
    const { CandidateId } = await this.client.createCandidate(body);
    return { externalId: String(CandidateId), sent: { fields: hashFields(body), children: {} } };
  }

  async update(externalId: string, candidate: CandidateDataDto, sent: SentState): Promise<SentState> {
    const desired = toAtsACandidate(candidate);
    const changes = changedFields(desired, sent.fields);
    if (Object.keys(changes).length > 0) await this.client.patchCandidate(Number(externalId), changes);
    return { fields: hashFields(desired), children: {} };
  }
}
