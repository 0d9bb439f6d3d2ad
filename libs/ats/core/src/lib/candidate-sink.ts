import type { AtsClientFactory, ClientOptions } from '@connector/ats-access';
import type { AtsPart } from '@connector/ats-core';
import type { CandidateDataDto, ConnectorSnapshot } from '@connector/contracts';
import type { FieldHasher, FieldHashes } from './field-diff';

/** What the ATS holds of a candidate as far as we sent it: field hashes, and child records made (key → id). */
export interface SentState {
  fields: FieldHashes;
  children: Record<string, number>;
}

export const NOTHING_SENT: SentState = { fields: {}, children: {} };

/** A record just created. `complete`: the create sent all of the candidate, so `update` would send nothing. */
export interface CreatedCandidate {
  externalId: string;
  sent: SentState;
  complete: boolean;
}

/** One ATS's way of writing candidates; one implementation per ATS type. */
export interface CandidateSink {
  /** From a create's claim until `findExisting` surely sees it if it landed (timeout + the ATS's index lag). */
  readonly settleMs: number;
  /** A candidate an earlier create of ours may have made (crash or timeout after sending). */
  findExisting(candidate: CandidateDataDto): Promise<string | undefined>;
  /**
   * Creates the record; what is created here is recorded before anything else is sent. `signal`: the
   * candidate's lock; once it is lost, no write is sent (see AtsWriteOptions).
   */
  create(candidate: CandidateDataDto, signal?: AbortSignal): Promise<CreatedCandidate>;
  /**
   * Sends what differs from `sent`; `checkpoint` records progress between calls, so a retry does not
   * make the same child record twice.
   */
  update(
    externalId: string,
    candidate: CandidateDataDto,
    sent: SentState,
    checkpoint: (sent: SentState) => Promise<void>,
    signal?: AbortSignal,
  ): Promise<SentState>;
}

/** What a sink is made with: the service's clients and hasher, and the calls' options (budget, waits). */
export interface CandidateSinkDeps {
  clients: AtsClientFactory;
  hasher: FieldHasher;
  options: ClientOptions;
}

/** candidate-sync's part of one ATS that declares `candidates`: makes its sink for a connector. */
export interface CandidateSinkPart extends AtsPart {
  create(connector: ConnectorSnapshot, deps: CandidateSinkDeps): CandidateSink;
}
