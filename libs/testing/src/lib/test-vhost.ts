import { randomBytes } from 'node:crypto';
import { rabbitmqctl } from './rabbitmqctl';
import { LOCAL_RABBITMQ_URL } from './test-services';

export interface TestVhost {
  /** RABBITMQ_URL for this suite's processes. */
  url: string;
  drop(): Promise<void>;
}

/**
 * A RabbitMQ virtual host of the suite's own when `rabbitmqctl` is at hand (RABBITMQCTL_NODE names its node), so that services another suite
 * or a developer's `npm start` runs on the same broker never take this suite's messages from the shared
 * queues. Without rabbitmqctl it falls back to the broker's default vhost.
 */
export async function createTestVhost(prefix = 'test'): Promise<TestVhost> {
  const base = new URL(process.env.RABBITMQ_URL ?? LOCAL_RABBITMQ_URL);
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  try {
    await rabbitmqctl(['add_vhost', name]);
    const user = decodeURIComponent(base.username || 'guest');
    await rabbitmqctl(['set_permissions', '-p', name, user, '.*', '.*', '.*']);
  } catch {
    return { url: base.toString(), drop: async () => undefined };
  }
  base.pathname = `/${encodeURIComponent(name)}`;
  return {
    url: base.toString(),
    drop: async () => {
      await rabbitmqctl(['delete_vhost', name]).catch(() => undefined);
    },
  };
}
