/**
 * Runs before `npm test`: the admin page's browser test drives a Chromium. Finds one (CHROMIUM_PATH or
 * Debian's), installs Debian's package when it can (root with apt-get), otherwise stops at once with one line
 * saying what to install, instead of eight browser tests failing minutes later.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { findChromium } from '@connector/testing';

const HOW =
  "install Debian's chromium (`sudo apt-get install -y chromium`) or set CHROMIUM_PATH to a Chromium or Chrome executable";

function fail(line: string): never {
  process.stderr.write(`✖ ${line}\n`);
  process.exit(1);
}

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (result.status !== 0) fail(`\`${command} ${args.join(' ')}\` failed; ${HOW}.`);
}

function main(): void {
  if (findChromium()) return;
  const named = process.env['CHROMIUM_PATH'];
  if (named) fail(`CHROMIUM_PATH (${named}) is not an executable file; ${HOW}.`);

  const canInstall = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
  if (!canInstall) fail(`The admin page's browser test needs Chromium: ${HOW}.`);

  process.stdout.write(
    "Installing Debian's chromium for the admin page's browser test (once; a few minutes)…\n",
  );
  run('apt-get', ['update', '-qq']);
  run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium']);
  const found = findChromium();
  if (!found) fail(`chromium was installed but no executable was found; ${HOW}.`);
  process.stdout.write(`Chromium: ${found}\n`);
}

main();
