import { Injectable } from '@nestjs/common';
import { AtsClientFactory, pushClientOptions } from '@connector/ats-access';
import { AtsParts } from '@connector/ats-core';
import { atsRegistry } from '@connector/ats-registry';
import type { ConnectorSnapshot } from '@connector/contracts';
import { CandidateSyncConfig } from '../candidate-sync.config';
import { type ApplicationSink, type ApplicationSinkPart, atsAApplicationSinkPart } from './application-sink';

/** One application sink per ATS that declares `applications`: the service's part of each adapter. */
export const APPLICATION_SINK_PARTS: readonly ApplicationSinkPart[] = [atsAApplicationSinkPart];

/** The sink that writes applications to a connector's ATS; none when its capabilities have no applications. */
@Injectable()
export class ApplicationSinks {
  private readonly parts = new AtsParts(
    'application sink',
    atsRegistry,
    APPLICATION_SINK_PARTS,
    'applications',
  );

  constructor(
    private readonly clients: AtsClientFactory,
    private readonly config: CandidateSyncConfig,
  ) {}

  /** undefined: the ATS's capabilities have no applications (reported as unsupported). */
  for(connector: ConnectorSnapshot, messageId?: string): ApplicationSink | undefined {
    return this.parts.find(connector.type)?.create(connector, {
      clients: this.clients,
      options: pushClientOptions(this.config, messageId),
    });
  }

  /** Registered ATSs that declare applications and have no sink here (a test keeps it empty). */
  missing(): string[] {
    return this.parts.missing();
  }
}
