import { randomBytes, randomUUID } from 'node:crypto';
import type { ConsumeMessage } from 'amqplib';
import { ATS_TYPES, atsRegistry, type AtsType } from '@connector/ats-registry';
import {
  type TestSandbox,
  type TestSandboxOptions,
  testDriversOf,
} from '@connector/ats-sandbox-core/testing';
import { connectorSnapshot } from '@connector/ats-testing';
import {
  type AuthorizationStartReply,
  type ConnectorSnapshot,
  createEvent,
  RoutingKey,
} from '@connector/contracts';
import { RabbitConnection, RpcClient } from '@connector/messaging';
import { registryRequest, startConnectorDirectoryStub } from '@connector/service-stubs';
import {
  type CapturedEvent,
  createSuiteInfrastructure,
  eventsOf,
  freePort,
  type ServiceProcess,
  startService,
  type SuiteInfrastructure,
  TestBroker,
  waitForEvent,
} from '@connector/testing';

/** The services a world runs as processes (`apps/<name>`). */
export type WorldService =
  'auth-gateway' | 'candidate-sync' | 'vacancy-sync' | 'document-service' | 'connector-registry';

export interface TestWorldOptions {
  /** The prefix of its vhost and database (e.g. `e2e_candidates`). */
  name: string;
  /** The services it starts, at once, each with the world's env, `env` and its own `serviceEnv`. */
  services?: readonly WorldService[];
  /** What every service gets on top of the world's database, broker and sandboxes' settings. */
  env?: Record<string, string>;
  /** A service's own settings (e.g. connector-registry's `ADMIN_API_KEYS`). */
  serviceEnv?: Partial<Record<WorldService, Record<string, string>>>;
  /**
   * `'stub'`: connector-registry's two worker requests answered from `world.connectors` (in-process).
   * `'real'`: connector-registry is a process (in `services`, or `startService`d by the suite); its first one
   * listens on an address fixed before anything starts, its `PUBLIC_URL`, so an interactive login's callback
   * reaches it. Its connectors are made through its admin API (`ADMIN_API_KEYS` in `serviceEnv`), not `connect`.
   */
  registry?: 'stub' | 'real';
  /** The ATSs whose sandboxes it starts through their test drivers, e.g. `atsRegistry.typesWith('candidates')`. */
  sandboxes?: readonly string[];
  /** How those sandboxes are seeded (each driver's defaults otherwise). */
  sandboxOptions?: TestSandboxOptions;
  /**
   * A sandbox's own start options (its package's, e.g. `{ 'ats-b': { accessTokenTtlSeconds: 30 } }`), over its
   * driver's (and `sandboxOptions`), for checks in a block marked for that ATS.
   */
  vendorSandboxOptions?: Partial<Record<string, Record<string, unknown>>>;
  /** Exchanges it taps from the start (every routing key), read with `events`/`eventFor`. */
  tap?: readonly string[];
}

/** A connector `connect` made: the registry's snapshot of it. */
export type WorldConnector = ConnectorSnapshot;

/**
 * One suite's system: its own vhost and database, the services, sandboxes and taps it declared, all
 * stopped by `close()` in reverse order of starting.
 */
export interface TestWorld {
  /** DATABASE_URL and RABBITMQ_URL of the world (RABBITMQ_URL is also the process's until `close()`). */
  readonly env: { DATABASE_URL: string; RABBITMQ_URL: string };
  readonly infra: SuiteInfrastructure;
  /** A plain broker connection: publish as the platform does, read queues. */
  readonly broker: TestBroker;
  /** Every service process it started, in order (more with `startService`). */
  readonly processes: ServiceProcess[];
  /** With `registry: 'real'`, where its connector-registry listens (its `PUBLIC_URL`). */
  readonly registryUrl: string | undefined;
  /** The stub registry's connectors (`registry: 'stub'`): `connect` adds to it, a test may change them. */
  readonly connectors: Map<string, ConnectorSnapshot>;
  /** The first process of `name`; throws when the world has none. */
  service(name: WorldService): ServiceProcess;
  /** One more process of `name`, with the world's env and `env`; stopped by `close()`. */
  startService(name: WorldService, env?: Record<string, string>): Promise<ServiceProcess>;
  /** An RPC client that asks as connector-registry does (closed with the world). */
  rpc(): RpcClient;
  /** The sandbox of an ATS it started. */
  sandbox(type: string): TestSandbox;
  /**
   * One more sandbox of `type` (e.g. with a daily limit), stopped by `close()`; the services are not told of
   * it: connect to it with `connect(type, {accountId, sandbox})`.
   */
  startSandbox(type: string, options?: TestSandboxOptions): Promise<TestSandbox>;
  /**
   * Connects a connector of `type` for `accountId` the ATS's own way (its test driver's `connect`, through
   * auth-gateway) and, with the stub registry, lists it there. Needs the ATS's sandbox and auth-gateway.
   */
  connect(
    type: string,
    connector: {
      accountId: string;
      id?: string;
      options?: Record<string, unknown>;
      /** The sandbox to connect to: the world's own of `type` unless given. */
      sandbox?: TestSandbox;
      /** False: no daily limit in its options, so the ATS's (or the default) is obeyed (`connectorSnapshot`). */
      ownDailyLimit?: boolean;
    },
  ): Promise<WorldConnector>;
  /** The events of `type` seen on the tapped exchanges so far. */
  events(type: string): CapturedEvent[];
  /** Waits (20 s unless told) for the event of `type` caused by `sourceId` whose data has every field of `match`. */
  eventFor(
    type: string,
    sourceId: string,
    match?: Record<string, unknown>,
    timeoutMs?: number,
  ): Promise<CapturedEvent>;
  /**
   * Stops everything it started, in reverse order (service processes next to each other at once), even after a
   * failed start; safe to call twice.
   */
  close(): Promise<void>;
}

