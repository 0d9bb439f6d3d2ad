import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

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

/** Spawns `apps/<name>/src/main.ts` as its own process, the way `npm start` and production run it. */
export function spawnService(name: string, env: Record<string, string>, port: number): ServiceProcess {
  // SERVICE_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=tmp/profiles") profiles the services a test or bench runs.
  const nodeArgs = (process.env.SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(
    process.execPath,
    [...nodeArgs, '-r', '@swc-node/register', join('apps', name, 'src', 'main.ts')],
    {
      cwd: WORKSPACE_ROOT,
      env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'info', ...env, PORT: String(port) },
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

/** Spawns a service and waits until its `/health` says ready (RabbitMQ and Postgres reachable). */
export async function startService(
  name: string,
  env: Record<string, string>,
  readyTimeoutMs = 60_000,
): Promise<ServiceProcess> {
  const service = spawnService(name, env, await freePort());
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
