import type { ConnectorSnapshot, DocumentDataDto } from '@connector/contracts';
import type { FileTypeName } from './file-types';

/** What a connector does with a document: upload it, or skip it for a reason the platform is told. */
export type DocumentPlan = { action: 'upload' } | { action: 'skip'; reason: string };

/** The ATS cannot say whether an unsure upload landed. */
export const CANNOT_TELL = Symbol('CANNOT_TELL');

/** One ATS's way of attaching documents to candidates; one implementation per ATS type. */
export interface DocumentSink {
  /** The file types this ATS is sent (checked by name and content type in plan, by the bytes after download). */
  readonly fileTypes: readonly FileTypeName[];
  /** Decided before anything is downloaded; a file the ATS refuses throws a PermanentMessageError. */
  plan(document: DocumentDataDto): DocumentPlan;
  /** `signal`: the candidate's lock; once it is lost, nothing is sent (see AtsWriteOptions). */
  upload(
    candidateExternalId: string,
    document: DocumentDataDto,
    content: Buffer,
    signal?: AbortSignal,
  ): Promise<string>;
  /**
   * After an unsure upload: the file's ATS id if it landed, undefined if not. `documentIds`: the platform's
   * documents it may have been sent as (the unsure upload's, and the one being attached now).
   */
  findExisting(
    candidateExternalId: string,
    documentIds: readonly string[],
  ): Promise<string | undefined | typeof CANNOT_TELL>;
}

/** What a sink is made with: the connector, and its client as its adapter's `makeClients` makes it. */
export interface DocumentSinkDeps<Client> {
  connector: ConnectorSnapshot;
  client: Client;
}

/**
 * An adapter's `documentSink`: makes its sink for one connector. `Client` is the adapter's own client; the
 * adapter's type (`AtsAdapter`) leaves it `never`, as only the adapter knows it.
 */
export type DocumentSinkFactory<Client = never> = (deps: DocumentSinkDeps<Client>) => DocumentSink;
