import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

/** Where `npm test` puts the promtool it takes from Debian's prometheus package (tools/ensure-test-tools.ts). */
export const PROMTOOL_CACHE = resolve(__dirname, '../../../../node_modules/.cache/promtool/promtool');

/**
 * The promtool the observability checks run: PROMTOOL when set (and then only it), else `promtool` on PATH,
 * else the one `npm test` extracted; undefined when none runs.
 */
export function findPromtool(
  env: NodeJS.ProcessEnv = process.env,
  candidates: readonly string[] = ['promtool', PROMTOOL_CACHE],
): string | undefined {
  const named = env['PROMTOOL'];
  if (named) return runs(named) ? named : undefined;
  return candidates.find(runs);
}

function runs(command: string): boolean {
  return spawnSync(command, ['--version'], { stdio: 'ignore' }).status === 0;
}
