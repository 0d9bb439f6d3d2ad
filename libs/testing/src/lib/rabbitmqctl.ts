import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Runs `rabbitmqctl` against the node RABBITMQCTL_NODE names (a private broker, e.g. the one the chaos
 * suite restarts instead of the shared one), or against its default node when unset. `input` goes to its
 * standard input (`import_definitions` reads a document there).
 */
export async function rabbitmqctl(args: string[], timeoutMs = 30_000, input = ''): Promise<void> {
  const node = process.env.RABBITMQCTL_NODE;
  const running = run('rabbitmqctl', node ? ['-n', node, ...args] : args, { timeout: timeoutMs });
  running.child.stdin?.end(input);
  await running;
}
