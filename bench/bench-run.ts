/**
 * What the benches that run the services as processes share: their knobs from the environment, a pool of
 * concurrent work, and a run that stops by itself (every process it started ended, its database and vhost
 * dropped, on a signal or past its deadline).
 */
import { startService, type ServiceProcess, type SuiteInfrastructure } from '@connector/testing';

/** A knob: a non-negative number from `name`, `fallback` when unset. */
export const envNumber = (name: string, fallback: number): number => {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isFinite(value) || value < 0)
    throw new Error(`${name} must be a non-negative number, got "${raw}"`);
  return value;
};

/** `K=V K=V` → { K: V }. */
export const envPairs = (name: string): Record<string, string> =>
  Object.fromEntries(
    (process.env[name] ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((pair) => {
        const at = pair.indexOf('=');
        if (at <= 0) throw new Error(`${name} must be "KEY=value KEY=value", got "${pair}"`);
        return [pair.slice(0, at), pair.slice(at + 1)];
      }),
  );

/** Runs `work` over 0..count-1, `limit` at a time. */
export async function inPool<T>(count: number, limit: number, work: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array<T>(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, count) }, async () => {
      for (let i = next++; i < count; i = next++) results[i] = await work(i);
    }),
  );
  return results;
}

/** The value below which a share `p` of `sorted` (ascending) lies; NaN when empty. */
export const percentile = (sorted: number[], p: number): number =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

/** Every service process started and not yet stopped: ended on a signal, a failed start or the deadline. */
const running = new Set<ServiceProcess>();

/** Starts a service process that `abandon` ends if the bench does not stop it itself. */
export async function startBenchService(name: string, env: Record<string, string>): Promise<ServiceProcess> {
  const service = await startService(name, env);
  running.add(service);
  void service.exited.then(() => running.delete(service));
  return service;
}

/** Stops every service process still running (after a failed start, say). */
export async function stopBenchServices(): Promise<void> {
  await Promise.all([...running].map((p) => p.stop()));
}

/** The row's database and vhost, dropped on a signal or the deadline too. */
let infrastructure: SuiteInfrastructure | undefined;

/** The database and vhost in use (`undefined` once dropped), for `abandon` to drop. */
export function useInfrastructure(infra: SuiteInfrastructure | undefined): void {
  infrastructure = infra;
}

/** Ends every process started, drops the row's database and vhost, and exits. */
function abandon(code: number): void {
  for (const service of running) service.child.kill('SIGKILL');
  const drop = infrastructure?.drop() ?? Promise.resolve();
  void drop.catch(() => undefined).finally(() => process.exit(code));
}

/**
 * Runs `main` so that it stops by itself: a signal, or a run far past `deadlineMs`, ends every process it
 * started; the exit code says how it ended.
 */
export function runBench(name: string, deadlineMs: number, main: () => Promise<void>): void {
  setTimeout(() => {
    process.stderr.write(`${name}: still running after ${deadlineMs / 60_000} minutes: stopping\n`);
    abandon(2);
  }, deadlineMs).unref();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => abandon(130));
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
      abandon(1);
    },
  );
}
