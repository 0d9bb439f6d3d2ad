/**
 * Runs before `npm test`: what the tests drive besides Node, Postgres and RabbitMQ.
 * - Chromium (required: the admin page's browser test): CHROMIUM_PATH or Debian's; installs Debian's package
 *   when it can (root with apt-get), otherwise stops at once with one line saying what to install, instead of
 *   eight browser tests failing minutes later.
 * - promtool (for `promtool check rules` on the alert rules): PROMTOOL, on PATH, or taken out of Debian's
 *   prometheus package into node_modules/.cache (nothing installed system-wide, no daemon started). Without
 *   it the check falls back to the rule-file schema and says so.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { findChromium, findPromtool, PROMTOOL_CACHE } from '@connector/testing';

const HOW =
  "install Debian's chromium (`sudo apt-get install -y chromium`) or set CHROMIUM_PATH to a Chromium or Chrome executable";

const canApt = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');

function fail(line: string): never {
  process.stderr.write(`✖ ${line}\n`);
  process.exit(1);
}

function run(command: string, args: string[], cwd?: string): boolean {
  const result = spawnSync(command, args, {
    stdio: 'inherit',
    cwd,
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return result.status === 0;
}

let aptUpdated = false;
function aptUpdate(): boolean {
  aptUpdated ||= run('apt-get', ['update', '-qq']);
  return aptUpdated;
}

function ensureChromium(): void {
  if (findChromium()) return;
  const named = process.env['CHROMIUM_PATH'];
  if (named) fail(`CHROMIUM_PATH (${named}) is not an executable file; ${HOW}.`);
  if (!canApt) fail(`The admin page's browser test needs Chromium: ${HOW}.`);

  process.stdout.write(
    "Installing Debian's chromium for the admin page's browser test (once; a few minutes)…\n",
  );
  if (!aptUpdate() || !run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'])) {
    fail(`installing chromium with apt-get failed; ${HOW}.`);
  }
  const found = findChromium();
  if (!found) fail(`chromium was installed but no executable was found; ${HOW}.`);
  process.stdout.write(`Chromium: ${found}\n`);
}

function ensurePromtool(): void {
  if (findPromtool() || process.env['PROMTOOL'] || !canApt) return;
  process.stdout.write("Taking promtool out of Debian's prometheus package (once)…\n");
  const work = mkdtempSync(join(tmpdir(), 'promtool-'));
  chmodSync(work, 0o777); // apt-get downloads as its own user
  try {
    const downloaded =
      run('apt-get', ['download', '-qq', 'prometheus'], work) ||
      (aptUpdate() && run('apt-get', ['download', '-qq', 'prometheus'], work));
    const deb = readdirSync(work).find((name) => name.endsWith('.deb'));
    if (!downloaded || !deb || !run('dpkg-deb', ['-x', deb, 'x'], work)) {
      process.stdout.write('promtool not available: the alert rules are checked by their schema only.\n');
      return;
    }
    mkdirSync(dirname(PROMTOOL_CACHE), { recursive: true });
    copyFileSync(join(work, 'x/usr/bin/promtool'), PROMTOOL_CACHE);
    process.stdout.write(`promtool: ${PROMTOOL_CACHE}\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

ensureChromium();
ensurePromtool();
