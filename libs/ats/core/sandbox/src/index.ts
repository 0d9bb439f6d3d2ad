/**
 * What every ATS sandbox declares (libs/ats/<type>/sandbox/src/sandbox.ts exports `sandbox`), so that one runner
 * (tools/sandboxes.ts), `npm start`, docker compose and the specs start every registered ATS's sandbox without
 * naming one. Like the sandboxes, it imports no product lib.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export interface AtsSandbox {
  /** The ATS it stands in for: its adapter's `type`. */
  type: string;
  /** Its name for people, e.g. in `npm start`'s banner. */
  label: string;
  /** The port it listens on unless told otherwise (`npm start`, docker compose). */
  defaultPort: number;
  /** A path that answers 2xx once it is ready. */
  readyPath: string;
  /** How to sign in to it for a demo, for `npm start`'s banner (e.g. a client id and secret). */
  demoLogin: string;
  /** Starts it from the environment (PORT, HOST and its own variables), failing fast on a wrong one. */
  start(env: NodeJS.ProcessEnv): Promise<RunningAtsSandbox>;
  /** The connector `npm start` makes on it (the body of POST /connectors), given its address. */
  demoConnector(url: string): DemoConnector;
  /**
   * Settings the services need to reach it (e.g. an interactive login's addresses), given its address and
   * where the admin API is reached (connector-registry's `PUBLIC_URL`, `http://127.0.0.1:3000` by default).
   */
  serviceEnv?(url: string, publicUrl?: string): Record<string, string>;
}

export interface RunningAtsSandbox {
  url: string;
  /** One line saying where it listens and where its parts are. */
  describe: string;
  close(): Promise<void>;
}

export interface DemoConnector {
  type: string;
  name: string;
  config: Record<string, unknown>;
}

/**
 * The sandboxes of `types` (the registry's, in its order): each ATS's folder beside this one's
 * (libs/ats/<type>/sandbox/src/sandbox, as source or compiled), where it has one. Loaded by path: the registry
 * and production code name no sandbox.
 */
export function sandboxesOf(types: readonly string[]): AtsSandbox[] {
  return types.flatMap((type) => {
    const path = join(__dirname, '..', '..', '..', type, 'sandbox', 'src', 'sandbox');
    if (!['.ts', '.js'].some((extension) => existsSync(`${path}${extension}`))) return [];
    const { sandbox } = require(path) as { sandbox: AtsSandbox };
    if (sandbox.type !== type)
      throw new Error(`${path} declares the sandbox of ${sandbox.type}, not ${type}`);
    return [sandbox];
  });
}

/** A non-negative integer from `env[name]`, or `fallback` when unset; a wrong value throws naming the variable. */
export function intFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`${name} must be a non-negative integer, got '${raw}'`);
  return value;
}

export {
  bearerOf,
  formOf,
  jsonObjectOf,
  serveSandbox,
  type SandboxHandler,
  type SandboxReply,
  type SandboxRequest,
  type ServedSandbox,
} from './http-sandbox';
