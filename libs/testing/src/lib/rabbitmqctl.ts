import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Runs `rabbitmqctl` against the node RABBITMQCTL_NODE names (a private broker, e.g. the one the chaos
 * suite restarts instead of the shared one), or against its default node when unset.
 */
export async function rabbitmqctl(args: string[], timeoutMs = 30_000): Promise<void> {
  const node = process.env.RABBITMQCTL_NODE;
  await run('rabbitmqctl', node ? ['-n', node, ...args] : args, { timeout: timeoutMs });
}
