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
 * A RabbitMQ virtual host of the suite's own when `rabbitmqctl` is at hand (RABBITMQCTL_NODE names its node), so that services another suite
 * or a developer's `npm start` runs on the same broker never take this suite's messages from the shared
 * queues. Without rabbitmqctl it falls back to the broker's default vhost.
 */
export async function createTestVhost(prefix = 'test', options: TestVhostOptions = {}): Promise<TestVhost> {
  const base = new URL(process.env.RABBITMQ_URL ?? LOCAL_RABBITMQ_URL);
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  try {
    await rabbitmqctl(['add_vhost', name]);
    const user = decodeURIComponent(base.username || 'guest');
    await rabbitmqctl(['set_permissions', '-p', name, user, '.*', '.*', '.*']);
  } catch {
    if (options.exchanges === false)
      throw new Error('a vhost without the shared exchanges needs rabbitmqctl');
    await createSharedExchanges(base.toString());
    return { url: base.toString(), drop: async () => undefined };
  }
  base.pathname = `/${encodeURIComponent(name)}`;
  if (options.exchanges !== false) await createSharedExchanges(base.toString());
  return {
    url: base.toString(),
    drop: async () => {
      await rabbitmqctl(['delete_vhost', name]).catch(() => undefined);
    },
  };
}

/** The shared exchanges on the vhost of `url`, as the broker set-up creates them (services only check them). */
export function createSharedExchanges(url: string): Promise<void> {
  return createExchanges(url, Object.values(Exchange));
}
