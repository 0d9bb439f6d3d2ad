import { Injectable } from '@nestjs/common';
import { AtsClientFactory, pushClientOptions } from '@connector/ats-access';
import { atsRegistry } from '@connector/ats-registry';
import type { ConnectorSnapshot } from '@connector/contracts';
import { CandidateSyncConfig } from '../candidate-sync.config';
import { AtsACandidateSink } from './ats-a-candidate.sink';
import { AtsBCandidateSink } from './ats-b-candidate.sink';
import type { CandidateSink } from './candidate-sink';
import { FieldHasher } from './field-diff';

/** The one place that knows which sink writes candidates to which ATS type. */
@Injectable()
export class CandidateSinks {
  constructor(
    private readonly clients: AtsClientFactory,
    private readonly config: CandidateSyncConfig,
    private readonly hasher: FieldHasher,
  ) {}

  /** `messageId`: the event the calls are for, counted as waiting while it has no budget. */
  for(connector: ConnectorSnapshot, messageId?: string): CandidateSink {
    const options = pushClientOptions(this.config, messageId);
    switch (connector.type) {
      case 'ats-a':
        return new AtsACandidateSink(this.clients.atsA(connector, options), this.hasher);
      case 'ats-b':
        return new AtsBCandidateSink(this.clients.atsB(connector, options), this.hasher);
      default:
        throw new Error(`no candidate sink for ${atsRegistry.get(connector.type).type}`);
    }
  }
}
