// Runs before `npm start` and `npm test`: installs dependencies on a fresh clone, so one command is enough.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const lock = 'package-lock.json';
const marker = 'node_modules/.package-lock.json';
const stale =
  !existsSync(marker) || (existsSync(lock) && statSync(lock).mtimeMs > statSync(marker).mtimeMs + 1000);
if (stale) {
  console.log('Installing dependencies (first run)…');
  // Not `npm ci`: it refuses a lockfile without other platforms' optional binaries, which this registry lacks.
  execSync('npm install --no-audit --no-fund', { stdio: 'inherit' });
}
