import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import amqplib from 'amqplib';
import {
  BROKER_PRINCIPALS,
  BROKER_SERVICES,
  type BrokerPrincipal,
  type BrokerService,
  brokerDefinitions,
} from './broker-permissions';
import { brokerUrlAs, brokerVhostOf, isLoopbackBroker } from './broker-url';

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
 * Creates or updates the users of `accounts` with their permissions (broker-permissions.ts) in the vhost of
 * `adminUrl`, by importing one definitions document: through the management HTTP API when it answers, else
 * with `rabbitmqctl` when the broker runs on this machine. Resolves once every user can connect.
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
  return result;
}

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
