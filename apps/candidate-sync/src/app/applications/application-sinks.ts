import { Injectable } from '@nestjs/common';
import { AtsClientFactory, pushClientOptions } from '@connector/ats-client-factory';
import {
  type ApplicationSink,
  type ApplicationSinkFactory,
  type AtsPart,
  AtsParts,
  AtsRegistry,
} from '@connector/ats-core';
import type { ConnectorSnapshot } from '@connector/contracts';
import { CandidateSyncConfig } from '../candidate-sync.config';

/** A registered adapter's `applicationSink`, under the ATS it is for. */
interface ApplicationSinkPart extends AtsPart {
  readonly make: ApplicationSinkFactory;
}

/** The sink that writes applications to a connector's ATS; none when its capabilities have no applications. */
@Injectable()
export class ApplicationSinks {
  private readonly parts: AtsParts<ApplicationSinkPart>;

  constructor(
    registry: AtsRegistry,
    private readonly clients: AtsClientFactory,
    private readonly config: CandidateSyncConfig,
  ) {
    this.parts = new AtsParts(
      'application sink',
      registry,
      registry
        .all()
        .flatMap(({ type, applicationSink }) =>
          applicationSink ? [{ atsType: type, make: applicationSink }] : [],
        ),
      'applications',
    );
  }

  /** undefined: the ATS's capabilities have no applications (reported as unsupported). */
  for(connector: ConnectorSnapshot, messageId?: string): ApplicationSink | undefined {
    const part = this.parts.find(connector.type);
    if (!part) return undefined;
    const client = this.clients.for(connector, pushClientOptions(this.config, messageId));
    // The client its adapter's own makeClients made: the one type its sink is written for.
    return part.make({ connector, client: client as never });
  }

  /** Registered ATSs that declare applications and whose adapter has no `applicationSink` (a test keeps it empty). */
  missing(): string[] {
    return this.parts.missing();
  }
}
