import { Injectable } from '@nestjs/common';
import { atsRegistry } from '@connector/ats-registry';
import { AuthGatewayClient } from '../../clients/auth-gateway.client';
import { AtsAConnectorKind } from './ats-a.connector-kind';
import { AtsBConnectorKind } from './ats-b.connector-kind';
import type { ConnectorKind } from './connector-kind';

/** The ConnectorKind of each ATS type. */
@Injectable()
export class ConnectorKinds {
  private readonly kinds: Readonly<Record<string, ConnectorKind>>;

  constructor(gateway: AuthGatewayClient) {
    this.kinds = { 'ats-a': new AtsAConnectorKind(gateway), 'ats-b': new AtsBConnectorKind() };
  }

  of(type: string): ConnectorKind {
    const kind = this.kinds[type];
    if (!kind) throw new Error(`no connector kind for ${atsRegistry.get(type).type}`);
    return kind;
  }
}
