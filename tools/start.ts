/**
 * `npm start`: the whole system on this machine. Checks RabbitMQ and Postgres, starts every registered ATS's
 * sandbox (tools/sandboxes.ts) and the five services, waits until each is ready, prints where everything is, and stops it all on Ctrl-C.
 * Each process writes its JSON log to tmp/logs/<name>.log; warnings and errors are echoed here.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, createWriteStream, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import amqplib from 'amqplib';
import { Client } from 'pg';
import {
  BROKER_PRINCIPALS,
  BROKER_SERVICES,
  type BrokerAccounts,
  type BrokerService,
  brokerUrlAs,
  brokerUsersSetting,
  declareSharedExchanges,
  keepBrokerTopology,
  newBrokerPassword,
  setUpBrokerUsers,
} from '@connector/messaging';
import { createDemoConnectors, firstAdminKey } from './demo-connectors';
import { createShutdown, portsInUseLine, signInHint, writeSecretFile } from './start-processes';
import { registeredSandboxes } from './sandboxes';

const root = join(__dirname, '..');
const startSandboxes = process.env.START_SANDBOXES !== 'false';
const env = {
  // A database of its own (created when missing), never one the tests use: the tests' hermetic guard
  // (libs/testing, START_DATABASE) refuses this name.
  DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/ats_connector_local',
  RABBITMQ_URL: process.env.RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
  ADMIN_API_KEYS: process.env.ADMIN_API_KEYS ?? 'acct_demo:demo-admin-key',
  ENCRYPTION_KEYS: process.env.ENCRYPTION_KEYS ?? localEncryptionKeys(),
  // The registry seals its requests' client secrets for auth-gateway: a key of this run's own (none outlives it).
  REQUEST_SEAL_KEYS: process.env.REQUEST_SEAL_KEYS ?? `local1:${randomBytes(32).toString('base64')}`,
  FIELD_HASH_KEY:
    process.env.FIELD_HASH_KEY ??
    localSecret('local-field-hash-key', () => randomBytes(33).toString('base64')),
  // Local mode: ATSs (the sandboxes, any simulator) on this machine over plain http. Services default to none.
  ALLOW_PRIVATE_ADDRESSES: process.env.ALLOW_PRIVATE_ADDRESSES ?? 'loopback',
};

/** Local mode keeps one generated key in tmp/, so secrets stored by one run open in the next. */
function localEncryptionKeys(): string {
  return localSecret('local-encryption-keys', () => `local1:${randomBytes(32).toString('base64')}`);
}

/** A secret generated once into tmp/<name> and read from there by later runs. */
function localSecret(name: string, generate: () => string): string {
  const file = join(root, 'tmp', name);
  if (!existsSync(file)) {
    mkdirSync(join(root, 'tmp'), { recursive: true });
    writeSecretFile(file, `${generate()}\n`);
  }
  chmodSync(file, 0o600); // also when an earlier version (or a copy) left it readable by others
  return readFileSync(file, 'utf8').trim();
}

/** Local mode keeps the broker users' passwords in tmp/ (0600), so they stay the same from run to run. */
function localBrokerAccounts(): BrokerAccounts {
  const file = join(root, 'tmp', 'broker-passwords.json');
  const stored: Record<string, string> = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>)
    : {};
  const passwords = Object.fromEntries(
    BROKER_PRINCIPALS.map((principal) => [principal, stored[principal] ?? newBrokerPassword()]),
  );
  mkdirSync(join(root, 'tmp'), { recursive: true });
  writeSecretFile(file, `${JSON.stringify(passwords, null, 2)}\n`);
  return Object.fromEntries(
    BROKER_PRINCIPALS.map((principal) => [principal, { user: principal, password: passwords[principal] }]),
  ) as BrokerAccounts;
}

/**
 * A broker user per service (and one for the platform) with the permissions of production, each service
 * given its own RABBITMQ_URL. Without the management API or rabbitmqctl, every service shares the given user.
 */
