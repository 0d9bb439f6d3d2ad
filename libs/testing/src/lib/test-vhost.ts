import { randomBytes } from 'node:crypto';
import { Exchange } from '@connector/contracts';
import { rabbitmqctl } from './rabbitmqctl';
import { createExchanges } from './shared-exchanges';
import { LOCAL_RABBITMQ_URL } from './test-services';

export interface TestVhost {
  /** RABBITMQ_URL for this suite's processes. */
  url: string;
  drop(): Promise<void>;
}

export interface TestVhostOptions {
  /** False for a vhost without the shared exchanges (what a service does before the broker set-up). */
  exchanges?: boolean;
}

/**
 * A RabbitMQ virtual host of the suite's own (`rabbitmqctl` makes it; RABBITMQCTL_NODE names its node), so
 * that services another suite or a developer's `npm start` runs on the same broker never take this suite's
 * messages, nor lose their queues to it. Without rabbitmqctl it fails: the default vhost is a running system's.
 */
export async function createTestVhost(prefix = 'test', options: TestVhostOptions = {}): Promise<TestVhost> {
  const base = new URL(process.env.RABBITMQ_URL ?? LOCAL_RABBITMQ_URL);
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const user = decodeURIComponent(base.username || 'guest');
  // One definitions import makes the vhost and the user's permissions: each rabbitmqctl run starts a VM.
  const definitions = {
    vhosts: [{ name }],
    permissions: [{ user, vhost: name, configure: '.*', write: '.*', read: '.*' }],
  };
  try {
    await rabbitmqctl(['import_definitions'], 30_000, JSON.stringify(definitions));
  } catch (error) {
    throw new Error(
      `cannot create test vhost ${name} with rabbitmqctl (${(error as Error).message}): integration tests ` +
        'need it (or RABBITMQCTL_NODE naming the node), and never fall back to the default vhost',
    );
  }
  base.pathname = `/${encodeURIComponent(name)}`;
  const vhost: TestVhost = {
    url: base.toString(),
    drop: async () => {
      await rabbitmqctl(['delete_vhost', name]).catch(() => undefined);
    },
  };
  if (options.exchanges !== false) await createSharedExchanges(vhost.url);
  return vhost;
}

/**
 * For a suite whose clients read RABBITMQ_URL (`rabbitUrl()`): a vhost of its own for the whole file, set
 * before the suite's own `beforeAll` runs, and dropped after its `afterAll`. Call it at the top of the file.
 */
export function useTestVhost(prefix: string, options: TestVhostOptions = {}): void {
  const previous = process.env.RABBITMQ_URL;
  let vhost: TestVhost | undefined;
  beforeAll(async () => {
    vhost = await createTestVhost(prefix, options);
    process.env.RABBITMQ_URL = vhost.url;
  });
  afterAll(async () => {
    if (previous === undefined) delete process.env.RABBITMQ_URL;
    else process.env.RABBITMQ_URL = previous;
    await vhost?.drop();
  });
}

/** The shared exchanges on the vhost of `url`, as the broker set-up creates them (services only check them). */
export function createSharedExchanges(url: string): Promise<void> {
  return createExchanges(url, Object.values(Exchange));
}
