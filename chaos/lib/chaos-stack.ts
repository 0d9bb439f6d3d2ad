import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { startAtsASandbox, type RunningAtsASandbox } from '@connector/ats-a-sandbox';
import { startAtsBSandbox, type RunningAtsBSandbox } from '@connector/ats-b-sandbox';
import { driveLoginForm } from '@connector/ats-b-sandbox/testing';
import {
  type AdminAnswer,
  adminApi,
  createSuiteInfrastructure,
  type FileServer,
  freePort,
  type ServiceProcess,
  startFileServer,
  startService,
  type SuiteInfrastructure,
  WORKSPACE_ROOT,
} from '@connector/testing';
import { BurstPublisher } from './burst-publisher';
import { EventRecorder } from './event-recorder';
import { FaultProxy } from './fault-proxy';
import { RefreshTokenLog } from './refresh-token-log';
import { CHAOS_RETRY_DELAYS_MS } from './retry-ladder';
import type { SeededRandom } from './seeded-random';

export const WORKERS = ['candidate-sync', 'document-service', 'vacancy-sync'] as const;
export type WorkerName = (typeof WORKERS)[number];
export type ServiceName = 'connector-registry' | 'auth-gateway' | WorkerName;

export interface StackOptions {
  /** Names the database and vhost. */
  name: string;
  random: SeededRandom;
  /** Workers to run besides the registry and auth-gateway (each as `replicas` processes). */
  workers: readonly WorkerName[];
  replicas: number;
  logLevel: string;
  atsA: { vacancies: number; latencyMs?: number };
  atsB: { jobs: number; accessTokenTtlSeconds?: number };
  /** Extra environment for every service. */
  env?: Record<string, string>;
}

export interface Replica {
  service: ServiceName;
  index: number;
  env: Record<string, string>;
  port?: number;
  process: ServiceProcess;
  alive: boolean;
  /** Output of earlier incarnations (a replica that was killed and started again). */
  history: string[];
}

export interface DeadLetterRow {
  messageId: string | null;
  queue: string;
  reasons: string[];
  retryable: boolean;
}

const ACCOUNT = 'acct_chaos';
const ATS_A_CLIENT = 'chaos-client';
/** The ATS-B sandbox's default user and the platform's default OAuth client (auth-gateway's defaults). */
const ATS_B_LOGIN = { username: 'recruiter', password: 'recruiter-pass' };
const READY_TIMEOUT_MS = 180_000;

/**
 * One scenario's world: its own database and vhost, both ATS sandboxes in this process behind fault
 * proxies, a file server for documents, connector-registry, and auth-gateway and every worker asked for as
 * `replicas` processes, the two connectors set up through the admin API, and the recorder of what the
 * services publish.
 */
export class ChaosStack {
  readonly accountId = ACCOUNT;
  readonly replicas: Replica[] = [];
  connectors = { atsA: '', atsB: '' };
  recorder!: EventRecorder;
  publisher!: BurstPublisher;
  refreshTokens!: RefreshTokenLog;
  readonly admin: (method: string, path: string, body?: unknown) => Promise<AdminAnswer>;
  private readonly adminKey = `chaos-${randomBytes(12).toString('hex')}`;

  private constructor(
    readonly options: StackOptions,
    readonly infra: SuiteInfrastructure,
    readonly atsA: RunningAtsASandbox,
    readonly atsB: RunningAtsBSandbox,
    readonly proxies: { atsA: FaultProxy; atsBData: FaultProxy; atsBAuth: FaultProxy[] },
    readonly files: FileServer,
    readonly registryUrl: string,
  ) {
    const api = adminApi({ baseUrl: () => `${this.registryUrl}/api/v1`, key: this.adminKey });
    this.admin = (method, path, body) => api(method, path, { body });
  }