async function brokerUsers(): Promise<{ envOf: (service: string) => Record<string, string>; line: string }> {
  const accounts = localBrokerAccounts();
  const result = await setUpBrokerUsers({
    adminUrl: env.RABBITMQ_URL,
    managementUrl: process.env.RABBITMQ_MANAGEMENT_URL,
    accounts,
  });
  if ('unavailable' in result) {
    // The definitions create the shared exchanges; without them, the given user does (services only check).
    await createSharedExchanges();
    process.stdout.write(
      `Broker users not created (${result.unavailable}): every service connects as the user of RABBITMQ_URL, ` +
        'so consumers cannot tell our services apart (local mode only).\n',
    );
    return { envOf: () => ({}), line: '(one user for all services)' };
  }
  // The broker keeper: the services' users may declare no queue, so a lost one is declared again from here.
  keepBrokerTopology({
    adminUrl: env.RABBITMQ_URL,
    onError: (error) => process.stderr.write(`broker keeper: ${error.message}\n`),
  });
  const usersSetting = brokerUsersSetting(
    Object.fromEntries(BROKER_SERVICES.map((service) => [service, accounts[service].user])) as Record<
      BrokerService,
      string
    >,
  );
  return {
    envOf: (service) => {
      const account = accounts[service as BrokerService];
      return {
        RABBITMQ_URL: brokerUrlAs(env.RABBITMQ_URL, account.user, account.password),
        RABBITMQ_USERS: usersSetting,
      };
    },
    line: `(a user per service and "platform", set up with the ${result.method}; passwords in tmp/broker-passwords.json)`,
  };
}

interface Proc {
  name: string;
  port: number;
  /** Path answering 2xx once the process is ready. */
  readyPath: string;
  /** Its main module, from the workspace root, and its arguments. */
  entry: string;
  args?: string[];
  child?: ChildProcess;
}

/** Each registered ATS's sandbox, a process of its own; <TYPE>_SANDBOX_PORT (e.g. for `x-y`: X_Y_SANDBOX_PORT) moves it. */
const sandboxes = registeredSandboxes().map((sandbox) => {
  const port = Number(
    process.env[`${sandbox.type.toUpperCase().replace(/-/g, '_')}_SANDBOX_PORT`] ?? sandbox.defaultPort,
  );
  const proc: Proc = {
    name: `${sandbox.type}-sandbox`,
    port,
    readyPath: sandbox.readyPath,
    entry: 'tools/sandboxes.ts',
    args: [sandbox.type],
  };
  return { sandbox, proc, url: `http://127.0.0.1:${port}` };
});
const sandboxProcs = sandboxes.map(({ proc }) => proc);
const services: Proc[] = [
  {
    name: 'connector-registry',
    port: 3000,
    readyPath: '/health',
    entry: 'apps/connector-registry/src/main.ts',
  },
  { name: 'auth-gateway', port: 3001, readyPath: '/health', entry: 'apps/auth-gateway/src/main.ts' },
  { name: 'vacancy-sync', port: 3002, readyPath: '/health', entry: 'apps/vacancy-sync/src/main.ts' },
  { name: 'candidate-sync', port: 3003, readyPath: '/health', entry: 'apps/candidate-sync/src/main.ts' },
  { name: 'document-service', port: 3004, readyPath: '/health', entry: 'apps/document-service/src/main.ts' },
];

/** Every way out (a failure, Ctrl-C) stops the children started so far and waits for them. */
const shutdown = createShutdown({
  children: () =>
    [...sandboxProcs, ...services].map((p) => p.child).filter((child): child is ChildProcess => !!child),
});
const fail = (line: string): Promise<never> => shutdown.fail(line);

