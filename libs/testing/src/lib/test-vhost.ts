import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { LOCAL_RABBITMQ_URL } from './test-services';

const run = promisify(execFile);

export interface TestVhost {
  /** RABBITMQ_URL for this suite's processes. */
  url: string;
  drop(): Promise<void>;
}

/**
 * A RabbitMQ virtual host of the suite's own when `rabbitmqctl` is at hand, so that services another suite
 * or a developer's `npm start` runs on the same broker never take this suite's messages from the shared
 * queues. Without rabbitmqctl it falls back to the broker's default vhost.
 */
export async function createTestVhost(prefix = 'test'): Promise<TestVhost> {
  const base = new URL(process.env.RABBITMQ_URL ?? LOCAL_RABBITMQ_URL);
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  try {
    await run('rabbitmqctl', ['add_vhost', name], { timeout: 30_000 });
    const user = decodeURIComponent(base.username || 'guest');
    await run('rabbitmqctl', ['set_permissions', '-p', name, user, '.*', '.*', '.*'], { timeout: 30_000 });
  } catch {
    return { url: base.toString(), drop: async () => undefined };
  }
  base.pathname = `/${encodeURIComponent(name)}`;
  return {
    url: base.toString(),
    drop: async () => {
      await run('rabbitmqctl', ['delete_vhost', name], { timeout: 30_000 }).catch(() => undefined);
    },
  };
}
