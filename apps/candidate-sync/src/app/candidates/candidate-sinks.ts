import { Injectable } from '@nestjs/common';
import { AtsClientFactory, pushClientOptions } from '@connector/ats-client-factory';
import {
  type AtsPart,
  AtsParts,
  AtsRegistry,
  type CandidateSink,
  type CandidateSinkFactory,
  FieldHasher,
} from '@connector/ats-core';
import type { ConnectorSnapshot } from '@connector/contracts';
import { CandidateSyncConfig } from '../candidate-sync.config';

/** A registered adapter's `candidateSink`, under the ATS it is for. */
interface CandidateSinkPart extends AtsPart {
  readonly make: CandidateSinkFactory;
}

/** The sink that writes candidates to a connector's ATS, asked of its adapter (no case per ATS). */
@Injectable()
export class CandidateSinks {
  private readonly parts: AtsParts<CandidateSinkPart>;

  constructor(
    registry: AtsRegistry,
    private readonly clients: AtsClientFactory,
    private readonly config: CandidateSyncConfig,
    private readonly hasher: FieldHasher,
  ) {
    this.parts = new AtsParts(
      'candidate sink',
      registry,
      registry
        .all()
        .flatMap(({ type, candidateSink }) =>
          candidateSink ? [{ atsType: type, make: candidateSink }] : [],
        ),
      'candidates',
    );
  }

  /** `messageId`: the event the calls are for, counted as waiting while it has no budget. */
  for(connector: ConnectorSnapshot, messageId?: string): CandidateSink {
    const { make } = this.parts.get(connector.type);
    const client = this.clients.for(connector, pushClientOptions(this.config, messageId));
    // The client its adapter's own makeClients made: the one type its sink is written for.
    return make({ client: client as never, hasher: this.hasher });
  }

  /** Registered ATSs that declare candidates and whose adapter has no `candidateSink` (a test keeps it empty). */
  missing(): string[] {
    return this.parts.missing();
  }
}