  static async start(options: StackOptions): Promise<ChaosStack> {
    const infra = await createSuiteInfrastructure(`chaos_${options.name.replace(/-/g, '_')}`);
    const clientSecret = `secret-${randomBytes(8).toString('hex')}`;
    const atsA = await startAtsASandbox({
      clients: [{ clientId: ATS_A_CLIENT, clientSecret }],
      seed: { vacancies: options.atsA.vacancies, seed: options.random.seed },
      dailyLimit: 10_000_000,
      // A short "day", so the Retry-After of a 429 storm is seconds, not hours.
      quotaWindowSeconds: 15,
      latencyMs: options.atsA.latencyMs ?? 0,
    });
    // ATS-B advertises its REST address (restUrl) through the data proxy: the proxy listens first, and is
    // pointed at the sandbox once the sandbox listens (a port chosen ahead could be taken in between).
    const atsBData = await FaultProxy.start('http://127.0.0.1:9', options.random.fork('ats-b-data'));
    const atsB = await startAtsBSandbox({
      publicUrl: atsBData.url,
      seed: { jobs: options.atsB.jobs, seed: options.random.seed },
      perMinuteLimit: 1_000_000,
      accessTokenTtlSeconds: options.atsB.accessTokenTtlSeconds,
    });
    // `url` is the advertised (proxy) address; the sandbox itself listens on its port.
    const atsBTarget = `http://127.0.0.1:${atsB.port}`;
    atsBData.pointAt(atsBTarget);
    const proxies = {
      atsA: await FaultProxy.start(atsA.url, options.random.fork('ats-a')),
      atsBData,
      // One OAuth address per auth-gateway replica: a held refresh names the process that sent it.
      atsBAuth: await Promise.all(
        Array.from({ length: options.replicas }, (_, i) =>
          FaultProxy.start(atsBTarget, options.random.fork(`ats-b-auth-${i}`)),
        ),
      ),
    };
    const files = await startFileServer();
    const registryPort = await freePort();
    const stack = new ChaosStack(
      options,
      infra,
      atsA,
      atsB,
      proxies,
      files,
      `http://127.0.0.1:${registryPort}`,
    );
    stack.refreshTokens = RefreshTokenLog.attach(atsB.state);
    try {
      await stack.startServices(registryPort);
      stack.recorder = await EventRecorder.start(infra.env.RABBITMQ_URL, `chaos-recorder-${options.name}`);
      stack.publisher = await BurstPublisher.start(infra.env.RABBITMQ_URL);
      await stack.setUpConnectors(clientSecret);
    } catch (error) {
      await stack.stop();
      throw error;
    }
    return stack;
  }

  replicasOf(service: ServiceName): Replica[] {
    return this.replicas.filter((r) => r.service === service);
  }

  /** kill -9: no shutdown hook runs, unacknowledged messages go back to the queue, leases stay taken. */
  async kill(replica: Replica): Promise<void> {
    replica.alive = false;
    await replica.process.stop('SIGKILL');
  }

  /** Starts the replica again with the same environment (and the same port, when it had a fixed one). */
  async restart(replica: Replica): Promise<void> {
    replica.history.push(...replica.process.output, `---- restarted at ${new Date().toISOString()} ----`);
    replica.process = await startService(replica.service, replica.env, READY_TIMEOUT_MS, replica.port);
    replica.alive = true;
  }

  /** True when every running replica answers /health with 200. */
  async healthy(): Promise<boolean> {
    const answers = await Promise.all(
      this.replicas.map(async (r) => {
        if (!r.alive) return false;
        try {
          const response = await fetch(`${r.process.url}/health`, { signal: AbortSignal.timeout(3_000) });
          return response.ok;
        } catch {
          return false;
        }
      }),
    );
    return answers.every(Boolean);
  }

  /** The failure log: the dead letters connector-registry kept in Postgres. */
  async deadLetters(): Promise<DeadLetterRow[]> {
    const rows = await this.query<{
      message_id: string | null;
      queue: string;
      reasons: string[];
      retryable: boolean;
    }>('SELECT message_id, queue, reasons, retryable FROM dead_letter');
    return rows.map((r) => ({
      messageId: r.message_id,
      queue: r.queue,
      reasons: r.reasons,
      retryable: r.retryable,
    }));
  }

