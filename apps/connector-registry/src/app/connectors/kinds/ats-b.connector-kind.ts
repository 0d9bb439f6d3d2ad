import { atsBAdapter } from '@connector/ats-b';
import { AtsBConfigInputDto, AtsBConfigPatchDto } from '../dto/connector-config.dto';
import { AtsBOptionsDto } from '../dto/connector-options.dto';
import { definedOnly, validateAs } from '../../common/validation';
import type { ConnectorEntity } from '../connector.entity';
import type { ConfigChange, ConnectionTestResult, ConnectorKind, InitialState } from './connector-kind';

/** ATS-B: no credentials are typed; the customer logs in through the ATS (OAuth) after saving. */
export class AtsBConnectorKind implements ConnectorKind {
  readonly atsType = atsBAdapter.type;
  readonly optionsClass = AtsBOptionsDto;
  readonly authorizedByLogin = true;

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
    const input = validateAs(AtsBConfigInputDto, config, 'config');
    return {
      status: 'pending_authorization',
      config: { routine: input.routine },
      options: { ...this.defaultOptions(), sendSmartCv: input.sendSmartCv },
      credentialsStored: false,
    };
  }

  async changeConfig(connector: ConnectorEntity, patch: unknown): Promise<ConfigChange> {
    const input = validateAs(AtsBConfigPatchDto, patch, 'config');
    return { config: { ...connector.config, ...definedOnly(input) }, connected: false };
  }
}
