/**
 * `npm run migrate`: applies every service's pending migrations (for deployments that run them as a step
 * and start the services with MIGRATIONS_RUN=false). Each service runs its own, under the same advisory lock.
 * In the container image: `node dist/tools/migrate.js`.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { BrokerService } from '@connector/messaging';
import { rabbitmqUrlSecretKey } from './broker-definitions';

const root = join(__dirname, '..');
const compiled = __filename.endsWith('.js');
const services: BrokerService[] = [
  'connector-registry',
  'auth-gateway',
  'vacancy-sync',
  'candidate-sync',
  'document-service',
];

/**
 * Each service opens the broker as its own user, with its own permissions: RABBITMQ_URL_<SERVICE> (e.g.
 * RABBITMQ_URL_AUTH_GATEWAY) when given, else the one RABBITMQ_URL (local mode).
 */
function brokerUrlOf(service: BrokerService): { RABBITMQ_URL?: string } {
  const url = process.env[rabbitmqUrlSecretKey(service)];
  return url ? { RABBITMQ_URL: url } : {};
}

for (const service of services) {
  const run = spawnSync(
    process.execPath,
    // Compiled (dist/tools/migrate.js, the container image): the compiled services; else the sources.
    compiled
      ? [join(root, 'apps', service, 'src', 'main.js'), '--migrate']
      : ['-r', '@swc-node/register', join('apps', service, 'src', 'main.ts'), '--migrate'],
    {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn', ...brokerUrlOf(service) },
      stdio: 'inherit',
    },
  );
  if (run.status !== 0) {
    process.stderr.write(`✖ migrations of ${service} failed (exit ${run.status ?? run.signal})\n`);
    process.exit(1);
  }
  process.stdout.write(`✓ ${service}\n`);
}
