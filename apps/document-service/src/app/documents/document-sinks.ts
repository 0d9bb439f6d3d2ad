import { Injectable } from '@nestjs/common';
import { AtsClientFactory, pushClientOptions } from '@connector/ats-access';
import { AtsParts } from '@connector/ats-core';
import { atsRegistry } from '@connector/ats-registry';
import type { ConnectorSnapshot } from '@connector/contracts';
import { DocumentServiceConfig } from '../document-service.config';
import { atsADocumentSinkPart } from './ats-a-document.sink';
import { atsBDocumentSinkPart } from './ats-b-document.sink';
import type { DocumentSink, DocumentSinkPart } from './document-sink';

/** One document sink per ATS that declares `documents`: the service's part of each adapter. */
export const DOCUMENT_SINK_PARTS: readonly DocumentSinkPart[] = [atsADocumentSinkPart, atsBDocumentSinkPart];

/** The sink that attaches documents in a connector's ATS, looked up by its type (no case per ATS). */
@Injectable()
export class DocumentSinks {
  private readonly parts = new AtsParts('document sink', atsRegistry, DOCUMENT_SINK_PARTS, 'documents');

  constructor(
    private readonly clients: AtsClientFactory,
    private readonly config: DocumentServiceConfig,
  ) {}

  /** `messageId`: the event the calls are for, counted as waiting while it has no budget. */
  for(connector: ConnectorSnapshot, messageId?: string): DocumentSink {
    return this.parts.get(connector.type).create(connector, {
      clients: this.clients,
      options: pushClientOptions(this.config, messageId),
    });
  }

  /** Registered ATSs that declare documents and have no sink here (a test keeps it empty). */
  missing(): string[] {
    return this.parts.missing();
  }
}
