import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrokerService } from '@connector/messaging';
import { setUpVhostBrokerUsers, type VhostBrokerUsers } from '@connector/messaging/testing';
import {
  createTestDatabase,
  createTestVhost,
  eventually,
  freePort,
  WORKSPACE_ROOT,
  type TestDatabase,
  type TestVhost,
} from '@connector/testing';
import { atsRegistry } from '@connector/ats-registry';
import { sandboxesOf } from '@connector/ats-sandbox-core';

/**
 * What the container image runs: `npm run build` compiles once into dist/, and each service starts from the
 * compiled JavaScript with NODE_ENV=production (no TypeScript at start). Without its required variables a
 * service exits naming them; with them it migrates (`dist/tools/migrate.js`) and serves /health.
 */
const DIST = join('tmp', 'dist-e2e');
const SERVICES: BrokerService[] = [
  'connector-registry',
  'auth-gateway',
  'vacancy-sync',
  'candidate-sync',
  'document-service',
];
const BROKER = ['DATABASE_URL', 'RABBITMQ_URL', 'RABBITMQ_USERS'];
const REQUIRED: Record<string, string[]> = {
  'connector-registry': ['ADMIN_API_KEYS', 'ADMIN_ID_SECRET', 'REQUEST_SEAL_KEYS', ...BROKER],
  'auth-gateway': [
    ...BROKER,
    'ENCRYPTION_KEYS',
    'REQUEST_SEAL_KEYS',
    'ATS_B_CLIENT_SECRET',
    'ATS_B_CLIENT_ID',
  ],
  'vacancy-sync': BROKER,
  'candidate-sync': [...BROKER, 'FIELD_HASH_KEY'],
  'document-service': BROKER,
};

function mainOf(app: string): string {
  return join(WORKSPACE_ROOT, DIST, 'apps', app, 'src', 'main.js');
}

/** Only what a container would have: no inherited DATABASE_URL or RABBITMQ_URL from the test run. */
function productionEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, NODE_ENV: 'production', LOG_LEVEL: 'warn', ...extra };
}

