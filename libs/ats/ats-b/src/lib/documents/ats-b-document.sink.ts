import {
  claimedFileType,
  cleanFileName,
  DOCUMENT_FILE_TYPES,
  type DocumentPlan,
  type DocumentSink,
  type DocumentSinkFactory,
  type FileTypeName,
} from '@connector/ats-core';
import type { DocumentDataDto } from '@connector/contracts';
import { PermanentMessageError } from '@connector/messaging';
import type { AtsBClient } from '../client/ats-b.client';

/** ats-b.md: executables and scripts are refused, names are at most 100 characters. */
export const ATS_B_REFUSED_EXTENSIONS = [
  '.exe',
  '.js',
  '.html',
  '.htm',
  '.php',
  '.asp',
  '.aspx',
  '.jsp',
  '.cfm',
];
export const ATS_B_MAX_FILE_NAME = 100;

/** The file `type` per document kind (customer pick list; "Smart CV" is this project's choice). */
const FILE_TYPES = { cv: 'Resume', other: 'Other', 'smart-cv': 'Smart CV' } as const;

/** ATS-B: `PUT file/Candidate/{id}`; Smart CVs only when the connector's "Send Smart CV" is on. */
export class AtsBDocumentSink implements DocumentSink {
  readonly fileTypes: readonly FileTypeName[] = DOCUMENT_FILE_TYPES;

  constructor(
    private readonly client: AtsBClient | undefined,
    private readonly connectorId: string,
    private readonly sendSmartCv: boolean,
  ) {}

  plan(document: DocumentDataDto): DocumentPlan {
    if (document.kind === 'smart-cv' && !this.sendSmartCv) {
      return { action: 'skip', reason: 'the connector\'s "Send Smart CV" option is off' };
    }
    const name = document.fileName.trim().toLowerCase();
    const refused = ATS_B_REFUSED_EXTENSIONS.find((extension) => name.endsWith(extension));
    if (refused) {
      throw new PermanentMessageError(
        `ATS-B refuses ${refused} files (executables and scripts)`,
        this.connectorId,
      );
    }
    claimedFileType(document, this.fileTypes, 'ATS-B', this.connectorId);
    return { action: 'upload' };
  }

  async upload(
    candidateExternalId: string,
    document: DocumentDataDto,
    content: Buffer,
    signal?: AbortSignal,
  ): Promise<string> {
    const file = {
      // The document id: a retry finds its own upload in the candidate's file list.
      externalID: document.documentId,
      // ATS-B takes names of at most 100 characters: shortened, the extension kept.
      name: cleanFileName(document.fileName, ATS_B_MAX_FILE_NAME),
      contentType: document.contentType,
      type: FILE_TYPES[document.kind],
      description: `sha256:${document.sha256.toLowerCase()}`,
      content,
    };
    const { fileId } = await this.atsB().uploadCandidateFile(Number(candidateExternalId), file, { signal });
    return String(fileId);
  }

  async findExisting(
    candidateExternalId: string,
    documentIds: readonly string[],
  ): Promise<string | undefined> {
    const files = await this.atsB().listCandidateFiles(Number(candidateExternalId));
    const found = files.find(
      (file) => typeof file.externalID === 'string' && documentIds.includes(file.externalID),
    );
    return found ? String(found.id) : undefined;
  }

  private atsB(): AtsBClient {
    if (!this.client) throw new Error('AtsBDocumentSink built without a client');
    return this.client;
  }
}

/** The adapter's `documentSink`: Smart CVs as the connector's "Send Smart CV" option says. */
export const atsBDocumentSink: DocumentSinkFactory<AtsBClient> = ({ client, connector }) =>
  new AtsBDocumentSink(client, connector.id, connector.options['sendSmartCv'] === true);
