import { Injectable, Optional } from '@nestjs/common';
import {
  type AtsAccess,
  AuthErrorCode,
  createEvent,
  credentialFingerprint,
  RoutingKey,
} from '@connector/contracts';
import { AtsRegistry } from '@connector/ats-core';
import { RpcClient, RpcError } from '@connector/messaging';
import { ConnectorDirectory } from './connector-directory';

/** Give access back this long before the gateway said it ends. */
const MARGIN_MS = 30_000;

/** How long a worker waits for auth-gateway's answer. */
const REQUEST_TIMEOUT_MS = 20_000;

/** After no answer, this connector's requests in this process are refused with it for about this long. */
const UNANSWERED_HOLD_MS = 2_000;

/**
 * What a worker needs to call the ATS, from auth-gateway, kept until shortly before it expires. When the
 * ATS refuses it, `access(…, rejected)` tells the gateway which one failed, so the gateway renews it once
 * however many workers report it. When the connector changes (`connector.changed`, heard by the
 * ConnectorDirectory: another tenant, a rotated key), what was kept of it is dropped and asked for again.
 * A BUSY answer (or none) is kept for its jittered `retryAfterMs`: this connector's other messages in this
 * process get the same answer (a deferral, toMessageError) without asking again, so a storm cannot grow.
 */
@Injectable()
export class AtsAccessProvider {
  private readonly cache = new Map<string, Promise<AtsAccess>>();
  /** A BUSY answer (or none) that stands for the connector's requests until `until`. */
  private readonly held = new Map<string, { error: unknown; until: number }>();

  constructor(
    private readonly rpc: RpcClient,
    /** Each ATS names the token of its access (`callTokenOf`). */
    private readonly registry: AtsRegistry,
    @Optional() directory?: ConnectorDirectory,
  ) {
    directory?.onChange((connectorId) => {
      if (connectorId === undefined) this.cache.clear();
      else this.cache.delete(connectorId);
      if (connectorId === undefined) this.held.clear();
      else this.held.delete(connectorId);
    });
  }

  async access(connectorId: string, accountId: string, rejected?: string): Promise<AtsAccess> {
    const held = this.held.get(connectorId);
    if (held && held.until > Date.now()) throw held.error;
    this.held.delete(connectorId);
    const cached = this.cache.get(connectorId);
    if (cached && !rejected) {
      const access = await cached.catch(() => undefined);
      if (access && Date.parse(access.expiresAt) - Date.now() > MARGIN_MS) return access;
    }
    if (cached && rejected) {
      const access = await cached.catch(() => undefined);
      // Someone in this process already replaced the refused access: use the new one.
      if (access && fingerprintOf(this.registry, access) !== rejected) return access;
    }
    const request = this.rpc.request<AtsAccess>(
      createEvent(RoutingKey.CredentialsRequested, accountId, {
        connectorId,
        ...(rejected ? { rejected } : {}),
      }),
      REQUEST_TIMEOUT_MS,
    );
    this.cache.set(connectorId, request);
    request.catch((error: unknown) => {
      // Only this request: a newer one may have replaced it meanwhile.
      if (this.cache.get(connectorId) === request) this.cache.delete(connectorId);
      const holdMs = holdAfter(error);
      if (holdMs > 0) this.held.set(connectorId, { error, until: Date.now() + holdMs });
    });
    return request;
  }
}

/** How long a failed answer stands for the connector's next requests: BUSY for its wait, none for a moment. */
function holdAfter(error: unknown): number {
  if (!(error instanceof RpcError)) return 0;
  if (error.code === AuthErrorCode.Busy) {
    const named = (error as RpcError & { retryAfterMs?: unknown }).retryAfterMs;
    return typeof named === 'number' && named > 0 ? Math.min(named, 30_000) : 1_000;
  }
  return error.code === 'TIMEOUT' ? Math.round(UNANSWERED_HOLD_MS * (0.5 + Math.random())) : 0;
}

export function fingerprintOf(registry: AtsRegistry, access: AtsAccess): string {
  return credentialFingerprint(registry.get(access.type).callTokenOf(access));
}
