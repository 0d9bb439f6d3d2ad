import { Injectable } from '@nestjs/common';
import { type ConnectorSnapshot, createEvent, RoutingKey } from '@connector/contracts';
import { RpcClient } from '@connector/messaging';

/** How long a worker trusts what the registry said about a connector. */
const TTL_MS = 5_000;

/**
 * What workers know of connectors, asked from connector-registry over RabbitMQ and kept for a few
 * seconds, so a burst of events for one account costs one request.
 */
@Injectable()
export class ConnectorDirectory {
  private readonly cache = new Map<string, { at: number; value: Promise<unknown> }>();

  constructor(private readonly rpc: RpcClient) {}

  /** A connector, or an RpcError with code NOT_FOUND when it does not exist (any more). */
  get(connectorId: string, accountId: string): Promise<ConnectorSnapshot> {
    return this.cached(`connector:${connectorId}`, () =>
      this.rpc.request<ConnectorSnapshot>(
        createEvent(RoutingKey.ConnectorLookup, accountId, { connectorId }),
      ),
    );
  }

  /** The account's connectors (all statuses; callers pick the ones they work with). */
  forAccount(accountId: string): Promise<ConnectorSnapshot[]> {
    return this.cached(`account:${accountId}`, () =>
      this.rpc.request<ConnectorSnapshot[]>(
        createEvent(RoutingKey.ConnectorsByAccount, accountId, { accountId }),
      ),
    );
  }

  private cached<T>(key: string, load: () => Promise<T>): Promise<T> {
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.value as Promise<T>;
    const value = load();
    this.cache.set(key, { at: Date.now(), value });
    value.catch(() => this.cache.delete(key));
    return value;
  }
}
