import { AtsAConfigInputDto, AtsAConfigPatchDto } from '../dto/connector-config.dto';
import { AtsAOptionsDto } from '../dto/connector-options.dto';
import type { AuthGatewayClient } from '../../clients/auth-gateway.client';
import { atsProblemCode, dependencyError } from '../../clients/dependency-errors';
import { validateAs } from '../../common/validation';
import { RpcError } from '@connector/messaging';
import type { ConnectorEntity } from '../connector.entity';
import type { ConfigChange, ConnectionTestResult, ConnectorKind, InitialState } from './connector-kind';

const SERVICE = 'auth-gateway';

/** ATS-A: client credentials, tested and stored (encrypted) by auth-gateway before the connector exists. */
export class AtsAConnectorKind implements ConnectorKind {
  readonly type = 'ats-a';
  readonly optionsClass = AtsAOptionsDto;
  readonly authorizedByLogin = false;

  constructor(private readonly gateway: AuthGatewayClient) {}

  defaultOptions(): Record<string, unknown> {
    return {
      openStatuses: ['Open', 'Live'],
      dailyCallLimit: 10_000,
      syncIntervalMinutes: 15,
      fullSyncEveryHours: 24,
    };
  }

  async test(accountId: string, config: unknown): Promise<ConnectionTestResult> {
    const input = validateAs(AtsAConfigInputDto, config, 'config');
    try {
      const reply = await this.gateway.testConnection(accountId, input);
      return reply.ok
        ? { ok: true }
        : { ok: false, error: { code: reply.error.code, message: reply.error.message } };
    } catch (error) {
      // The gateway may report the ATS's refusal as an error reply rather than `ok: false`.
      if (error instanceof RpcError && atsProblemCode(error.code)) {
        return { ok: false, error: { code: error.code, message: error.message } };
      }
      throw dependencyError(error, SERVICE);
    }
  }

  async prepare(accountId: string, connectorId: string, config: unknown): Promise<InitialState> {
    const input = validateAs(AtsAConfigInputDto, config, 'config');
    const saved = await this.save(accountId, connectorId, input);
    return { status: 'connected', config: saved, options: this.defaultOptions(), credentialsStored: true };
  }

  async changeConfig(connector: ConnectorEntity, patch: unknown): Promise<ConfigChange> {
    const input = validateAs(AtsAConfigPatchDto, patch, 'config');
    const config = await this.save(connector.accountId, connector.id, {
      baseUrl: input.baseUrl ?? String(connector.config.baseUrl ?? ''),
      clientId: input.clientId ?? String(connector.config.clientId ?? ''),
      clientSecret: input.clientSecret,
    });
    return { config, connected: true };
  }

  /** Only what is not secret is kept: the address as the gateway will use it, and the client id. */
  private async save(accountId: string, connectorId: string, input: AtsAConfigInputDto) {
    try {
      const reply = await this.gateway.saveCredentials(accountId, connectorId, input);
      return { baseUrl: reply.baseUrl, clientId: input.clientId };
    } catch (error) {
      throw dependencyError(error, SERVICE);
    }
  }
}
