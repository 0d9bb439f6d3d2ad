import { Injectable, Optional } from '@nestjs/common';
import { type AtsAccess, createEvent, credentialFingerprint, RoutingKey } from '@connector/contracts';
import { atsRegistry } from '@connector/ats-registry';
import { RpcClient } from '@connector/messaging';
import { ConnectorDirectory } from './connector-directory';

/** Give access back this long before the gateway said it ends. */
const MARGIN_MS = 30_000;

/**
 * What a worker needs to call the ATS, from auth-gateway, kept until shortly before it expires. When the
 * ATS refuses it, `access(…, rejected)` tells the gateway which one failed, so the gateway renews it once
 * however many workers report it. When the connector changes (`connector.changed`, heard by the
 * ConnectorDirectory: another tenant, a rotated key), what was kept of it is dropped and asked for again.
 */
@Injectable()
export class AtsAccessProvider {
  private readonly cache = new Map<string, Promise<AtsAccess>>();

  constructor(
    private readonly rpc: RpcClient,
    @Optional() directory?: ConnectorDirectory,
  ) {
    directory?.onChange((connectorId) => {
      if (connectorId === undefined) this.cache.clear();
      else this.cache.delete(connectorId);
    });
  }

  async access(connectorId: string, accountId: string, rejected?: string): Promise<AtsAccess> {
    const cached = this.cache.get(connectorId);
    if (cached && !rejected) {
      const access = await cached.catch(() => undefined);
      if (access && Date.parse(access.expiresAt) - Date.now() > MARGIN_MS) return access;
    }
    if (cached && rejected) {
      const access = await cached.catch(() => undefined);
      // Someone in this process already replaced the refused access: use the new one.
      if (access && fingerprintOf(access) !== rejected) return access;
    }
    const request = this.rpc.request<AtsAccess>(
      createEvent(RoutingKey.CredentialsRequested, accountId, {
        connectorId,
        ...(rejected ? { rejected } : {}),
      }),
      20_000,
    );
    this.cache.set(connectorId, request);
    // Only this request: a newer one may have replaced it meanwhile.
    request.catch(() => this.cache.get(connectorId) === request && this.cache.delete(connectorId));
    return request;
  }
}

export function fingerprintOf(access: AtsAccess): string {
  return credentialFingerprint(atsRegistry.get(access.type).callTokenOf(access));
}
