import { Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import {
  type ConnectorChangedDto,
  type ConnectorSnapshot,
  createEvent,
  type EventEnvelope,
  Exchange,
  RoutingKey,
} from '@connector/contracts';
import { BroadcastListener, RabbitConnection, RpcClient, TransientMessageError } from '@connector/messaging';

/** How long a worker trusts what the registry said about a connector when it hears of no change. */
const TTL_MS = 5_000;

export interface LookupOptions {
  /**
   * Ask the registry even if a snapshot is cached: for a decision that cannot be taken back (a document
   * skipped for good), made only on the connector as it is now.
   */
  fresh?: boolean;
}

/**
 * What workers know of connectors, asked from connector-registry over RabbitMQ and kept for a few seconds,
 * so a burst of events for one account costs one request. The registry broadcasts `connector.changed` when
 * a connector changes; every process drops what it kept of it, and a snapshot older than the newest
 * version heard of is never used.
 */
@Injectable()
export class ConnectorDirectory implements OnModuleInit, OnApplicationShutdown {
  private readonly cache = new Map<string, { at: number; value: Promise<unknown> }>();
  /** The newest version each connector is known to have (from broadcasts). */
  private readonly versions = new Map<string, number>();
  private listener?: BroadcastListener;
  /** Told of every change: a connector's id, or undefined when changes may have been missed (all changed). */
  private readonly changeListeners: ((connectorId: string | undefined) => void)[] = [];

  constructor(
    private readonly rpc: RpcClient,
    private readonly connection: RabbitConnection,
  ) {}

  async onModuleInit(): Promise<void> {
    this.listener = new BroadcastListener(this.connection, {
      exchange: Exchange.Internal,
      routingKey: RoutingKey.ConnectorChanged,
      onMessage: (message) => this.changed(message as EventEnvelope<string, ConnectorChangedDto>),
      // Changes published while the subscription was down were missed: forget everything.
      onSubscribed: () => {
        this.cache.clear();
        this.notify(undefined);
      },
    });
    await this.listener.ready();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.listener?.close().catch(() => undefined);
  }

  /**
   * Calls `listener` whenever a connector changes (with its id), or with undefined when changes may have
   * been missed: for what else a process keeps per connector (its access to the ATS).
   */
  onChange(listener: (connectorId: string | undefined) => void): void {
    this.changeListeners.push(listener);
  }

  /** A connector, or an RpcError with code NOT_FOUND when it does not exist (any more). */
  async get(connectorId: string, accountId: string, options: LookupOptions = {}): Promise<ConnectorSnapshot> {
    const key = `connector:${connectorId}`;
    const load = () =>
      this.rpc.request<ConnectorSnapshot>(
        createEvent(RoutingKey.ConnectorLookup, accountId, { connectorId }),
      );
    if (options.fresh) this.cache.delete(key);
    const snapshot = await this.cached(key, load);
    if (this.isCurrent(snapshot)) return snapshot;
    // The lookup raced a change it did not see yet: ask again.
    this.cache.delete(key);
    return this.cached(key, load);
  }

  /**
   * The account's connectors (all statuses; callers pick the ones they work with). A failed lookup is a
   * TransientMessageError: the message waits for the registry rather than failing.
   */
  async forAccount(accountId: string, options: LookupOptions = {}): Promise<ConnectorSnapshot[]> {
    try {
      return await this.lookUpAccount(accountId, options);
    } catch (error) {
      throw new TransientMessageError(`connectors of ${accountId}: ${(error as Error).message}`);
    }
  }

  private async lookUpAccount(accountId: string, options: LookupOptions): Promise<ConnectorSnapshot[]> {
    const key = `account:${accountId}`;
    const load = () =>
      this.rpc.request<ConnectorSnapshot[]>(
        createEvent(RoutingKey.ConnectorsByAccount, accountId, { accountId }),
      );
    if (options.fresh) this.cache.delete(key);
    const snapshots = await this.cached(key, load);
    if (snapshots.every((s) => this.isCurrent(s))) return snapshots;
    this.cache.delete(key);
    return this.cached(key, load);
  }

  /** `connector.changed`: what was kept of the connector and of its account is stale. */
  changed(event: EventEnvelope<string, ConnectorChangedDto>): void {
    const { connectorId, version } = event.data;
    this.versions.set(connectorId, Math.max(version, this.versions.get(connectorId) ?? 0));
    this.cache.delete(`connector:${connectorId}`);
    this.cache.delete(`account:${event.accountId}`);
    this.notify(connectorId);
  }

  private notify(connectorId: string | undefined): void {
    for (const listener of this.changeListeners) listener(connectorId);
  }

  private isCurrent(snapshot: ConnectorSnapshot): boolean {
    // A registry without versions (an older one) is trusted for the TTL, as before.
    return typeof snapshot.version !== 'number' || snapshot.version >= (this.versions.get(snapshot.id) ?? 0);
  }

  private cached<T>(key: string, load: () => Promise<T>): Promise<T> {
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.value as Promise<T>;
    const value = load();
    const entry = { at: Date.now(), value };
    this.cache.set(key, entry);
    // Only this entry: a newer one may have replaced it meanwhile.
    value.catch(() => this.cache.get(key) === entry && this.cache.delete(key));
    return value;
  }
}
