import { Injectable } from '@nestjs/common';
import { AtsClientFactory, pushClientOptions } from '@connector/ats-access';
import { atsRegistry } from '@connector/ats-registry';
import type { ConnectorSnapshot } from '@connector/contracts';
import { DocumentServiceConfig } from '../document-service.config';
import { AtsADocumentSink } from './ats-a-document.sink';
import { AtsBDocumentSink } from './ats-b-document.sink';
import type { DocumentSink } from './document-sink';

/** The one place that knows which sink attaches documents in which ATS type. */
@Injectable()
export class DocumentSinks {
  constructor(
    private readonly clients: AtsClientFactory,
    private readonly config: DocumentServiceConfig,
  ) {}

  /** `messageId`: the event the calls are for, counted as waiting while it has no budget. */
  for(connector: ConnectorSnapshot, messageId?: string): DocumentSink {
    const options = pushClientOptions(this.config, messageId);
    switch (connector.type) {
      case 'ats-a':
        return new AtsADocumentSink(this.clients.atsA(connector, options), connector.id);
      case 'ats-b':
        return new AtsBDocumentSink(
          this.clients.atsB(connector, options),
          connector.id,
          connector.options['sendSmartCv'] === true,
        );
      default:
        throw new Error(`no document sink for ${atsRegistry.get(connector.type).type}`);
    }
  }
}
