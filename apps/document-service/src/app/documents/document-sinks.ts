import { Injectable } from '@nestjs/common';
import { AtsClientFactory, pushClientOptions } from '@connector/ats-client-factory';
import {
  type AtsPart,
  AtsParts,
  AtsRegistry,
  type DocumentSink,
  type DocumentSinkFactory,
} from '@connector/ats-core';
import type { ConnectorSnapshot } from '@connector/contracts';
import { DocumentServiceConfig } from '../document-service.config';

/** A registered adapter's `documentSink`, under the ATS it is for. */
interface DocumentSinkPart extends AtsPart {
  readonly make: DocumentSinkFactory;
}

/** The sink that attaches documents in a connector's ATS, asked of its adapter (no case per ATS). */
@Injectable()
export class DocumentSinks {
  private readonly parts: AtsParts<DocumentSinkPart>;

  constructor(
    registry: AtsRegistry,
    private readonly clients: AtsClientFactory,
    private readonly config: DocumentServiceConfig,
  ) {
    this.parts = new AtsParts(
      'document sink',
      registry,
      registry
        .all()
        .flatMap(({ type, documentSink }) => (documentSink ? [{ atsType: type, make: documentSink }] : [])),
      'documents',
    );
  }

  /** `messageId`: the event the calls are for, counted as waiting while it has no budget. */
  for(connector: ConnectorSnapshot, messageId?: string): DocumentSink {
    const { make } = this.parts.get(connector.type);
    const client = this.clients.for(connector, pushClientOptions(this.config, messageId));
    // The client its adapter's own makeClients made: the one type its sink is written for.
    return make({ connector, client: client as never });
  }

  /** Registered ATSs that declare documents and whose adapter has no `documentSink` (a test keeps it empty). */
  missing(): string[] {
    return this.parts.missing();
  }
}
