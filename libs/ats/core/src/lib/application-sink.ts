import type { ConnectorSnapshot } from '@connector/contracts';

/**
 * A question and its answer as an application carries them (ATS-A's shape, the one ATS with applications so
 * far; the answers' stored hashes are of this shape).
 */
export interface ApplicationQuestion {
  Question: string;
  Answer: string | null;
}

/** One ATS's way of writing applications; an ATS without applications has no sink. */
export interface ApplicationSink {
  /** From a create's claim until `findExisting` surely sees it if it landed (timeout + the ATS's index lag). */
  readonly settleMs: number;
  /** The application an earlier create of ours may have made (crash or timeout after sending). */
  findExisting(candidateExternalId: string, vacancyExternalId: string): Promise<string | undefined>;
  /** `signal`: the candidate's lock; once it is lost, no write is sent (see AtsWriteOptions). */
  create(
    candidateExternalId: string,
    vacancyExternalId: string,
    questions: ApplicationQuestion[],
    signal?: AbortSignal,
  ): Promise<string>;
  updateAnswers(externalId: string, changed: ApplicationQuestion[], signal?: AbortSignal): Promise<void>;
}

/** What a sink is made with: the connector, and its client as its adapter's `makeClients` makes it. */
export interface ApplicationSinkDeps<Client> {
  connector: ConnectorSnapshot;
  client: Client;
}

/**
 * An adapter's `applicationSink`: makes its sink for one connector. `Client` is the adapter's own client; the
 * adapter's type (`AtsAdapter`) leaves it `never`, as only the adapter knows it.
 */
export type ApplicationSinkFactory<Client = never> = (deps: ApplicationSinkDeps<Client>) => ApplicationSink;