/**
 * Starts a suite's world, as declared:
 *
 *   const world = await testWorld({
 *     name: 'e2e_candidates',
 *     services: ['auth-gateway', 'candidate-sync'],
 *     registry: 'stub',
 *     sandboxes: atsRegistry.typesWith('candidates'),
 *     tap: [Exchange.ConnectorEvents],
 *   });
 *   const connector = await world.connect(type, { accountId });
 *   afterAll(() => world?.close());
 *
 * When a part fails to start, what had started is stopped before the error is thrown.
 */
export async function testWorld(options: TestWorldOptions): Promise<TestWorld> {
  // Service processes next to each other in the order are stopped together (each takes its graceful shutdown
  // time), everything else one by one.
  const closers: Array<{ what: string; close: () => Promise<unknown>; service: boolean }> = [];
  const started = <T>(what: string, thing: T, close: (thing: T) => Promise<unknown>, service = false): T => {
    closers.push({ what, close: () => close(thing), service });
    return thing;
  };
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closed ??= (async () => {
      const failures: string[] = [];
      const stop = ({ what, close: closeIt }: (typeof closers)[number]) =>
        closeIt().catch((error: unknown) => failures.push(`${what}: ${String(error)}`));
      const reversed = closers.reverse();
      for (let i = 0; i < reversed.length;) {
        let end = i + 1;
        while (reversed[i]!.service && reversed[end]?.service) end++;
        await Promise.all(reversed.slice(i, end).map(stop));
        i = end;
      }
      if (failures.length > 0)
        throw new Error(`the test world did not close cleanly:\n${failures.join('\n')}`);
    })());

  // First, so that a missing driver fails before anything starts.
  const drivers = testDriversOf(options.sandboxes ?? []);
  const registryPort = options.registry === 'real' ? await freePort() : undefined;
  const registryUrl = registryPort ? `http://127.0.0.1:${registryPort}` : undefined;
  try {
    const infra = started('vhost and database', await createSuiteInfrastructure(options.name), (i) =>
      i.drop(),
    );
    const sandboxes = new Map<string, TestSandbox>();
    await allStarted(
      drivers.map(async (driver) => {
        const sandbox = await driver.start({
          publicUrl: registryUrl,
          ...options.sandboxOptions,
          vendor: options.vendorSandboxOptions?.[driver.type],
        });
        sandboxes.set(
          driver.type,
          started(`${driver.type} sandbox`, sandbox, (s) => s.close()),
        );
      }),
    );
    const broker = started('broker connection', await TestBroker.connect(), (b) => b.close());
    const tapped: ConsumeMessage[][] = [];
    for (const exchange of options.tap ?? []) tapped.push(await broker.tap(exchange, '#'));
    const directory =
      options.registry === 'stub'
        ? started('connector directory stub', await startConnectorDirectoryStub(), (s) => s.close())
        : undefined;

    const sandboxEnv = Object.assign({}, ...[...sandboxes.values()].map((s) => s.serviceEnv)) as Record<
      string,
      string
    >;
    const gatewayKey = `k1:${randomBytes(32).toString('base64')}`;
    const envOf = (name: WorldService, extra: Record<string, string> = {}): Record<string, string> => ({
      ...infra.env,
      ...(name === 'auth-gateway' ? { ENCRYPTION_KEYS: gatewayKey } : {}),
      ...(name === 'connector-registry' && registryUrl ? { PUBLIC_URL: registryUrl } : {}),
      ...sandboxEnv,
      ...options.env,
      ...options.serviceEnv?.[name],
      ...extra,
    });
    const processes: ServiceProcess[] = [];
    let registryPortTaken = false;
    /** The first connector-registry of a `'real'` registry on its fixed address, any other on a free port. */
    const portOf = (name: WorldService): number | undefined => {
      if (name !== 'connector-registry' || registryPortTaken) return undefined;
      registryPortTaken = true;
      return registryPort;
    };
    const startOne = async (name: WorldService, extra?: Record<string, string>) => {
      const env = envOf(name, extra);
      const service = started(
        name,
        await startService(name, env, undefined, portOf(name)),
        (p) => p.stop(),
        true,
      );
      processes.push(service);
      return service;
    };
    await allStarted((options.services ?? []).map((name) => startOne(name)));

    let rpc: RpcClient | undefined;
    const rpcClient = (): RpcClient => {
      if (!rpc) {
        const connection = started(
          'rpc connection',
          new RabbitConnection({ url: infra.env.RABBITMQ_URL, name: `world-${options.name}` }),
          (c) => c.close(),
        );
        rpc = started('rpc client', new RpcClient(connection, 'connector-registry'), (c) => c.close());
      }
      return rpc;
    };
    const gatewayRpc = (): RpcClient => {
      if (!processes.some((p) => p.name === 'auth-gateway'))
        throw new Error("connect needs auth-gateway: add it to the world's services");
      return rpcClient();
    };
    const messages = () => tapped.flat();
    const sandboxOf = (type: string): TestSandbox => {
      const found = sandboxes.get(type);
      if (!found)
        throw new Error(`the world started no ${type} sandbox (sandboxes: ${[...sandboxes.keys()]})`);
      return found;
    };

    return {
      env: infra.env,
      infra,
      broker,
      registryUrl,
      processes,
      connectors: directory?.connectors ?? new Map(),
      service(name) {
        const found = processes.find((p) => p.name === name);
        if (!found) throw new Error(`the world runs no ${name} (services: ${processes.map((p) => p.name)})`);
        return found;
      },
      startService: startOne,
      rpc: rpcClient,
      sandbox: sandboxOf,
      async startSandbox(type, sandboxOptions) {
        const [driver] = testDriversOf([type]);
        return started(`extra ${type} sandbox`, await driver.start(sandboxOptions), (s) => s.close());
      },
      async connect(type, { accountId, id = `conn-${type}-${randomUUID().slice(0, 8)}`, ...rest }) {
        if (!isAtsType(type)) throw new Error(`${type} is not a registered ATS (${ATS_TYPES.join(', ')})`);
        if (options.registry === 'real')
          throw new Error('with a real registry, connect through its admin API (POST /api/v1/connectors)');
        const { options: opts, sandbox = sandboxOf(type), ownDailyLimit } = rest;
        const config = await sandbox.connect(gatewayFor(gatewayRpc(), type, accountId, id));
        const snapshot = connectorSnapshot({ id, accountId, type, config, options: opts, ownDailyLimit });
        directory?.connectors.set(id, snapshot);
        return snapshot;
      },
      events: (type) => eventsOf(messages(), type),
      eventFor: (type, sourceId, match, timeoutMs) =>
        waitForEvent(messages, type, sourceId, match, timeoutMs),
      close,
    };
  } catch (error) {
    await close().catch((closing: unknown) => console.error(closing));
    throw error;
  }
}

