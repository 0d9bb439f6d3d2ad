import type { ClientCredentialsStore, ConnectionTestResult } from '@connector/ats-core';
import type { CredentialsSaveReply } from '@connector/contracts';
import { RpcError } from '@connector/messaging';
import type { AuthGatewayClient } from '../../clients/auth-gateway.client';
import { atsProblemCode, dependencyError } from '../../clients/dependency-errors';

const SERVICE = 'auth-gateway';

/** auth-gateway as the connector kinds use it: its failures as the admin API's errors. */
export class GatewayCredentials implements ClientCredentialsStore {
  constructor(private readonly gateway: AuthGatewayClient) {}

  async test(
    type: string,
    accountId: string,
    config: Record<string, unknown>,
    openStatuses?: string[],
  ): Promise<ConnectionTestResult> {
    try {
      const reply = await this.gateway.testConnection(type, accountId, config, openStatuses);
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

  async save(
    type: string,
    accountId: string,
    connectorId: string,
    config: Record<string, unknown>,
    openStatuses?: string[],
  ): Promise<CredentialsSaveReply> {
    try {
      return await this.gateway.saveCredentials(type, accountId, connectorId, config, openStatuses);
    } catch (error) {
      throw dependencyError(error, SERVICE);
    }
  }
}
