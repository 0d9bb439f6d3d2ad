import type {
  ConfigChange,
  ConnectionTestResult,
  ConnectorKind,
  ConnectorKindContext,
  ConnectorSetup,
  InitialState,
  SavedConnector,
} from '@connector/ats-core';
import { AtsAConfigInputDto, AtsAConfigPatchDto, AtsAOptionsDto } from './ats-a-connector.dto';

/** What the admin set-up form asks for ATS-A: the API key's three parts, tested before saving. */
const ATS_A_SETUP: ConnectorSetup = {
  flow: 'client-credentials',
  summary: 'Connects with an API key: base address, client ID and client secret.',
  intro: 'Enter the API details from your ATS-A account, test the connection, then save.',
  fields: [
    {
      name: 'baseUrl',
      in: 'config',
      label: 'Base API URL',
      kind: 'url',
      required: true,
      help: 'Your system\u2019s address without \u201c/api\u201d, for example https://acme.ats-a.example',
      placeholder: 'https://acme.ats-a.example',
      forbiddenSuffix: '/api',
    },
    {
      name: 'clientId',
      in: 'config',
      label: 'Client ID',
      kind: 'text',
      required: true,
      help: 'In ATS-A: Settings \u2192 API keys.',
    },
    {
      name: 'clientSecret',
      in: 'config',
      label: 'Client secret',
      kind: 'secret',
      required: true,
      help: 'Shown once when the API key is created in ATS-A. It is stored encrypted and never shown again.',
    },
  ],
};

/** ATS-A: client credentials, tested and stored (encrypted) by auth-gateway before the connector exists. */
class AtsAConnectorKind implements ConnectorKind {
  readonly atsType = 'ats-a';
  readonly optionsClass = AtsAOptionsDto;
  readonly authorizedByLogin = false;
  readonly setup = ATS_A_SETUP;

  constructor(private readonly context: ConnectorKindContext) {}

  defaultOptions(): Record<string, unknown> {
    return {
      openStatuses: ['Open', 'Live'],
      dailyCallLimit: 10_000,
      syncIntervalMinutes: 15,
      fullSyncEveryHours: 24,
    };
  }

  test(accountId: string, config: unknown, options?: Record<string, unknown>): Promise<ConnectionTestResult> {
    const input = this.context.validate(AtsAConfigInputDto, config, 'config');
    return this.context.credentials.test(this.atsType, accountId, { ...input }, openStatusesOf(options));
  }

  async prepare(
    accountId: string,
    connectorId: string,
    config: unknown,
    options?: Record<string, unknown>,
  ): Promise<InitialState> {
    const input = this.context.validate(AtsAConfigInputDto, config, 'config');
    const saved = await this.context.credentials.save(
      this.atsType,
      accountId,
      connectorId,
      { ...input },
      openStatusesOf(options),
    );
    // The open statuses kept are the ones checked against the ATS: the configured ones, or the defaults it offers.
    return {
      status: 'connected',
      config: { baseUrl: saved.baseUrl, clientId: input.clientId },
      options: { ...this.defaultOptions(), openStatuses: saved.openStatuses },
      credentialsStored: true,
    };
  }

  async changeConfig(connector: SavedConnector, patch: unknown): Promise<ConfigChange> {
    const input = this.context.validate(AtsAConfigPatchDto, patch, 'config');
    const clientId = input.clientId ?? String(connector.config['clientId'] ?? '');
    // Only what is not secret is kept: the address as the gateway will use it (and the client id).
    const saved = await this.context.credentials.save(
      this.atsType,
      connector.accountId,
      connector.id,
      {
        baseUrl: input.baseUrl ?? String(connector.config['baseUrl'] ?? ''),
        clientId,
        clientSecret: input.clientSecret,
      },
      openStatusesOf(connector.options),
    );
    return { config: { baseUrl: saved.baseUrl, clientId }, connected: true };
  }
}

function openStatusesOf(options: Record<string, unknown> | undefined): string[] | undefined {
  const value = options?.['openStatuses'];
  return Array.isArray(value) && value.every((s) => typeof s === 'string') && value.length > 0
    ? (value as string[])
    : undefined;
}

export const atsAConnectorKind = (context: ConnectorKindContext): ConnectorKind =>
  new AtsAConnectorKind(context);
