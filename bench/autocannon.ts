/** What the sandbox throughput benches share: autocannon in a process of its own, and their env knobs. */
import { execFile } from 'node:child_process';
import { join } from 'node:path';

export interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
}

export interface LoadOptions {
  method: string;
  body?: unknown;
  headers: Record<string, string>;
  duration: number;
  connections: number;
}

/** A positive integer from the environment, or `fallback`. */
export function intEnv(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer`);
  return value;
}

/** Loads `url` with autocannon run as a separate process, so it never shares the sandbox's event loop. */
export function autocannon(url: string, options: LoadOptions): Promise<AutocannonResult> {
  const bin = join(__dirname, '..', 'node_modules', '.bin', 'autocannon');
  const args = [
    '-j',
    '-c',
    String(options.connections),
    '-d',
    String(options.duration),
    '-m',
    options.method,
  ];
  if (options.body !== undefined) args.push('-b', JSON.stringify(options.body));
  for (const [key, value] of Object.entries(options.headers)) args.push('-H', `${key}=${value}`);
  args.push(url);
  return new Promise((resolve, reject) => {
    execFile(bin, args, { maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => {
      if (error) reject(error);
      else resolve(JSON.parse(stdout) as AutocannonResult);
    });
  });
}
