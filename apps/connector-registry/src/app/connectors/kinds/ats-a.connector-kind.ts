import { atsAAdapter } from '@connector/ats-a';
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
  readonly atsType = atsAAdapter.type;
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

  async test(
    accountId: string,
    config: unknown,
    options?: Record<string, unknown>,
  ): Promise<ConnectionTestResult> {
    const input = validateAs(AtsAConfigInputDto, config, 'config');
    try {
      const reply = await this.gateway.testConnection(accountId, input, openStatusesOf(options));
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

  async prepare(
    accountId: string,
    connectorId: string,
    config: unknown,
    options?: Record<string, unknown>,
  ): Promise<InitialState> {
    const input = validateAs(AtsAConfigInputDto, config, 'config');
    const saved = await this.save(accountId, connectorId, input, openStatusesOf(options));
    // The open statuses kept are the ones checked against the ATS: the configured ones, or the defaults it offers.
    return {
      status: 'connected',
      config: { baseUrl: saved.baseUrl, clientId: input.clientId },
      options: { ...this.defaultOptions(), openStatuses: saved.openStatuses },
      credentialsStored: true,
    };
  }

  async changeConfig(connector: ConnectorEntity, patch: unknown): Promise<ConfigChange> {
    const input = validateAs(AtsAConfigPatchDto, patch, 'config');
    const clientId = input.clientId ?? String(connector.config.clientId ?? '');
    const saved = await this.save(
      connector.accountId,
      connector.id,
      {
        baseUrl: input.baseUrl ?? String(connector.config.baseUrl ?? ''),
        clientId,
        clientSecret: input.clientSecret,
      },
      openStatusesOf(connector.options),
    );
    return { config: { baseUrl: saved.baseUrl, clientId }, connected: true };
  }

  /** Only what is not secret is kept: the address as the gateway will use it (and the client id). */
  private async save(
    accountId: string,
    connectorId: string,
    input: AtsAConfigInputDto,
    openStatuses: string[] | undefined,
  ) {
    try {
      return await this.gateway.saveCredentials(accountId, connectorId, input, openStatuses);
    } catch (error) {
      throw dependencyError(error, SERVICE);
    }
  }
}

function openStatusesOf(options: Record<string, unknown> | undefined): string[] | undefined {
  const value = options?.['openStatuses'];
  return Array.isArray(value) && value.every((s) => typeof s === 'string') && value.length > 0
    ? (value as string[])
    : undefined;
}
