import type { ClassConstructor } from 'class-transformer';
import type { AtsPart } from '@connector/ats-core';
import type { ConnectorStatus } from '@connector/contracts';
import type { ConnectorEntity } from '../connector.entity';

export type ConnectionTestResult = { ok: true } | { ok: false; error: { code: string; message: string } };

export interface InitialState {
  status: ConnectorStatus;
  config: Record<string, unknown>;
  options: Record<string, unknown>;
  /** auth-gateway now holds secrets for this connector id (erase them if the insert fails). */
  credentialsStored: boolean;
}

export interface ConfigChange {
  config: Record<string, unknown>;
  /** The credentials were proven to work again. */
  connected: boolean;
}

/**
 * What differs between ATSs in the registry. Adding a third ATS means adding one of these, not editing
 * `if (type === …)` branches in the services.
 */
export interface ConnectorKind extends AtsPart {
  readonly optionsClass: ClassConstructor<object>;
  /** Whether it connects through an interactive login (`POST /connectors/{id}/authorize`). */
  readonly authorizedByLogin: boolean;
  defaultOptions(): Record<string, unknown>;
  /**
   * The set-up flow's connection test; throws a RegistryException when it cannot be run at all. `options`
   * (validated) are the ones the connector will have, for checks that depend on them (ATS-A open statuses).
   */
  test(accountId: string, config: unknown, options?: Record<string, unknown>): Promise<ConnectionTestResult>;
  /** Validates the create request's `config` and decides the new connector's first state. */
  prepare(
    accountId: string,
    connectorId: string,
    config: unknown,
    options?: Record<string, unknown>,
  ): Promise<InitialState>;
  /** Validates a PATCH of `config` and applies it (may re-save credentials through the gateway). */
  changeConfig(connector: ConnectorEntity, patch: unknown): Promise<ConfigChange>;
}
