import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import amqplib from 'amqplib';
import {
  BROKER_PRINCIPALS,
  BROKER_SERVICES,
  type BrokerPrincipal,
  type BrokerService,
  brokerDefinitions,
  serviceTopologies,
  type TopologySettings,
} from './broker-permissions';
import { brokerUrlAs, brokerVhostOf, isLoopbackBroker } from './broker-url';
import {
  consumerDeclarations,
  declareConsumerTopology,
  declaresQueueWith,
  declareSharedExchanges,
} from './topology';

/** A broker user and its password, in clear: only ever in memory, a 0600 file or a secret. */
export interface BrokerAccount {
  user: string;
  password: string;
}
export type BrokerAccounts = Record<BrokerPrincipal, BrokerAccount>;

/** How the users were set up, or why they could not be. */
export type BrokerSetupResult = { method: 'management API' | 'rabbitmqctl' } | { unavailable: string };

export interface BrokerSetupOptions {
  /** A URL of an administrator on the broker and vhost to set up (e.g. guest on a laptop). */
  adminUrl: string;
  /** The management HTTP API; default http://<broker host>:15672 as the administrator of adminUrl. */
  managementUrl?: string;
  /** The services' retry delays and delivery limits, when not production's (their queues are declared here). */
  topology?: TopologySettings;
}

/** RabbitMQ's `rabbit_password_hashing_sha256`: base64(salt ‖ sha256(salt ‖ password)), a 4-byte salt. */
export function rabbitPasswordHash(password: string): string {
  const salt = randomBytes(4);
  const digest = createHash('sha256')
    .update(Buffer.concat([salt, Buffer.from(password, 'utf8')]))
    .digest();
  return Buffer.concat([salt, digest]).toString('base64');
}

/** A password for a generated broker user (URL-safe, so it needs no escaping in RABBITMQ_URL). */
export function newBrokerPassword(): string {
  return randomBytes(24).toString('base64url');
}

/** RABBITMQ_USERS for our services: `<service>:<user>,…`. */
export function brokerUsersSetting(users: Record<BrokerService, string>): string {
  return BROKER_SERVICES.map((service) => `${service}:${users[service]}`).join(',');
}

/**
 * Creates or updates the users of `accounts` with their permissions (broker-permissions.ts), the exchanges
 * and every service's queues with their bindings in the vhost of `adminUrl`, by importing one definitions
 * document: through the management HTTP API when it answers, else with `rabbitmqctl` when the broker runs on
 * this machine. Resolves once every user can connect and the topology is declared (`declareBrokerTopology`).
 */
export async function setUpBrokerUsers(
  options: BrokerSetupOptions & { accounts: BrokerAccounts },
): Promise<BrokerSetupResult> {
  const vhost = brokerVhostOf(options.adminUrl);
  const definitions = JSON.stringify(
    brokerDefinitions(
      vhost,
      Object.fromEntries(
        BROKER_PRINCIPALS.map((principal) => [
          principal,
          {
            user: options.accounts[principal].user,
            passwordHash: rabbitPasswordHash(options.accounts[principal].password),
          },
        ]),
      ) as Record<BrokerPrincipal, { user: string; passwordHash: string }>,
      options.topology,
    ),
  );
  const api = await managementApi(options);
  let result: BrokerSetupResult;
  if ('request' in api) {
    await api.request('POST', '/api/definitions', definitions);
    result = { method: 'management API' };
  } else if (isLoopbackBroker(options.adminUrl)) {
    const imported = await rabbitmqctl(['import_definitions'], definitions);
    if (!imported.ok) return { unavailable: `${api.why}; rabbitmqctl: ${imported.why}` };
    result = { method: 'rabbitmqctl' };
  } else {
    return { unavailable: `${api.why}, and the broker is not on this machine (no rabbitmqctl)` };
  }
  // An import is applied asynchronously: done when every user can open the vhost.
  await Promise.all(
    BROKER_PRINCIPALS.map((principal) =>
      waitUntilUsable(
        brokerUrlAs(options.adminUrl, options.accounts[principal].user, options.accounts[principal].password),
      ),
    ),
  );
  // The import declares no queue that exists already, nor unbinds a retired key: this does both.
  await declareBrokerTopology(options.adminUrl, options.topology);
  return result;
}

/**
 * Declares, as the administrator of `adminUrl`, the shared exchanges and every service's queues, their own
 * exchanges and all their bindings; a queue an earlier version declared with other arguments (they never
 * change) is kept as it is. Our services may declare none of it (docs/security.md, "On the broker").
 */
