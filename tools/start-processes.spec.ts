import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createShutdown, portsInUseLine, signInHint, stopChildren, writeSecretFile } from './start-processes';

/** `npm start`'s process keeping (tools/start-processes.ts), without starting the system. */

function listen(host = '127.0.0.1'): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, host, () => resolve(server));
  });
}
const portOf = (server: Server) => (server.address() as { port: number }).port;
const close = (server: Server) => new Promise((resolve) => server.close(resolve));

/** Whether a process with this id still exists (signal 0 only checks). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A node child that is up (has printed "up") and, with `ignoreTerm`, shrugs off SIGTERM. */
async function dummyChild(ignoreTerm = false): Promise<ChildProcess> {
  const code = `${ignoreTerm ? "process.on('SIGTERM', () => undefined);" : ''} setInterval(() => undefined, 1000); console.log('up');`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'ignore'] });
  await new Promise((resolve) => child.stdout!.once('data', resolve));
  return child;
}

describe('portsInUseLine', () => {
  it('is undefined when every port is free', async () => {
    const server = await listen();
    const port = portOf(server);
    await close(server);
    await expect(portsInUseLine([{ name: 'connector-registry', port }])).resolves.toBeUndefined();
  });

  it('names a taken port, its process and what to do, in one line', async () => {
    const server = await listen();
    const port = portOf(server);
    try {
      const line = await portsInUseLine([{ name: 'connector-registry', port }]);
      expect(line).toContain(`Port ${port} (connector-registry) is not free`);
      expect(line).toContain('nothing was started');
      expect(line).toContain('Another `npm start` may still be running');
      expect(line).toContain(`free port ${port}`);
      expect(line).not.toContain('\n');
    } finally {
      await close(server);
    }
  });

  it('also sees a port held on every interface, as a service started with HOST=0.0.0.0 holds it', async () => {
    const server = await listen('0.0.0.0');
    try {
      expect(await portsInUseLine([{ name: 'auth-gateway', port: portOf(server) }])).toContain(
        'auth-gateway',
      );
    } finally {
      await close(server);
    }
  });

  it('lists every taken port, not just the first', async () => {
    const [a, b] = await Promise.all([listen(), listen()]);
    try {
      const line = await portsInUseLine([
        { name: 'ats-a-sandbox', port: portOf(a) },
        { name: 'vacancy-sync', port: portOf(b) },
      ]);
      expect(line).toContain(`Ports ${portOf(a)} (ats-a-sandbox), ${portOf(b)} (vacancy-sync) are not free`);
    } finally {
      await Promise.all([close(a), close(b)]);
    }
  });
});

describe('npm start with a port taken', () => {
  it('stops with the one line naming the port before it launches or reaches anything', async () => {
    const server = await listen();
    const port = portOf(server);
    try {
      const run = spawnSync(process.execPath, ['-r', '@swc-node/register', join(__dirname, 'start.ts')], {
        cwd: join(__dirname, '..'),
        encoding: 'utf8',
        timeout: 60_000,
        env: {
          ...process.env,
          START_SANDBOXES: 'true',
          ATS_B_SANDBOX_PORT: String(port),
          // Unreachable: the port check comes before these are even tried.
          DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
          RABBITMQ_URL: 'amqp://nobody:x@127.0.0.1:1',
        },
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(`${port} (ats-b-sandbox)`);
      expect(run.stderr).toContain('nothing was started');
      expect(run.stderr).not.toContain('not reachable');
      expect(run.stdout).not.toContain('Starting');
    } finally {
      await close(server);
    }
  }, 90_000);
});

describe('stopChildren', () => {
  it('stops a running child with SIGTERM and waits until it is gone', async () => {
    const child = await dummyChild();
    await stopChildren([child]);
    expect(child.signalCode).toBe('SIGTERM');
    expect(alive(child.pid!)).toBe(false);
  });

  it('kills a child that ignores SIGTERM once the grace time is over', async () => {
    const child = await dummyChild(true);
    await stopChildren([child], 200);
    expect(child.signalCode).toBe('SIGKILL');
    expect(alive(child.pid!)).toBe(false);
  });

  it('returns at once for a child that has already exited', async () => {
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    await new Promise((resolve) => child.once('exit', resolve));
    await stopChildren([child]);
  });
});

describe('createShutdown', () => {
  const quiet = { writeOut: () => undefined };

  it('fail: prints the line, stops every started child and only then exits with 1', async () => {
    const children = [await dummyChild(), await dummyChild(true)];
    const errors: string[] = [];
    let aliveAtExit: boolean[] = [];
    const exited = new Promise<number>((resolve) => {
      const shutdown = createShutdown({
        ...quiet,
        children: () => children,
        graceMs: 300,
        writeError: (text) => errors.push(text),
        exit: (code) => {
          aliveAtExit = children.map((child) => alive(child.pid!));
          resolve(code);
        },
      });
      void shutdown.fail('ats-b-sandbox stopped unexpectedly (exit 1)');
      expect(shutdown.stopping).toBe(true);
    });
    expect(await exited).toBe(1);
    expect(aliveAtExit).toEqual([false, false]);
    expect(errors).toEqual(['\n✖ ats-b-sandbox stopped unexpectedly (exit 1)\n']);
  });

  it('a second failure while stopping prints nothing more and exits once', async () => {
    const child = await dummyChild();
    const errors: string[] = [];
    const exits: number[] = [];
    const shutdown = createShutdown({
      ...quiet,
      children: () => [child],
      writeError: (text) => errors.push(text),
      exit: (code) => exits.push(code),
    });
    void shutdown.fail('first');
    void shutdown.fail('second, e.g. the child stopping');
    void shutdown.stop();
    await new Promise((resolve) => child.once('exit', resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(errors).toEqual(['\n✖ first\n']);
    expect(exits).toEqual([1]);
  });

  it('stop (Ctrl-C): stops the children and exits with 0', async () => {
    const child = await dummyChild();
    const code = await new Promise<number>((resolve) => {
      void createShutdown({ ...quiet, children: () => [child], exit: resolve }).stop();
    });
    expect(code).toBe(0);
    expect(alive(child.pid!)).toBe(false);
  });

  it('exits at once when nothing was started yet', async () => {
    const code = await new Promise<number>((resolve) => {
      void createShutdown({ ...quiet, writeError: () => undefined, children: () => [], exit: resolve }).fail(
        'Postgres is not reachable',
      );
    });
    expect(code).toBe(1);
  });
});

describe('writeSecretFile', () => {
  it('leaves the file readable by its owner only, also when it was there with a wider mode', () => {
    const dir = mkdtempSync(join(tmpdir(), 'start-secret-'));
    try {
      const file = join(dir, 'broker-passwords.json');
      writeFileSync(file, '{}', { mode: 0o644 });
      writeSecretFile(file, '{"platform":"x"}');
      expect(statSync(file).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('signInHint', () => {
  it('names the demo key when ADMIN_API_KEYS is not set', () => {
    expect(signInHint(undefined, 'demo-admin-key')).toBe('sign in with the key demo-admin-key');
  });

  it('never prints a key the operator set', () => {
    const hint = signInHint('acct_ops:s3cret-key-of-the-operator,acct_b:other', 's3cret-key-of-the-operator');
    expect(hint).not.toContain('s3cret');
    expect(hint).toBe('sign in with the first key of your ADMIN_API_KEYS, account acct_ops');
  });
});
