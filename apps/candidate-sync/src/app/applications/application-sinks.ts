import { Injectable } from '@nestjs/common';
import { AtsClientFactory, pushClientOptions } from '@connector/ats-access';
import { atsRegistry } from '@connector/ats-registry';
import type { ConnectorSnapshot } from '@connector/contracts';
import { CandidateSyncConfig } from '../candidate-sync.config';
import { AtsAApplicationSink, type ApplicationSink } from './application-sink';

/** The one place that knows which ATS types take applications, and how. */
@Injectable()
export class ApplicationSinks {
  constructor(
    private readonly clients: AtsClientFactory,
    private readonly config: CandidateSyncConfig,
  ) {}

  /** undefined: the ATS's capabilities have no applications (reported as unsupported). */
  for(connector: ConnectorSnapshot, messageId?: string): ApplicationSink | undefined {
    if (!atsRegistry.supports(connector.type, 'applications')) return undefined;
    switch (connector.type) {
      case 'ats-a':
        return new AtsAApplicationSink(
          this.clients.atsA(connector, pushClientOptions(this.config, messageId)),
          connector.id,
        );
      default:
        throw new Error(`${connector.type} declares applications but candidate-sync has no sink for it`);
    }
  }
}
