import amqplib from 'amqplib';
import { Client } from 'pg';

/** The database `npm start` uses by default (tools/start.ts): a test must never touch it. */
export const START_DATABASE = 'ats_connector_local';

/** What a test may not touch: the running system's vhost and database. */
export class HermeticGuardError extends Error {
  constructor(what: string) {
    super(
      `hermetic guard: this test touches ${what}, where \`npm start\` runs. Give the suite its own: ` +
        'createTestVhost / useTestVhost for RabbitMQ, createTestDatabase for Postgres (libs/testing/README.md).',
    );
    this.name = HermeticGuardError.name;
  }
}

/** The vhost an amqplib `connect` argument names: a URL's path, or an options object's `vhost`. */
export function vhostOf(target: unknown): string {
  if (typeof target === 'object' && target !== null) {
    const vhost = (target as { vhost?: unknown }).vhost;
    return typeof vhost === 'string' && vhost ? vhost : '/';
  }
  const path = new URL(String(target ?? 'amqp://localhost')).pathname;
  return path.length > 1 ? decodeURIComponent(path.slice(1)) : '/';
}

/** Throws when `target` (amqplib.connect's first argument) is the broker's default vhost. */
export function refuseDefaultVhost(target: unknown): void {
  if (vhostOf(target) === '/') throw new HermeticGuardError(`RabbitMQ's default vhost "/"`);
}

/** Throws when `database` is the one `npm start` uses. */
export function refuseStartDatabase(database: string | undefined): void {
  if (database === START_DATABASE) throw new HermeticGuardError(`the database ${START_DATABASE}`);
}

let installed = false;

/**
 * Wraps amqplib's `connect` (amqp-connection-manager calls it too) and pg's `Client#connect` (pools make
 * clients) in this test process so that they refuse the default vhost and the start database. A jest
 * `setupFiles` entry of the integration config installs it for every integration and e2e suite.
 */
export function installHermeticGuard(): void {
  if (installed) return;
  installed = true;
  const connect = amqplib.connect.bind(amqplib);
  const guardedConnect = ((url: unknown, ...rest: unknown[]) => {
    try {
      refuseDefaultVhost(url);
    } catch (error) {
      return Promise.reject(error);
    }
    return (connect as (...args: unknown[]) => unknown)(url, ...rest);
  }) as typeof amqplib.connect;
  amqplib.connect = guardedConnect;
  const clientConnect = Client.prototype.connect;
  Client.prototype.connect = function guarded(this: Client, ...args: unknown[]) {
    try {
      refuseStartDatabase(this.database);
    } catch (error) {
      const callback = args[0];
      if (typeof callback === 'function') {
        (callback as (error: unknown) => void)(error);
        return undefined;
      }
      return Promise.reject(error);
    }
    return (clientConnect as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof Client.prototype.connect;
}
