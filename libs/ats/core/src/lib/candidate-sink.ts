import type { CandidateDataDto } from '@connector/contracts';
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

/**
 * What a sink is made with: the connector's client, as its adapter's `makeClients` makes it (the service's
 * AtsClientFactory builds it with the call options), and candidate-sync's field hasher.
 */
export interface CandidateSinkDeps<Client> {
  client: Client;
  hasher: FieldHasher;
}

/**
 * An adapter's `candidateSink`: makes its sink for one connector. `Client` is the adapter's own client; the
 * adapter's type (`AtsAdapter`) leaves it `never`, as only the adapter knows it.
 */
export type CandidateSinkFactory<Client = never> = (deps: CandidateSinkDeps<Client>) => CandidateSink;
