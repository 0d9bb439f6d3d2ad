/**
 * `npm run db-roles -- --secrets <dir>`: a Postgres role per service, with rights on its own tables only
 * (docs/security.md, "In Postgres"). As DATABASE_URL, the migrator (owner of the tables, with CREATEROLE);
 * compiled: `node dist/tools/db-roles.js --secrets <dir>`.
 *
 *   keeps a generated password per service in <dir>/postgres-password-<service> (0600, kept across runs),
 *   creates or updates each role (`connector_registry`, …) with it, grants each its tables (and on shared
 *   tables its own rows), and writes <dir>/database-url-<service>: that service's DATABASE_URL.
 *
 * Idempotent; `npm run migrate` grants again after every migration. Passwords are never printed.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { databaseUrlAs, SERVICES, setUpServiceRoles } from './database-roles';

function fail(line: string): never {
  process.stderr.write(`✖ ${line}\n`);
  process.exit(1);
}

function writeSecret(path: string, text: string): void {
  writeFileSync(path, text, { mode: 0o600 });
  chmodSync(path, 0o600); // also when the file was there before
}

async function main(): Promise<void> {
  const index = process.argv.indexOf('--secrets');
  const secrets = index >= 0 ? process.argv[index + 1] : undefined;
  if (!secrets) fail('usage: db-roles --secrets <dir> (DATABASE_URL: the migrator, owner of the tables)');
  const url = process.env.DATABASE_URL ?? fail('DATABASE_URL (the migrator) is required');
  mkdirSync(secrets, { recursive: true });
  const passwords = Object.fromEntries(
    SERVICES.map((service) => {
      const file = join(secrets, `postgres-password-${service}`);
      const password = existsSync(file)
        ? readFileSync(file, 'utf8').trim()
        : randomBytes(24).toString('base64url');
      writeSecret(file, password);
      return [service, password];
    }),
  );
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const roles = await setUpServiceRoles(client, (service) => passwords[service]);
    for (const { service, role } of roles) {
      writeSecret(join(secrets, `database-url-${service}`), databaseUrlAs(url, role, passwords[service]));
    }
    process.stdout.write(
      `✓ database roles ${roles.map((r) => r.role).join(', ')} granted; passwords and URLs in ${secrets}\n`,
    );
  } finally {
    await client.end();
  }
}

main().catch((error: unknown) => fail((error as Error).message));
