import { Injectable } from '@nestjs/common';
import { AtsClientFactory, pushClientOptions } from '@connector/ats-access';
import { AtsParts } from '@connector/ats-core';
import { atsRegistry } from '@connector/ats-registry';
import type { ConnectorSnapshot } from '@connector/contracts';
import { CandidateSyncConfig } from '../candidate-sync.config';
import { atsACandidateSinkPart } from './ats-a-candidate.sink';
import { atsBCandidateSinkPart } from './ats-b-candidate.sink';
import type { CandidateSink, CandidateSinkPart } from './candidate-sink';
import { FieldHasher } from './field-diff';

/** One candidate sink per ATS that declares `candidates`: the service's part of each adapter. */
export const CANDIDATE_SINK_PARTS: readonly CandidateSinkPart[] = [
  atsACandidateSinkPart,
  atsBCandidateSinkPart,
];

/** The sink that writes candidates to a connector's ATS, looked up by its type (no case per ATS). */
@Injectable()
export class CandidateSinks {
  private readonly parts = new AtsParts('candidate sink', atsRegistry, CANDIDATE_SINK_PARTS, 'candidates');

  constructor(
    private readonly clients: AtsClientFactory,
    private readonly config: CandidateSyncConfig,
    private readonly hasher: FieldHasher,
  ) {}

  /** `messageId`: the event the calls are for, counted as waiting while it has no budget. */
  for(connector: ConnectorSnapshot, messageId?: string): CandidateSink {
    return this.parts.get(connector.type).create(connector, {
      clients: this.clients,
      hasher: this.hasher,
      options: pushClientOptions(this.config, messageId),
    });
  }

  /** Registered ATSs that declare candidates and have no sink here (a test keeps it empty). */
  missing(): string[] {
    return this.parts.missing();
  }
}
