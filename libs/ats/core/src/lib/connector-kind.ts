import type { ConnectorStatus, CredentialsSaveReply } from '@connector/contracts';
import { IsDefined, ValidateIf } from 'class-validator';
import type { AtsPart } from './ats-part';

/**
 * The connector kind: what an ATS's connectors are in the admin API (connector-registry) — the config and
 * options it takes, its defaults, its set-up flow and what the admin form asks. It lives in the adapter's folder;
 * what it needs of the registry (validation, auth-gateway) comes in through `ConnectorKindContext`.
 */

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

/** What a kind reads of a saved connector. */
export interface SavedConnector {
  readonly id: string;
  readonly accountId: string;
  readonly config: Record<string, unknown>;
  readonly options: Record<string, unknown>;
}

/**
 * auth-gateway as a kind with client credentials uses it (`type`: the kind's ATS, whose adapter's
 * `clientCredentials` names the config's secret fields, sealed on the way): the caller turns a failed request
 * into its own error (and an ATS's refusal of the test into `ok: false`).
 */
export interface ClientCredentialsStore {
  test(
    type: string,
    accountId: string,
    config: Record<string, unknown>,
    openStatuses?: string[],
  ): Promise<ConnectionTestResult>;
  save(
    type: string,
    accountId: string,
    connectorId: string,
    config: Record<string, unknown>,
    openStatuses?: string[],
  ): Promise<CredentialsSaveReply>;
}

/** What the registry hands a kind. */
export interface ConnectorKindContext {
  /**
   * `plain` as an instance of `type`, checked with the admin API's rules; throws the API's validation error
   * (400, each problem under `path`, e.g. `config.baseUrl`).
   */
  validate<T extends object>(type: new () => T, plain: unknown, path: string): T;
  readonly credentials: ClientCredentialsStore;
}

/** How a connector of the ATS gets its access: credentials typed in, or a login in the ATS's window. */
export const SETUP_FLOWS = ['client-credentials', 'interactive-login'] as const;
export type SetupFlow = (typeof SETUP_FLOWS)[number];

export const SETUP_FIELD_KINDS = ['text', 'secret', 'url', 'number', 'list', 'boolean', 'choice'] as const;
export type SetupFieldKind = (typeof SETUP_FIELD_KINDS)[number];

/** One thing the admin set-up form asks. */
export interface SetupField {
  /** Its name in the create request (`baseUrl`), under `config` or `options`. */
  readonly name: string;
  readonly in: 'config' | 'options';
  readonly label: string;
  readonly kind: SetupFieldKind;
  readonly required: boolean;
  readonly help?: string;
  readonly placeholder?: string;
  readonly default?: string | number | boolean | readonly string[];
  /** A `choice`'s values. */
  readonly choices?: readonly { readonly value: string; readonly label: string; readonly help?: string }[];
  /** A `url` that must not end with it: the form says so while it is typed (e.g. `/api`). */
  readonly forbiddenSuffix?: string;
}

/** What the admin set-up form shows for the ATS (served by the admin API's `GET /connector-types`). */
export interface ConnectorSetup {
  readonly flow: SetupFlow;
  /** One line under the ATS's name where the admin chooses the ATS. */
  readonly summary: string;
  /** The form's first paragraph. */
  readonly intro: string;
  readonly fields: readonly SetupField[];
}

/**
 * What differs between ATSs in the registry. Adding a third ATS means adding one of these to its adapter, not
 * editing `if (type === …)` branches in the registry.
 */
export interface ConnectorKind extends AtsPart {
  readonly optionsClass: new () => object;
  /** Whether it connects through an interactive login (`POST /connectors/{id}/authorize`). */
  readonly authorizedByLogin: boolean;
  readonly setup: ConnectorSetup;
  defaultOptions(): Record<string, unknown>;
  /**
   * The set-up flow's connection test; throws when it cannot be run at all. `options` (validated) are the ones
   * the connector will have, for checks that depend on them (ATS-A open statuses).
   */
  test(accountId: string, config: unknown, options?: Record<string, unknown>): Promise<ConnectionTestResult>;
  /** Validates the create request's `config` and decides the new connector's first state. */
  prepare(
    accountId: string,
    connectorId: string,
    config: unknown,
    options?: Record<string, unknown>,
  ): Promise<InitialState>;
  /** Validates a PATCH of `config` and applies it (may store credentials again). */
  changeConfig(connector: SavedConnector, patch: unknown): Promise<ConfigChange>;
}

/** How an adapter makes its connector kind, given what the registry hands it. */
export type ConnectorKindFactory = (context: ConnectorKindContext) => ConnectorKind;

/**
 * An optional field that, when given, must have a value: left out it keeps the current one, `null` is refused
 * (400 naming the field) rather than stored. `@IsOptional()` would let `null` through.
 */
export function OptionalNotNull(): PropertyDecorator {
  const given = ValidateIf((_object: object, value: unknown) => value !== undefined);
  const defined = IsDefined({ message: '$property must not be null' });
  return (target, key) => {
    given(target, key);
    defined(target, key);
  };
}

/** A DTO's fields that were given (class fields the body left out exist as `undefined`). */
export function definedOnly(dto: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(dto).filter(([, value]) => value !== undefined));
}
