import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  type AuthorizationCompleteReply,
  type AuthorizationStartReply,
  AuthErrorCode,
  type ConnectionTestReply,
  createEvent,
  type CredentialsSaveReply,
  RoutingKey,
  type SealedConfig,
} from '@connector/contracts';
import { AtsRegistry } from '@connector/ats-core';
import { RpcClient, RpcError } from '@connector/messaging';
import { RequestSeal, type RequestSealScope } from '@connector/service-kit';
import { ConnectorRegistryConfig } from '../connector-registry.config';

/** Time an attempt needs at least to be worth making after a BUSY wait. */
const MIN_ATTEMPT_MS = 1_000;

/**
 * Requests to auth-gateway, which owns every ATS secret. Failures surface as `RpcError` (its `code` is an
 * `AuthErrorCode`, or TIMEOUT / NO_RESPONDER when nobody answered); see `dependencyError`. A client secret
 * goes out sealed for its request (`REQUEST_SEAL_KEYS`): the broker never holds it in clear.
 */
@Injectable()
export class AuthGatewayClient {
  private readonly timeoutMs: number;
  private readonly seal: RequestSeal;

  constructor(
    private readonly rpc: RpcClient,
    @Inject(ConnectorRegistryConfig)
    config: Pick<ConnectorRegistryConfig, 'AUTH_GATEWAY_TIMEOUT_MS' | 'REQUEST_SEAL_KEYS'>,
    private readonly registry: AtsRegistry,
  ) {
    this.timeoutMs = config.AUTH_GATEWAY_TIMEOUT_MS;
    this.seal = RequestSeal.fromEnv(config.REQUEST_SEAL_KEYS);
  }

  /**
   * `atsType`: a `client-credentials` ATS, whose config this is. `openStatuses`: names the ATS must offer
   * (without them, one of the defaults must be).
   */
  testConnection(
    atsType: string,
    accountId: string,
    config: Record<string, unknown>,
    openStatuses?: string[],
  ): Promise<ConnectionTestReply> {
    const type = RoutingKey.AuthConnectionTest;
    return this.request(type, accountId, (requestId) => ({
      type: atsType,
      config: this.sealed(atsType, config, { type, accountId, requestId }),
      ...(openStatuses ? { openStatuses } : {}),
    }));
  }

  saveCredentials(
    atsType: string,
    accountId: string,
    connectorId: string,
    config: Record<string, unknown>,
    openStatuses?: string[],
  ): Promise<CredentialsSaveReply> {
    const type = RoutingKey.AuthCredentialsSave;
    return this.request(type, accountId, (requestId) => ({
      connectorId,
      type: atsType,
      config: this.sealed(atsType, config, { type, accountId, requestId, connectorId }),
      ...(openStatuses ? { openStatuses } : {}),
    }));
  }

  eraseCredentials(accountId: string, connectorId: string): Promise<unknown> {
    return this.request(RoutingKey.AuthCredentialsErase, accountId, () => ({ connectorId }));
  }

  startAuthorization(
    accountId: string,
    data: { type: string; connectorId: string; adminId: string; browserNonce: string },
  ): Promise<AuthorizationStartReply> {
    return this.request(RoutingKey.AuthAuthorizationStart, accountId, () => data);
  }

  /** The account is not known before the gateway answers; `state` binds the request to it. */
  completeAuthorization(data: {
    type?: string;
    code: string;
    state: string;
    browserNonce: string;
  }): Promise<AuthorizationCompleteReply> {
    return this.request(RoutingKey.AuthAuthorizationComplete, 'unknown', () => data);
  }

  /** `config` with each secret field of its ATS (the adapter's `clientCredentials.secretFields`) sealed. */
  private sealed(atsType: string, config: Record<string, unknown>, scope: RequestSealScope): SealedConfig {
    const setup = this.registry.get(atsType).clientCredentials;
    // Nothing goes out for an ATS whose secrets the registry does not know how to seal.
    if (!setup)
      throw new Error(`${atsType} has no client-credentials set-up (its adapter's clientCredentials)`);
    const sealed: SealedConfig = { ...config };
    for (const field of setup.secretFields)
      sealed[field] = this.seal.seal(String(config[field] ?? ''), scope);
    return sealed;
  }

  /**
   * A BUSY answer (auth-gateway's slots for this kind of request, or this account's, are full) was refused
   * before anything was done: asked again after the wait it names, while the admin's request has time left.
   * `data` is built for each attempt's request id (a sealed secret is bound to it).
   */
  private async request<T>(type: string, accountId: string, data: (requestId: string) => object): Promise<T> {
    const deadline = Date.now() + this.timeoutMs;
    for (;;) {
      try {
        const id = randomUUID();
        return await this.rpc.request<T>(
          createEvent(type, accountId, data(id), { id }),
          Math.max(1, deadline - Date.now()),
        );
      } catch (error) {
        const waitMs =
          error instanceof RpcError && error.code === AuthErrorCode.Busy
            ? (error.retryAfterMs ?? 500)
            : undefined;
        if (waitMs === undefined || Date.now() + waitMs >= deadline - MIN_ATTEMPT_MS) throw error;
        await new Promise((resolve) => setTimeout(resolve, waitMs));
      }
    }
  }
}
