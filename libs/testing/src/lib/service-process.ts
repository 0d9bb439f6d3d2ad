import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { refuseDefaultVhost, refuseStartDatabase } from './hermetic-guard';

export const WORKSPACE_ROOT = join(__dirname, '..', '..', '..', '..');

export interface ServiceProcess {
  name: string;
  url: string;
  port: number;
  child: ChildProcess;
  /** Every line the process wrote to stdout and stderr so far. */
  output: string[];
  /** Sends `signal` and resolves with the exit code once the process has ended. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  exited: Promise<number | null>;
}

/**
 * How many times the processes handled a message and acknowledged it: the transport's debug line, so the
 * processes run with LOG_LEVEL=debug.
 */
export function timesHandled(processes: ServiceProcess[], type: string, id: string): number {
  const line = `handled ${type} ${id} (attempt`;
  return processes.flatMap((p) => p.output).filter((l) => l.includes(line)).length;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Spawns `apps/<name>/src/main.ts` as its own process, the way `npm start` and production run it. `root`: the
 * checkout to run it from (a bench compares with an older one), this one by default.
 */
export function spawnService(
  name: string,
  env: Record<string, string>,
  port: number,
  root = WORKSPACE_ROOT,
): ServiceProcess {
  // The guard of this process does not reach a child: its URLs are checked here, before it starts.
  const childEnv = { ...process.env, ...env };
  // (A URL that is not one, as a test of config validation passes, the service refuses by itself.)
  const { RABBITMQ_URL: rabbitmq = 'amqp://localhost', DATABASE_URL: database } = childEnv;
  if (/^amqps?:\/\//i.test(rabbitmq)) refuseDefaultVhost(rabbitmq);
  if (database && URL.canParse(database)) refuseStartDatabase(new URL(database).pathname.slice(1));
  // SERVICE_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=tmp/profiles") profiles the services a test or bench runs.
  const nodeArgs = (process.env.SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(
    process.execPath,
    [...nodeArgs, '-r', '@swc-node/register', join('apps', name, 'src', 'main.ts')],
    {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
        // The sandboxes and file servers tests start listen on 127.0.0.1 over plain http: allowed explicitly.
        ALLOW_PRIVATE_ADDRESSES: 'loopback',
        ...env,
        PORT: String(port),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const output: string[] = [];
  const collect = (chunk: Buffer) => output.push(...chunk.toString().split('\n').filter(Boolean));
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    name,
    port,
    url: `http://127.0.0.1:${port}`,
    child,
    output,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/**
 * Spawns a service and waits until its `/health` says ready (RabbitMQ and Postgres reachable). `port` when
 * another process must know the address before the service is up (a free one otherwise).
 */
export async function startService(
  name: string,
  env: Record<string, string>,
  readyTimeoutMs = 60_000,
  port?: number,
  root?: string,
): Promise<ServiceProcess> {
  const service = spawnService(name, env, port ?? (await freePort()), root);
  const deadline = Date.now() + readyTimeoutMs;
  let exitCode: number | null | undefined;
  void service.exited.then((code) => (exitCode = code));
  while (Date.now() < deadline) {
    if (exitCode !== undefined) {
      throw new Error(
        `${name} exited with ${exitCode} before it was ready:\n${service.output.slice(-20).join('\n')}`,
      );
    }
    try {
      const response = await fetch(`${service.url}/health`);
      if (response.ok) return service;
    } catch {
      /* not listening yet */
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await service.stop('SIGKILL');
  throw new Error(
    `${name} was not ready within ${readyTimeoutMs} ms:\n${service.output.slice(-20).join('\n')}`,
  );
}
