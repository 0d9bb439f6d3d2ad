import {
  type ConfigChange,
  type ConnectionTestResult,
  type ConnectorKind,
  type ConnectorKindContext,
  type ConnectorSetup,
  definedOnly,
  type InitialState,
  type SavedConnector,
} from '@connector/ats-core';
import { AtsBConfigInputDto, AtsBConfigPatchDto, AtsBOptionsDto } from './ats-b-connector.dto';

/** What the admin set-up form asks for ATS-B: nothing secret; the customer logs in after saving. */
const ATS_B_SETUP: ConnectorSetup = {
  flow: 'interactive-login',
  summary: 'Connects through the ATS-B login (OAuth): you sign in to ATS-B once.',
  intro: 'Choose how to connect, save, then authorize access by logging in to ATS-B.',
  fields: [
    {
      name: 'routine',
      in: 'config',
      label: 'Routine',
      kind: 'choice',
      required: true,
      default: 'api-oauth',
      choices: [
        {
          value: 'api-oauth',
          label: 'API (OAuth)',
          help: 'You log in to ATS-B once; the connector then uses its REST API.',
        },
      ],
    },
    {
      name: 'sendSmartCv',
      in: 'config',
      label: 'Send Smart CV',
      kind: 'boolean',
      required: true,
      default: false,
      help: "Also upload each candidate's Smart CV to ATS-B, next to their CV.",
    },
  ],
};

/** ATS-B: no credentials are typed; the customer logs in through the ATS (OAuth) after saving. */
class AtsBConnectorKind implements ConnectorKind {
  readonly atsType = 'ats-b';
  readonly optionsClass = AtsBOptionsDto;
  readonly authorizedByLogin = true;
  readonly setup = ATS_B_SETUP;

  constructor(private readonly context: ConnectorKindContext) {}

  defaultOptions(): Record<string, unknown> {
    return { sendSmartCv: false, syncIntervalMinutes: 15, fullSyncEveryHours: 24, eventPollSeconds: 60 };
  }

  async test(): Promise<ConnectionTestResult> {
    return {
      ok: false,
      error: {
        code: 'AUTHORIZATION_REQUIRED',
        message: 'ATS-B is tested by logging in: save the connector, then Authorize',
      },
    };
  }

  async prepare(_accountId: string, _connectorId: string, config: unknown): Promise<InitialState> {
    const input = this.context.validate(AtsBConfigInputDto, config, 'config');
    return {
      status: 'pending_authorization',
      config: { routine: input.routine },
      options: { ...this.defaultOptions(), sendSmartCv: input.sendSmartCv },
      credentialsStored: false,
    };
  }

  async changeConfig(connector: SavedConnector, patch: unknown): Promise<ConfigChange> {
    const input = this.context.validate(AtsBConfigPatchDto, patch, 'config');
    return { config: { ...connector.config, ...definedOnly(input) }, connected: false };
  }
}

export const atsBConnectorKind = (context: ConnectorKindContext): ConnectorKind =>
  new AtsBConnectorKind(context);
