import { Injectable } from '@nestjs/common';
import { AtsParts } from '@connector/ats-core';
import { atsRegistry } from '@connector/ats-registry';
import { AuthGatewayClient } from '../../clients/auth-gateway.client';
import { AtsAConnectorKind } from './ats-a.connector-kind';
import { AtsBConnectorKind } from './ats-b.connector-kind';
import type { ConnectorKind } from './connector-kind';

/** One connector kind per registered ATS: the registry's part of each adapter. */
export const CONNECTOR_KINDS: readonly (new (gateway: AuthGatewayClient) => ConnectorKind)[] = [
  AtsAConnectorKind,
  AtsBConnectorKind,
];

/** The ConnectorKind of each ATS type, looked up by the type each kind names (no case per ATS). */
@Injectable()
export class ConnectorKinds {
  private readonly kinds: AtsParts<ConnectorKind>;

  constructor(gateway: AuthGatewayClient) {
    this.kinds = new AtsParts(
      'connector kind',
      atsRegistry,
      CONNECTOR_KINDS.map((Kind) => new Kind(gateway)),
    );
  }

  of(type: string): ConnectorKind {
    return this.kinds.get(type);
  }

  /** Registered ATSs without a connector kind here (a test keeps it empty). */
  missing(): string[] {
    return this.kinds.missing();
  }
}