/** The default database (not one the user named) is created on first run, through the `postgres` database. */
async function createLocalDatabase(): Promise<void> {
  if (process.env.DATABASE_URL) return;
  const url = new URL(env.DATABASE_URL);
  const name = decodeURIComponent(url.pathname.slice(1));
  url.pathname = '/postgres';
  const client = new Client({ connectionString: url.toString(), connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE "${name}"`);
  } catch {
    // Not reachable: checkPostgres says so, with how to start it.
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function checkPostgres(): Promise<void> {
  await createLocalDatabase();
  const client = new Client({ connectionString: env.DATABASE_URL, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    await fail(
      `Postgres is not reachable at DATABASE_URL (${redactUrl(env.DATABASE_URL)}): ${(error as Error).message}. ` +
        'Start it with `docker compose up -d postgres` (or `pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start`).',
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function checkRabbitMq(): Promise<void> {
  try {
    const connection = await amqplib.connect(env.RABBITMQ_URL, { timeout: 3_000 });
    await connection.close();
  } catch (error) {
    await fail(
      `RabbitMQ is not reachable at RABBITMQ_URL (${redactUrl(env.RABBITMQ_URL)}): ${(error as Error).message}. ` +
        'Start it with `docker compose up -d rabbitmq` (or `rabbitmq-server -detached`).',
    );
  }
}

async function createSharedExchanges(): Promise<void> {
  const connection = await amqplib.connect(env.RABBITMQ_URL, { timeout: 3_000 });
  try {
    await declareSharedExchanges(await connection.createChannel());
  } finally {
    await connection.close().catch(() => undefined);
  }
}

function redactUrl(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]+@/, '//$1:***@');
}

function launch(proc: Proc, extraEnv: Record<string, string>): void {
  const logDir = join(root, 'tmp', 'logs');
  mkdirSync(logDir, { recursive: true });
  const log = createWriteStream(join(logDir, `${proc.name}.log`), { flags: 'a' });
  const child = spawn(process.execPath, ['-r', '@swc-node/register', proc.entry, ...(proc.args ?? [])], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: process.env.NODE_ENV ?? 'development',
      ...env,
      ...extraEnv,
      PORT: String(proc.port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const echo = (chunk: Buffer) => {
    log.write(chunk);
    for (const line of chunk.toString().split('\n')) {
      if (/"level":"(warn|error|fatal)"|^(?!\{).+/.test(line) && line.trim()) {
        process.stdout.write(`[${proc.name}] ${line}\n`);
      }
    }
  };
  child.stdout.on('data', echo);
  child.stderr.on('data', echo);
  child.once('exit', (code, signal) => {
    if (!shutdown.stopping)
      void fail(
        `${proc.name} stopped unexpectedly (${signal ?? `exit ${code}`}); see tmp/logs/${proc.name}.log`,
      );
  });
  proc.child = child;
}

async function waitReady(proc: Proc, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`http://127.0.0.1:${proc.port}${proc.readyPath}`);
      if (response.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await fail(
    `${proc.name} was not ready on port ${proc.port} within ${timeoutMs / 1000} s; see tmp/logs/${proc.name}.log`,
  );
}

async function main(): Promise<void> {
  process.on('SIGINT', () => void shutdown.stop());
  process.on('SIGTERM', () => void shutdown.stop());
  process.on('uncaughtException', (error) => void fail(errorText(error)));
  process.on('unhandledRejection', (error) => void fail(errorText(error)));
  // Before anything else: a readiness probe on a taken port would be answered by whoever holds it.
  const portsTaken = await portsInUseLine(startSandboxes ? [...sandboxProcs, ...services] : services);
  if (portsTaken) await fail(portsTaken);
  await Promise.all([checkPostgres(), checkRabbitMq()]);

  const broker = await brokerUsers();
  // What the services need to reach the sandboxes (an interactive login's addresses), unless the environment
  // names other ATS addresses.
  const sandboxEnv: Record<string, string> = {};
  if (startSandboxes) {
    for (const { sandbox, url } of sandboxes) {
      for (const [name, value] of Object.entries(sandbox.serviceEnv?.(url) ?? {}))
        sandboxEnv[name] = process.env[name] ?? value;
    }
    process.stdout.write('Starting the ATS sandboxes…\n');
    for (const proc of sandboxProcs) launch(proc, {});
    await Promise.all(sandboxProcs.map((s) => waitReady(s)));
  }
  process.stdout.write('Starting the services (first start compiles TypeScript; give it a few seconds)…\n');
  for (const service of services) launch(service, { ...sandboxEnv, ...broker.envOf(service.name) });
  await Promise.all(services.map((s) => waitReady(s)));

  const demo = startSandboxes
    ? await createDemoConnectors({
        registryUrl: 'http://127.0.0.1:3000',
        adminKey: adminKey(),
        connectors: sandboxes.map(({ sandbox, url }) => sandbox.demoConnector(url)),
      })
    : [];

  const lines = [
    '',
    'ATS connector service is running.',
    '',
    `  Admin page           http://127.0.0.1:3000/admin   (${signInHint(process.env.ADMIN_API_KEYS, adminKey())})`,
    `  Admin API            http://127.0.0.1:3000/api/v1  (OpenAPI: http://127.0.0.1:3000/api/docs)`,
    ...demo.map((line) => `  ${line}`),
    '',
    ...services.map((s) => `  ${s.name.padEnd(20)} http://127.0.0.1:${s.port}/health`),
    ...(startSandboxes
      ? sandboxes.map(({ sandbox, url }) => `  ${sandbox.label.padEnd(20)} ${url}   (${sandbox.demoLogin})`)
      : []),
    `  RabbitMQ             ${redactUrl(env.RABBITMQ_URL)} ${broker.line}`,
    `  Postgres             ${redactUrl(env.DATABASE_URL)}`,
    '',
    'Logs: tmp/logs/<name>.log. Ctrl-C stops everything.',
    '',
  ];
  process.stdout.write(lines.join('\n'));
}

function adminKey(): string {
  return firstAdminKey(env.ADMIN_API_KEYS);
}

function errorText(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

main().catch((error: unknown) => fail(errorText(error)));
