import {
  CANNOT_TELL,
  claimedFileType,
  DOCUMENT_FILE_TYPES,
  type DocumentPlan,
  type DocumentSink,
  type DocumentSinkFactory,
  type FileTypeName,
} from '@connector/ats-core';
import type { DocumentDataDto } from '@connector/contracts';
import type { AtsAClient } from '../client/ats-a.client';

/** ATS-A pick list 193: 2 = CV, 3 = General. */
const FILE_TYPE_CV = 2;
const FILE_TYPE_GENERAL = 3;

/** ATS-A: `cv` → upload/cv, `other` → upload/file; it takes no Smart CV. */
export class AtsADocumentSink implements DocumentSink {
  readonly fileTypes: readonly FileTypeName[] = DOCUMENT_FILE_TYPES;

  constructor(
    private readonly client: AtsAClient,
    private readonly connectorId?: string,
  ) {}

  plan(document: DocumentDataDto): DocumentPlan {
    switch (document.kind) {
      case 'cv':
      case 'other':
        claimedFileType(document, this.fileTypes, 'ATS-A', this.connectorId);
        return { action: 'upload' };
      case 'smart-cv':
        return { action: 'skip', reason: 'ATS-A does not take Smart CVs' };
    }
  }

  async upload(
    candidateExternalId: string,
    document: DocumentDataDto,
    content: Buffer,
    signal?: AbortSignal,
  ): Promise<string> {
    const cv = document.kind === 'cv';
    const { FileId } = await this.client.uploadCandidateFile(
      Number(candidateExternalId),
      cv ? 'cv' : 'file',
      { name: document.fileName, contentType: document.contentType, content },
      cv ? FILE_TYPE_CV : FILE_TYPE_GENERAL,
      { signal },
    );
    return String(FileId);
  }

  /** ATS-A has no way to list a candidate's files: an unsure upload cannot be checked. */
  async findExisting(): Promise<typeof CANNOT_TELL> {
    return CANNOT_TELL;
  }
}

/** The adapter's `documentSink`. */
export const atsADocumentSink: DocumentSinkFactory<AtsAClient> = ({ client, connector }) =>
  new AtsADocumentSink(client, connector.id);
