/**
 * `npm run migrate`: applies every service's pending migrations (for deployments that run them as a step
 * and start the services with MIGRATIONS_RUN=false). Each service runs its own, under the same advisory lock,
 * as DATABASE_URL (the migrator, owner of the tables); then the services' own roles, when `npm run db-roles`
 * created them, get their rights again (a new table included). In the container image:
 * `node dist/tools/migrate.js`.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import type { BrokerService } from '@connector/messaging';
import { loadConfig, ServiceConfig } from '@connector/service-kit';
import { rabbitmqUrlSecretKey } from './broker-definitions';
import { regrantServiceRoles, SERVICES } from './database-roles';

const root = join(__dirname, '..');
const compiled = __filename.endsWith('.js');

/**
 * Each service opens the broker as its own user, with its own permissions: RABBITMQ_URL_<SERVICE> (e.g.
 * RABBITMQ_URL_AUTH_GATEWAY) when given, else the one RABBITMQ_URL (local mode).
 */
function brokerUrlOf(service: BrokerService): { RABBITMQ_URL?: string } {
  const url = process.env[rabbitmqUrlSecretKey(service)];
  return url ? { RABBITMQ_URL: url } : {};
}

for (const service of SERVICES) {
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

async function regrant(): Promise<void> {
  // The DATABASE_URL the services just migrated with (DATABASE_URL_FILE, the local default).
  const client = new Client({ connectionString: loadConfig(ServiceConfig).DATABASE_URL });
  await client.connect();
  try {
    const roles = await regrantServiceRoles(client);
    process.stdout.write(
      roles.length > 0
        ? `✓ rights of ${roles.map((r) => r.role).join(', ')}\n`
        : "✓ no service roles (every service uses DATABASE_URL's role; npm run db-roles creates them)\n",
    );
  } finally {
    await client.end();
  }
}

regrant().catch((error: unknown) => {
  process.stderr.write(`✖ granting the service roles failed: ${(error as Error).message}\n`);
  process.exit(1);
});
