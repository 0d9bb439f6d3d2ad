import { Injectable } from '@nestjs/common';
import { AtsClientFactory, pushClientOptions } from '@connector/ats-access';
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

  /** undefined: this ATS has no application operation in this integration (reported as unsupported). */
  for(connector: ConnectorSnapshot, messageId?: string): ApplicationSink | undefined {
    switch (connector.type) {
      case 'ats-a':
        return new AtsAApplicationSink(
          this.clients.atsA(connector, pushClientOptions(this.config, messageId)),
          connector.id,
        );
      case 'ats-b':
        return undefined;
    }
  }
}
