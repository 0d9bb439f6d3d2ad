import type {
  CandidateSink,
  CandidateSinkFactory,
  CreatedCandidate,
  FieldHasher,
  SentState,
} from '@connector/ats-core';
import type { CandidateDataDto } from '@connector/contracts';
import type { AtsAClient } from '../client/ats-a.client';
import { toAtsACandidate } from './ats-a-candidate-mapping';

/** ATS-A: one record with employment history and education inline; PATCH with the changed fields. */
export class AtsACandidateSink implements CandidateSink {
  constructor(
    private readonly client: AtsAClient,
    private readonly hasher: FieldHasher,
  ) {}

  get settleMs(): number {
    return this.client.unsureWriteSettleMs;
  }

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

  /** Employment history and education go inline: the create sends the whole candidate. */
  async create(candidate: CandidateDataDto, signal?: AbortSignal): Promise<CreatedCandidate> {
    const body = toAtsACandidate(candidate);
    const { CandidateId } = await this.client.createCandidate(body, { signal });
    return {
      externalId: String(CandidateId),
      sent: { fields: this.hasher.fields(body), children: {} },
      complete: true,
    };
  }

  async update(
    externalId: string,
    candidate: CandidateDataDto,
    sent: SentState,
    _checkpoint: unknown,
    signal?: AbortSignal,
  ): Promise<SentState> {
    const desired = toAtsACandidate(candidate);
    const fields = this.hasher.fields(desired);
    const changes = Object.fromEntries(
      Object.entries(desired).filter(([key]) => sent.fields[key] !== fields[key]),
    ) as Partial<typeof desired>;
    if (Object.keys(changes).length > 0) {
      await this.client.patchCandidate(Number(externalId), changes, { signal });
    }
    return { fields, children: {} };
  }
}

/** The adapter's `candidateSink`. */
export const atsACandidateSink: CandidateSinkFactory<AtsAClient> = ({ client, hasher }) =>
  new AtsACandidateSink(client, hasher);