describe('the production build', () => {
  let database: TestDatabase;
  let vhost: TestVhost;
  let required: Record<string, string>;
  let users: VhostBrokerUsers;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    execFileSync(process.execPath, [join(WORKSPACE_ROOT, 'tools', 'build.mjs'), DIST], {
      cwd: WORKSPACE_ROOT,
      stdio: 'pipe',
    });
    [database, vhost] = await Promise.all([createTestDatabase('prodbuild'), createTestVhost('prodbuild')]);
    // Production wants a broker user per service.
    users = await setUpVhostBrokerUsers(vhost.url);
    required = {
      DATABASE_URL: database.url,
      ...users.envOf('connector-registry'),
      // The migrate step runs each service's migrations as its own broker user.
      ...Object.fromEntries(
        SERVICES.map((app) => [`RABBITMQ_URL_${app.toUpperCase().replace(/-/g, '_')}`, users.urlOf(app)]),
      ),
      // Production takes only keys of 32+ random characters.
      ADMIN_API_KEYS: `acct_prod:${randomBytes(24).toString('hex')}`,
      ADMIN_ID_SECRET: randomBytes(33).toString('base64'),
      ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
      REQUEST_SEAL_KEYS: `k1:${randomBytes(32).toString('base64')}`,
      FIELD_HASH_KEY: randomBytes(33).toString('base64'),
      ATS_B_CLIENT_ID: 'platform-client',
      ATS_B_CLIENT_SECRET: randomBytes(12).toString('hex'),
      ATS_B_REDIRECT_URI: 'https://connectors.example.com/oauth/ats-b/callback',
    };
  }, 240_000);

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await users?.remove();
    await Promise.all([database?.drop(), vhost?.drop()]);
  });

  it.each(SERVICES)('%s refuses to start in production without its variables, naming each', (app) => {
    const run = spawnSync(process.execPath, [mainOf(app)], { env: productionEnv(), encoding: 'utf8' });
    expect(run.status).toBe(1);
    for (const name of REQUIRED[app] ?? []) {
      expect(run.stderr).toContain(`${name} is required when NODE_ENV=production`);
    }
  });

  it('runs the migrations from the compiled output', () => {
    const run = spawnSync(process.execPath, [join(WORKSPACE_ROOT, DIST, 'tools', 'migrate.js')], {
      env: productionEnv(required),
      encoding: 'utf8',
    });
    expect(run.stderr).not.toMatch(/✖/);
    expect(run.status).toBe(0);
    // One line per service, then the grants: none here, every service being DATABASE_URL's role.
    expect(run.stdout.match(/✓/g)).toHaveLength(SERVICES.length + 1);
    expect(run.stdout).toContain('✓ no service roles');
  }, 120_000);

  it('starts every service from the compiled output with MIGRATIONS_RUN=false, ready on /health', async () => {
    const started = await Promise.all(
      SERVICES.map(async (app) => {
        const port = await freePort();
        const child = spawn(process.execPath, [mainOf(app)], {
          env: productionEnv({
            ...required,
            ...users.envOf(app),
            MIGRATIONS_RUN: 'false',
            PORT: String(port),
          }),
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        children.push(child);
        const output: string[] = [];
        child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
        child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
        return { app, port, child, output };
      }),
    );
    for (const { app, port, child, output } of started) {
      await eventually(
        async () => {
          if (child.exitCode !== null)
            throw new Error(`${app} exited ${child.exitCode}:\n${output.join('')}`);
          return (await fetch(`http://127.0.0.1:${port}/health`)).ok;
        },
        60_000,
        `${app} ready`,
      );
      expect((await fetch(`http://127.0.0.1:${port}/health/live`)).status).toBe(200);
    }
    const registry = started[0]!;
    // The admin page's static files and the OpenAPI document are part of the build.
    expect((await fetch(`http://127.0.0.1:${registry.port}/admin/app.js`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${registry.port}/api/docs-json`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${registry.port}/api/v1/connectors`)).status).toBe(401);
    for (const { child } of started) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  }, 180_000);

  it('writes the broker users, their definitions and URLs from the compiled output, keeping the passwords', () => {
    const secrets = mkdtempSync(join(tmpdir(), 'broker-secrets-'));
    const tool = join(WORKSPACE_ROOT, DIST, 'tools', 'broker-users.js');
    const args = [tool, '--secrets', secrets, '--url', 'amqps://mq.example.internal:5671/ats'];
    const first = spawnSync(process.execPath, args, { env: productionEnv(), encoding: 'utf8' });
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    const url = readFileSync(join(secrets, 'rabbitmq-url-auth-gateway'), 'utf8');
    expect(url).toMatch(/^amqps:\/\/auth-gateway:[\w-]{32}@mq\.example\.internal:5671\/ats$/);
    expect(first.stdout).not.toContain(new URL(url).password);
    expect(statSync(join(secrets, 'rabbitmq-url-auth-gateway')).mode & 0o777).toBe(0o600);
    const definitions = JSON.parse(readFileSync(join(secrets, 'rabbitmq-definitions.json'), 'utf8')) as {
      users: Array<{ name: string; password_hash: string }>;
      vhosts: Array<{ name: string }>;
    };
    expect(definitions.vhosts).toEqual([{ name: 'ats' }]);
    expect(definitions.users.map((user) => user.name)).toEqual([...SERVICES, 'platform']);
    expect(spawnSync(process.execPath, args, { env: productionEnv() }).status).toBe(0);
    expect(readFileSync(join(secrets, 'rabbitmq-url-auth-gateway'), 'utf8')).toBe(url);
  });

  it.each(sandboxesOf(atsRegistry.types()).map((sandbox) => [sandbox.type, sandbox] as const))(
    "%s's sandbox starts from the compiled output, through the one runner",
    async (type, { readyPath }) => {
      const port = await freePort();
      const app = `${type} sandbox`;
      const child = spawn(process.execPath, [join(WORKSPACE_ROOT, DIST, 'tools', 'sandboxes.js'), type], {
        env: productionEnv({ PORT: String(port) }),
        stdio: 'ignore',
      });
      children.push(child);
      await eventually(
        async () => {
          if (child.exitCode !== null) throw new Error(`${app} exited ${child.exitCode}`);
          return (await fetch(`http://127.0.0.1:${port}${readyPath}`)).ok;
        },
        30_000,
        `${app} ready`,
      );
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    },
  );

  it("leaves every sandbox out of the production image's output, as the Dockerfile strips it", () => {
    const dockerfile = readFileSync(join(WORKSPACE_ROOT, 'Dockerfile'), 'utf8');
    const strip = /^RUN (cp -r dist dist-production && rm -rf (?:.*\\\n)*.*)$/m.exec(dockerfile)?.[1];
    expect(strip).toBeDefined();
    const image = mkdtempSync(join(tmpdir(), 'production-image-'));
    cpSync(join(WORKSPACE_ROOT, DIST), join(image, 'dist'), { recursive: true });
    execFileSync('sh', ['-c', strip!], { cwd: image });
    const files = (readdirSync(join(image, 'dist-production'), { recursive: true }) as string[]).filter(
      (path) => !statSync(join(image, 'dist-production', path)).isDirectory(),
    );
    expect(files.filter((path) => path.endsWith('main.js')).length).toBeGreaterThanOrEqual(SERVICES.length);
    expect(files.filter((path) => /sandbox/i.test(path))).toEqual([]);
    const loadsSandbox = files.filter(
      (path) =>
        path.endsWith('.js') &&
        /require\("[^"]*sandbox[^"]*"\)/.test(readFileSync(join(image, 'dist-production', path), 'utf8')),
    );
    expect(loadsSandbox).toEqual([]);
    for (const type of sandboxesOf(atsRegistry.types()).map((sandbox) => sandbox.type))
      expect(files.some((path) => path.startsWith(join('libs', 'ats', type, 'src')))).toBe(true);
  });

  it('needs only the production dependencies of package.json at run time', () => {
    const pkg = JSON.parse(readFileSync(join(WORKSPACE_ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const used = new Set<string>();
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (name === 'node_modules') continue;
        if (statSync(path).isDirectory()) walk(path);
        else if (name.endsWith('.js')) {
          for (const [, spec] of readFileSync(path, 'utf8').matchAll(/require\("([^"./][^"]*)"\)/g)) {
            used.add(spec!.startsWith('@') ? spec!.split('/').slice(0, 2).join('/') : spec!.split('/')[0]!);
          }
        }
      }
    };
    walk(join(WORKSPACE_ROOT, DIST));
    const external = [...used].filter(
      (name) =>
        !name.startsWith('@connector/') && !name.startsWith('node:') && !builtinModules.includes(name),
    );
    expect(external.length).toBeGreaterThan(5);
    expect(external.filter((name) => !(name in pkg.dependencies))).toEqual([]);
  });

  it('writes a CycloneDX SBOM of the production dependencies: all of them, no test or lint tool', () => {
    const sbom = JSON.parse(readFileSync(join(WORKSPACE_ROOT, DIST, 'sbom.cdx.json'), 'utf8')) as {
      bomFormat: string;
      components: Array<{ name: string; version: string }>;
    };
    expect(sbom.bomFormat).toBe('CycloneDX');
    const pkg = JSON.parse(readFileSync(join(WORKSPACE_ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const names = new Set(sbom.components.map((component) => component.name));
    expect(Object.keys(pkg.dependencies).filter((name) => !names.has(name))).toEqual([]);
    expect(['jest', 'eslint', '@swc/jest', 'knip', 'prettier'].filter((name) => names.has(name))).toEqual([]);
  });
});