  /** One statement on the scenario's database, from a connection of its own (Postgres may be restarting). */
  async query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    const client = new Client({ connectionString: this.infra.database.url });
    client.on('error', () => undefined);
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as T[];
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  /** Writes every process's output to `dir` (one file per replica), for reading after a failed scenario. */
  saveLogs(dir: string): void {
    mkdirSync(dir, { recursive: true });
    for (const r of this.replicas) {
      writeFileSync(
        join(dir, `${r.service}-${r.index}.log`),
        [...r.history, ...r.process.output].join('\n') + '\n',
      );
    }
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.replicas.map(async (r) => {
        const stopping = r.process.stop('SIGTERM');
        const timer = setTimeout(() => void r.process.stop('SIGKILL'), 15_000);
        await stopping;
        clearTimeout(timer);
      }),
    );
    await this.recorder?.close();
    await this.publisher?.close();
    for (const proxy of [this.proxies.atsA, this.proxies.atsBData, ...this.proxies.atsBAuth])
      await proxy.close();
    await this.atsA.close();
    await this.atsB.close();
    await this.files.close();
    await this.infra.drop();
  }

  private async startServices(registryPort: number): Promise<void> {
    const { options, infra } = this;
    const common: Record<string, string> = {
      ...infra.env,
      LOG_LEVEL: options.logLevel,
      // A shorter retry ladder than production's, still outlasting what the kills hold up (see its module).
      RETRY_DELAYS_MS: CHAOS_RETRY_DELAYS_MS.join(','),
      // A client gives up on an unanswered ATS call after 6 s (production: 30–60 s).
      ATS_TIMEOUT_MS: '6000',
      SCHEDULER_TICK_MS: '1000',
      ...options.env,
    };
    const encryptionKey = randomBytes(32).toString('base64');
    const plan: Array<Omit<Replica, 'process' | 'alive' | 'history'>> = [
      {
        service: 'connector-registry',
        index: 0,
        port: registryPort,
        env: { ...common, ADMIN_API_KEYS: `${ACCOUNT}:${this.adminKey}` },
      },
    ];
    for (let i = 0; i < options.replicas; i++) {
      const auth = this.proxies.atsBAuth[i];
      plan.push({
        service: 'auth-gateway',
        index: i,
        env: {
          ...common,
          ENCRYPTION_KEYS: `k1:${encryptionKey}`,
          ATS_B_OAUTH_URL: `${auth.url}/oauth`,
          ATS_B_REST_LOGIN_URL: `${auth.url}/rest-services`,
          ATS_B_REDIRECT_URI: `${this.registryUrl}/oauth/ats-b/callback`,
        },
      });
      for (const worker of options.workers) plan.push({ service: worker, index: i, env: common });
    }
    const started = await Promise.allSettled(
      plan.map(async (p) => {
        const process = await startService(p.service, p.env, READY_TIMEOUT_MS, p.port);
        this.replicas.push({ ...p, process, alive: true, history: [] });
      }),
    );
    const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;
    this.replicas.sort((a, b) => a.service.localeCompare(b.service) || a.index - b.index);
  }

  /** Both connectors of the account, made as an admin makes them (ATS-B through its login page). */
  private async setUpConnectors(clientSecret: string): Promise<void> {
    const a = await this.admin('POST', '/connectors', {
      type: 'ats-a',
      name: 'Chaos ATS-A',
      config: { baseUrl: this.proxies.atsA.url, clientId: ATS_A_CLIENT, clientSecret },
      options: { dailyCallLimit: 10_000_000 },
    });
    if (a.status !== 201) throw new Error(`ATS-A connector not created: ${a.status} ${a.text}`);
    this.connectors.atsA = String(a.body.id);

    const b = await this.admin('POST', '/connectors', {
      type: 'ats-b',
      name: 'Chaos ATS-B',
      config: { routine: 'api-oauth', sendSmartCv: false },
    });
    if (b.status !== 201) throw new Error(`ATS-B connector not created: ${b.status} ${b.text}`);
    this.connectors.atsB = String(b.body.id);
    const authorize = await this.admin('POST', `/connectors/${this.connectors.atsB}/authorize`);
    const cookie = (authorize.headers.get('set-cookie') ?? '').split(';')[0];
    const redirect = await driveLoginForm(String(authorize.body.authorizeUrl), ATS_B_LOGIN);
    const landed = await fetch(redirect, { headers: { cookie }, redirect: 'manual' });
    if (landed.status !== 302) throw new Error(`ATS-B authorization did not complete: ${landed.status}`);
    const status = await this.connectorStatuses();
    if (status[this.connectors.atsB] !== 'connected')
      throw new Error(`ATS-B connector is ${status[this.connectors.atsB]} after its login`);
  }

  /** Status of each connector of the account, as the admin API shows it. */
  async connectorStatuses(): Promise<Record<string, string>> {
    const answer = await this.admin('GET', '/connectors');
    const list = (answer.body.connectors ?? []) as Array<{ id: string; status: string }>;
    return Object.fromEntries(list.map((c) => [c.id, c.status]));
  }
}

export const CHAOS_LOG_ROOT = join(WORKSPACE_ROOT, 'tmp', 'chaos');