/**
 * Waits for every start, not just until the first fails (as `Promise.all` would): what a failed world's
 * `close()` stops must include the parts that were still starting.
 */
async function allStarted(starts: Promise<unknown>[]): Promise<void> {
  const failed = (await Promise.allSettled(starts)).find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
}

const GATEWAY_TIMEOUT_MS = 20_000;

const isAtsType = (type: string): type is AtsType => (ATS_TYPES as readonly string[]).includes(type);

/** auth-gateway's set-up requests for one connector, as connector-registry sends them. */
function gatewayFor(rpc: RpcClient, type: string, accountId: string, connectorId: string) {
  return {
    async saveCredentials(config: Record<string, unknown>): Promise<void> {
      const secretFields = atsRegistry.get(type).clientCredentials?.secretFields ?? [];
      await rpc.request(
        registryRequest(
          RoutingKey.AuthCredentialsSave,
          accountId,
          { connectorId, type, config },
          secretFields,
        ),
        GATEWAY_TIMEOUT_MS,
      );
    },
    async authorize(login: (authorizeUrl: string) => Promise<string>): Promise<void> {
      const browserNonce = `nonce-${connectorId}`;
      const { authorizeUrl } = await rpc.request<AuthorizationStartReply>(
        createEvent(RoutingKey.AuthAuthorizationStart, accountId, {
          type,
          connectorId,
          adminId: 'admin-1',
          browserNonce,
        }),
        GATEWAY_TIMEOUT_MS,
      );
      const callback = new URL(await login(authorizeUrl));
      await rpc.request(
        createEvent(RoutingKey.AuthAuthorizationComplete, accountId, {
          type,
          code: callback.searchParams.get('code') ?? '',
          state: callback.searchParams.get('state') ?? '',
          browserNonce,
        }),
        GATEWAY_TIMEOUT_MS,
      );
    },
  };
}
