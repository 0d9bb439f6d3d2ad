/**
 * `npm run migrate`: applies every service's pending migrations (for deployments that run them as a step
 * and start the services with MIGRATIONS_RUN=false). Each service runs its own, under the same advisory lock.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..');
const services = ['connector-registry', 'auth-gateway', 'vacancy-sync', 'candidate-sync', 'document-service'];

for (const service of services) {
  const run = spawnSync(
    process.execPath,
    ['-r', '@swc-node/register', join('apps', service, 'src', 'main.ts'), '--migrate'],
    {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
      stdio: 'inherit',
    },
  );
  if (run.status !== 0) {
    process.stderr.write(`✖ migrations of ${service} failed (exit ${run.status ?? run.signal})\n`);
    process.exit(1);
  }
  process.stdout.write(`✓ ${service}\n`);
}
