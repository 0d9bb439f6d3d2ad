import { accessSync, constants } from 'node:fs';

/** Where the browser tests look for a Chromium when CHROMIUM_PATH names none: Debian's package first. */
export const CHROMIUM_CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
];

/**
 * The Chromium the browser tests drive: CHROMIUM_PATH when set (and then only it, so a wrong value is an
 * error rather than silently another browser), else the first executable candidate; undefined when none.
 */
export function findChromium(
  env: NodeJS.ProcessEnv = process.env,
  candidates: readonly string[] = CHROMIUM_CANDIDATES,
): string | undefined {
  const named = env['CHROMIUM_PATH'];
  if (named) return isExecutable(named) ? named : undefined;
  return candidates.find(isExecutable);
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
