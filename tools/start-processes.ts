/**
 * The parts of `npm start` (tools/start.ts) that look after its processes, kept apart so they can be tested
 * without starting the whole system: the check that every port is free before anything is launched, stopping
 * every started child (on Ctrl-C and on any failure), and what the startup output says about the admin key.
 */
import type { ChildProcess } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';

export interface PortUse {
  /** The process that will listen on it, e.g. connector-registry. */
  name: string;
  port: number;
}

/** Why the port cannot be listened on at 127.0.0.1 (e.g. EADDRINUSE), or undefined when it is free. */
export function portProblem(port: number, host = '127.0.0.1'): Promise<string | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(undefined)));
  });
}

/**
 * One line saying which of the ports are taken and what to do, or undefined when all are free. Checked before
 * anything is launched: a readiness probe on a taken port would otherwise be answered by whatever holds it
 * (often an earlier `npm start`).
 */
export async function portsInUseLine(uses: PortUse[]): Promise<string | undefined> {
  const problems = await Promise.all(
    uses.map(async (use) => ({ ...use, problem: await portProblem(use.port) })),
  );
  const taken = problems.filter((use) => use.problem !== undefined);
  if (taken.length === 0) return undefined;
  const list = taken
    .map((use) => `${use.port} (${use.name}${use.problem === 'EADDRINUSE' ? '' : `: ${use.problem}`})`)
    .join(', ');
  const ports = taken.map((use) => use.port).join(', ');
  return (
    `Port${taken.length > 1 ? 's' : ''} ${list} ${taken.length > 1 ? 'are' : 'is'} not free on 127.0.0.1, ` +
    `so nothing was started. Another \`npm start\` may still be running: stop it (Ctrl-C in its terminal), ` +
    `or free port${taken.length > 1 ? 's' : ''} ${ports} (\`lsof -i :${taken[0].port}\` shows who holds it).`
  );
}

/** Whether the child has not exited yet (as far as this process has been told). */
function running(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/** Sends SIGTERM to every running child, SIGKILL to those still there after `graceMs`, and waits for all. */
export async function stopChildren(children: ChildProcess[], graceMs = 5_000): Promise<void> {
  await Promise.all(
    children.filter(running).map(
      (child) =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            if (running(child)) child.kill('SIGKILL');
          }, graceMs);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          if (!running(child)) {
            clearTimeout(timer);
            resolve();
            return;
          }
          child.kill('SIGTERM');
        }),
    ),
  );
}

export interface ShutdownOptions {
  /** The children started so far (asked each time, so ones started later are included). */
  children: () => ChildProcess[];
  /** Defaults: process.exit, process.stderr / process.stdout, 5 s before SIGKILL. */
  exit?: (code: number) => void;
  writeError?: (text: string) => void;
  writeOut?: (text: string) => void;
  graceMs?: number;
}

export interface Shutdown {
  /** Prints `✖ line`, stops every started child and exits with 1. Later calls wait for the first. */
  fail(line: string): Promise<never>;
  /** Ctrl-C: stops every started child and exits with 0. */
  stop(): Promise<never>;
  /** Whether a stop (or failure) has begun: children exiting from then on are expected. */
  readonly stopping: boolean;
}

/** The one way `npm start` ends: whatever the reason, no child it started is left behind. */
export function createShutdown(options: ShutdownOptions): Shutdown {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const writeError = options.writeError ?? ((text: string) => void process.stderr.write(text));
  const writeOut = options.writeOut ?? ((text: string) => void process.stdout.write(text));
  let ending: Promise<never> | undefined;
  const end = (code: number, line?: string): Promise<never> => {
    if (ending) return ending;
    if (line !== undefined) writeError(`\n✖ ${line}\n`);
    ending = (async () => {
      const children = options.children().filter(running);
      if (children.length > 0) writeOut(`\nStopping ${children.length} process(es)…\n`);
      await stopChildren(children, options.graceMs);
      exit(code);
      return new Promise<never>(() => undefined);
    })();
    return ending;
  };
  return {
    fail: (line) => end(1, line),
    stop: () => end(0),
    get stopping() {
      return ending !== undefined;
    },
  };
}

/** Writes a secret file readable by its owner only, also when it was there before (with a wider mode). */
export function writeSecretFile(path: string, text: string): void {
  writeFileSync(path, text, { mode: 0o600 });
  chmodSync(path, 0o600);
}

/**
 * What the startup output says about signing in to the admin page. The demo key (ADMIN_API_KEYS unset) is
 * printed; a key the operator set is not (it would end up in terminal scroll-back and CI logs).
 */
export function signInHint(adminApiKeysFromEnv: string | undefined, demoKey: string): string {
  if (adminApiKeysFromEnv === undefined) return `sign in with the key ${demoKey}`;
  const account = (adminApiKeysFromEnv.split(',')[0] ?? '').split(':')[0];
  return `sign in with the first key of your ADMIN_API_KEYS${account ? `, account ${account}` : ''}`;
}
