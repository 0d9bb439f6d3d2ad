import { Injectable } from '@nestjs/common';
import { AtsClientFactory } from '@connector/ats-access';
import type { ConnectorSnapshot } from '@connector/contracts';
import { CandidateSyncConfig } from '../candidate-sync.config';
import { AtsACandidateSink } from './ats-a-candidate.sink';
import { AtsBCandidateSink } from './ats-b-candidate.sink';
import type { CandidateSink } from './candidate-sink';

/** The one place that knows which sink writes candidates to which ATS type. */
@Injectable()
export class CandidateSinks {
  constructor(
    private readonly clients: AtsClientFactory,
    private readonly config: CandidateSyncConfig,
  ) {}

  /** `messageId`: the event the calls are for, counted as waiting while it has no budget. */
  for(connector: ConnectorSnapshot, messageId?: string): CandidateSink {
    const options = {
      priority: 'push' as const,
      maxWaitMs: this.config.BUDGET_WAIT_MS,
      timeoutMs: this.config.ATS_TIMEOUT_MS,
      ...(messageId ? { waiter: { id: messageId, kind: 'message' as const } } : {}),
    };
    switch (connector.type) {
      case 'ats-a':
        return new AtsACandidateSink(this.clients.atsA(connector, options));
      case 'ats-b':
        return new AtsBCandidateSink(this.clients.atsB(connector, options));
    }
  }
}
