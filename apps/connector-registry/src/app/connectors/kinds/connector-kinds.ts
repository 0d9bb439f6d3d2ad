import { Injectable } from '@nestjs/common';
import {
  AtsRegistry,
  type ConnectorKind,
  type ConnectorKindContext,
  MissingAtsPartError,
} from '@connector/ats-core';
import { AuthGatewayClient } from '../../clients/auth-gateway.client';
import { validateAs } from '../../common/validation';
import { GatewayCredentials } from './gateway-credentials';

const PART = 'connector kind';

/**
 * The ConnectorKind of each ATS type, asked of its adapter (`connectorKind`): nothing to list here for a new
 * ATS, no case per ATS. Made once per type, at its first use (an adapter registered later is found too).
 */
@Injectable()
export class ConnectorKinds {
  private readonly context: ConnectorKindContext;
  private readonly kinds = new Map<string, ConnectorKind>();

  constructor(
    private readonly registry: AtsRegistry,
    gateway: AuthGatewayClient,
  ) {
    this.context = { validate: validateAs, credentials: new GatewayCredentials(gateway) };
  }

  /** `UnknownAtsTypeError` for an unregistered name, `MissingAtsPartError` for an adapter without a kind. */
  of(type: string): ConnectorKind {
    const known = this.kinds.get(type);
    if (known) return known;
    const make = this.registry.get(type).connectorKind;
    if (!make) throw new MissingAtsPartError(type, PART);
    const kind = make(this.context);
    if (kind.atsType !== type) throw new Error(`the ${PART} of ${type} names ${kind.atsType}`);
    this.kinds.set(type, kind);
    return kind;
  }

  /** Every registered ATS that has a kind, in registration order (the admin form's choices). */
  all(): ConnectorKind[] {
    return this.registry
      .all()
      .filter((adapter) => adapter.connectorKind)
      .map((adapter) => this.of(adapter.type));
  }

  /** Registered ATSs without a connector kind (a test keeps it empty). */
  missing(): string[] {
    return this.registry
      .all()
      .filter((adapter) => !adapter.connectorKind)
      .map((adapter) => adapter.type);
  }
}