export async function declareBrokerTopology(
  adminUrl: string,
  settings: TopologySettings = {},
): Promise<void> {
  const connection = await amqplib.connect(adminUrl, { timeout: 5_000 });
  try {
    const channel = await connection.createChannel();
    await declareSharedExchanges(channel);
    for (const topology of serviceTopologies(settings)) {
      const olderQueues: string[] = [];
      for (const queue of consumerDeclarations(topology).queues) {
        if (!(await declaresQueueWith(connection, queue.name, queue.arguments))) olderQueues.push(queue.name);
      }
      await declareConsumerTopology(channel, topology, olderQueues);
    }
  } finally {
    await connection.close().catch(() => undefined);
  }
}

/**
 * The broker keeper: declares the topology (`declareBrokerTopology`) again every `intervalMs`, so that a
 * service whose queue was lost (deleted by an operator, a test on the wrong vhost) gets it back: its broker
 * user may not declare it, it waits until it is there. Run by a principal our services never hold (npm
 * start's supervisor, `broker-users --keep` in a deployment, a test). `onError` hears a round that failed.
 */
export function keepBrokerTopology(options: {
  adminUrl: string;
  topology?: TopologySettings;
  intervalMs?: number;
  onError?: (error: Error) => void;
}): { stop(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<void> = Promise.resolve();
  const tick = () => {
    round = declareBrokerTopology(options.adminUrl, options.topology)
      .catch((error: unknown) => options.onError?.(error as Error))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, options.intervalMs ?? DEFAULT_KEEPER_INTERVAL_MS);
      });
  };
  tick();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await round;
    },
  };
}

/** How often the keeper declares the topology again: a lost queue is back within this (and a round). */
export const DEFAULT_KEEPER_INTERVAL_MS = 5_000;

/**
 * Deletes broker users; users that do not exist are not an error. For tests' throwaway users (kept here, beside
 * the broker access it shares with setUpBrokerUsers).
 * @internal
 */
export async function removeBrokerUsers(options: BrokerSetupOptions & { users: string[] }): Promise<void> {
  const api = await managementApi(options);
  await Promise.all(
    options.users.map((user) =>
      'request' in api
        ? api.request('DELETE', `/api/users/${encodeURIComponent(user)}`).catch(() => undefined)
        : rabbitmqctl(['delete_user', user]),
    ),
  );
}

type ManagementApi =
  { request: (method: string, path: string, body?: string) => Promise<void> } | { why: string };

async function managementApi(options: BrokerSetupOptions): Promise<ManagementApi> {
  const admin = new URL(options.adminUrl);
  const base = new URL(options.managementUrl ?? `http://${admin.host.replace(/:\d+$/, '')}:15672`);
  const user = decodeURIComponent(base.username || admin.username || 'guest');
  const password = decodeURIComponent(base.password || admin.password || 'guest');
  base.username = '';
  base.password = '';
  const authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  const call = (method: string, path: string, body?: string) =>
    fetch(new URL(path, base), {
      method,
      headers: { authorization, 'content-type': 'application/json' },
      body,
      signal: AbortSignal.timeout(10_000),
    });
  try {
    const overview = await fetch(new URL('/api/overview', base), {
      headers: { authorization },
      signal: AbortSignal.timeout(2_000),
    });
    if (!overview.ok) return { why: `the management API at ${base.origin} answered ${overview.status}` };
  } catch {
    return { why: `no management API at ${base.origin}` };
  }
  return {
    request: async (method, path, body) => {
      const response = await call(method, path, body);
      if (!response.ok && response.status !== 404) {
        throw new Error(`management API ${method} ${path}: ${response.status} ${await response.text()}`);
      }
    },
  };
}

function rabbitmqctl(args: string[], input?: string): Promise<{ ok: true } | { ok: false; why: string }> {
  return new Promise((resolve) => {
    const child = spawn('rabbitmqctl', args, { stdio: ['pipe', 'ignore', 'pipe'], timeout: 60_000 });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', (error) => resolve({ ok: false, why: error.message }));
    child.once('exit', (code) =>
      resolve(code === 0 ? { ok: true } : { ok: false, why: stderr.trim().split('\n')[0] || `exit ${code}` }),
    );
    child.stdin.on('error', () => undefined); // no rabbitmqctl: the 'error' above says so
    child.stdin.end(input ?? '');
  });
}

async function waitUntilUsable(url: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const connection = await amqplib.connect(url, { timeout: 3_000 });
      await connection.close();
      return;
    } catch (error) {
      if (Date.now() > deadline) {
        throw new Error(`broker user ${new URL(url).username} cannot connect: ${(error as Error).message}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
