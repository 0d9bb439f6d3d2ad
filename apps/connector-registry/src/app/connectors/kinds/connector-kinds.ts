import { Injectable } from '@nestjs/common';
import type { AtsType } from '@connector/contracts';
import { AuthGatewayClient } from '../../clients/auth-gateway.client';
import { AtsAConnectorKind } from './ats-a.connector-kind';
import { AtsBConnectorKind } from './ats-b.connector-kind';
import type { ConnectorKind } from './connector-kind';

/** The ConnectorKind of each ATS type. */
@Injectable()
export class ConnectorKinds {
  private readonly kinds: Record<AtsType, ConnectorKind>;

  constructor(gateway: AuthGatewayClient) {
    this.kinds = { 'ats-a': new AtsAConnectorKind(gateway), 'ats-b': new AtsBConnectorKind() };
  }

  of(type: AtsType): ConnectorKind {
    return this.kinds[type];
  }
}
