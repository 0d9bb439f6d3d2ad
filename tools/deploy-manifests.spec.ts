import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { parse, parseAllDocuments } from 'yaml';
import { MAX_MESSAGE_BYTES } from '@connector/contracts';
import { requiredInProductionOf, type ServiceConfig } from '@connector/service-kit';
import { AuthGatewayConfig } from '../apps/auth-gateway/src/app/auth-gateway.config';
import { CandidateSyncConfig } from '../apps/candidate-sync/src/app/candidate-sync.config';
import { ConnectorRegistryConfig } from '../apps/connector-registry/src/app/connector-registry.config';
import { DocumentServiceConfig } from '../apps/document-service/src/app/document-service.config';
import { parseTrustProxy } from '../apps/connector-registry/src/app/trust-proxy';
import { VacancySyncConfig } from '../apps/vacancy-sync/src/app/vacancy-sync.config';
import { databaseUrlSecretKey, SERVICES } from './database-roles';
import { registeredSandboxes } from './sandboxes';

/**
 * No container engine or cluster runs in CI, so the deployment files are checked here: docker-compose.yml
 * against the Compose Specification's JSON Schema (vendored from the docker-compose npm package), the
 * Dockerfile's shape, and the Kubernetes manifests' structure against what the services need.
 */
const ROOT = join(__dirname, '..');
const CONFIGS: Record<string, new () => ServiceConfig> = {
  'connector-registry': ConnectorRegistryConfig,
  'auth-gateway': AuthGatewayConfig,
  'vacancy-sync': VacancySyncConfig,
  'candidate-sync': CandidateSyncConfig,
  'document-service': DocumentServiceConfig,
};
const WORKERS = ['vacancy-sync', 'candidate-sync', 'document-service'];
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

interface ComposeService {
  image?: string;
  build?: unknown;
  ports?: unknown[];
  container_name?: string;
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  command?: string[];
}

/** Whether a compose `ports` entry ("4010:4010", "4010-4029:4010-4029") publishes `port` as itself. */
function publishes(entry: unknown, port: number): boolean {
  const match = /^(\d+)(?:-(\d+))?:(\d+)(?:-(\d+))?$/.exec(String(entry));
  if (!match) return false;
  const [, hostFrom, hostTo = hostFrom, from, to = from] = match;
  return hostFrom === from && hostTo === to && port >= Number(from) && port <= Number(to);
}

describe('docker-compose.yml', () => {
  const compose = parse(read('docker-compose.yml'), { merge: true }) as {
    services: Record<string, ComposeService>;
  };

  it('is valid against the Compose Specification', () => {
    // The vendored schema names draft-07 by its https address, which Ajv registers under http.
    const { $schema: _dialect, ...schema } = JSON.parse(read('deploy/schemas/compose-spec.json')) as Record<
      string,
      unknown
    >;
    const validate = new Ajv({ allErrors: true, strict: false } as ConstructorParameters<
      typeof Ajv
    >[0]).compile(schema);
    expect(validate(compose) ? [] : validate.errors).toEqual([]);
    expect(validate({ services: { x: { image: 1, bogus: true } } })).toBe(false);
  });

  it('runs every service and sandbox from the one image, in production mode with what it requires', () => {
    for (const [name, Config] of Object.entries(CONFIGS)) {
      const service = compose.services[name];
      expect(service?.environment?.SERVICE).toBe(name);
      expect(service?.environment?.NODE_ENV).toBe('production');
      for (const variable of requiredInProductionOf(Config)) {
        const env = service?.environment ?? {};
        expect([variable, env[variable] || env[`${variable}_FILE`] ? 'given' : 'missing']).toEqual([
          variable,
          'given',
        ]);
      }
    }
    // One runner starts every registered ATS's sandbox, each published on its default port (a range of
    // ports, host and container alike, so a new ATS's sandbox needs no edit of the compose file).
    expect(compose.services['sandboxes']?.command).toEqual(['node', 'dist/tools/sandboxes.js']);
    const published = registeredSandboxes().map(({ type, defaultPort }) => [
      type,
      (compose.services['sandboxes']?.ports ?? []).some((entry) => publishes(entry, defaultPort)),
    ]);
    expect(published.length).toBeGreaterThan(1);
    expect(published).toEqual(published.map(([type]) => [type, true]));
    expect([publishes('4010:4010', 4010), publishes('4010-4029:4010-4029', 4029)]).toEqual([true, true]);
    expect([publishes('4010-4029:4010-4029', 4030), publishes('5010-5029:4010-4029', 4011)]).toEqual([
      false,
      false,
    ]);
  });

  it('allows the demo its private network explicitly, for every service that calls out (none by default)', () => {
    for (const name of ['auth-gateway', ...WORKERS]) {
      expect([name, compose.services[name]?.environment?.['ALLOW_PRIVATE_ADDRESSES']]).toEqual([
        name,
        'private',
      ]);
      const Config = CONFIGS[name] as new () => ServiceConfig & { ALLOW_PRIVATE_ADDRESSES?: string };
      // No environment name turns the guard off: production mode or not, the default is none.
      expect(new Config().ALLOW_PRIVATE_ADDRESSES).toBe('none');
    }
  });

  it("gives the broker its message size limit, above the consumers' own", () => {
    const rabbitmq = compose.services['rabbitmq'] as unknown as { volumes?: string[] };
    expect(rabbitmq.volumes).toContain(
      './deploy/rabbitmq/rabbitmq.conf:/etc/rabbitmq/conf.d/20-connector.conf:ro',
    );
    const limit = /^max_message_size = (\d+)$/m.exec(read('deploy/rabbitmq/rabbitmq.conf'))?.[1];
    expect(Number(limit)).toBeGreaterThan(MAX_MESSAGE_BYTES);
  });

  it('lets the workers scale: no host port or container name on them', () => {
    for (const worker of WORKERS) {
      expect(compose.services[worker]?.ports).toBeUndefined();
      expect(compose.services[worker]?.container_name).toBeUndefined();
    }
  });

  it('generates ENCRYPTION_KEYS before auth-gateway starts and creates the demo connectors', () => {
    expect(compose.services['auth-gateway']?.depends_on?.['keys']?.condition).toBe(
      'service_completed_successfully',
    );
    expect(compose.services['demo']?.command).toEqual(['node', 'dist/tools/demo-connectors.js']);
    expect(compose.services['demo']?.depends_on?.['connector-registry']?.condition).toBe('service_healthy');
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');

  it('compiles in a build stage and runs the compiled JavaScript as a non-root user', () => {
    expect(dockerfile.match(/^FROM /gm)?.length).toBeGreaterThanOrEqual(2);
    expect(dockerfile).toMatch(/^RUN node tools\/build\.mjs/m);
    expect(dockerfile).toMatch(/^COPY --from=build \/app\/dist/m);
    expect(dockerfile).toMatch(/^USER node$/m);
    const cmd = dockerfile.split('\n').filter((line) => line.startsWith('CMD '));
    expect(cmd.length).toBeGreaterThan(0);
    for (const line of cmd) expect(line).toContain('dist/apps/${SERVICE}/src/main.js');
    expect(dockerfile).not.toContain('@swc-node/register');
  });

  it('builds the production image (the last stage) without the sandboxes, from the lockfile exactly', () => {
    const stages = dockerfile.split(/^FROM /m).slice(1);
    const last = stages.at(-1) ?? '';
    expect(last).toMatch(/^\S+ AS production$/m);
    expect(last).toContain('COPY --from=build /app/dist-production ./dist');
    // Every registered ATS's sandbox, the runner and the demo connectors are left out, without naming an ATS.
    const removed = (/rm -rf ((?:\S+(?: \\\n\s*| )?)+)/.exec(dockerfile)?.[1] ?? '')
      .split(/\s+|\\/)
      .filter((path) => path.startsWith('dist-production/'))
      .map((glob) => new RegExp(`^${glob.replace(/\./g, '\\.').replace(/\*/g, '[^/]*')}$`));
    const kept = (path: string) => !removed.some((glob) => glob.test(`dist-production/${path}`));
    const sandboxParts = [
      'tools/sandboxes.js',
      'tools/demo-connectors.js',
      'libs/ats/core/sandbox',
      'node_modules/@connector/ats-sandbox-core',
      ...registeredSandboxes().flatMap(({ type }) => [
        `libs/ats/${type}/sandbox`,
        `node_modules/@connector/${type}-sandbox`,
      ]),
    ];
    expect(sandboxParts.filter(kept)).toEqual([]);
    expect(
      ['libs/ats/core/src', 'tools/migrate.js', 'node_modules/@connector/ats-core'].filter(kept),
    ).toHaveLength(3);
    expect(dockerfile).not.toMatch(/ats-[ab]/);
    expect(dockerfile).toMatch(/^RUN npm ci --omit=dev/m);
    expect(dockerfile).not.toMatch(/npm install/);
    // docker compose runs the sandboxes too: the demo target.
    const compose = parse(read('docker-compose.yml'), { merge: true }) as {
      services: Record<string, { build?: { target?: string }; image?: string }>;
    };
    for (const [name, service] of Object.entries(compose.services)) {
      if (service.image === 'ats-connector:local')
        expect([name, service.build?.target]).toEqual([name, 'demo']);
    }
  });

  it('keeps dependencies, builds and secrets out of the build context', () => {
    const ignored = read('.dockerignore').split('\n');
    for (const entry of ['**/node_modules', 'dist', 'tmp', '.env', '.git']) expect(ignored).toContain(entry);
  });
});

describe('Kubernetes manifests (deploy/k8s)', () => {
  interface Container {
    image: string;
    command?: string[];
    env?: Array<{ name: string; value?: string; valueFrom?: Record<string, { name: string; key: string }> }>;
    envFrom?: Array<{ configMapRef?: { name: string } }>;
    readinessProbe?: { httpGet?: { path: string } };
    livenessProbe?: { httpGet?: { path: string } };
    resources?: { requests?: { cpu?: string } };
  }
  interface Resource {
    apiVersion: string;
    kind: string;
    metadata: { name: string };
    spec: {
      template?: { spec: { containers: Container[]; securityContext?: { runAsNonRoot?: boolean } } };
      scaleTargetRef?: { kind: string; name: string };
      metrics?: Array<{ resource?: { name: string } }>;
    };
  }
  const base = 'deploy/k8s/base';
  const kustomization = parse(read(`${base}/kustomization.yaml`)) as {
    resources: string[];
    configMapGenerator: Array<{ name: string; literals: string[] }>;
  };
  const resources = kustomization.resources.flatMap((file) =>
    parseAllDocuments(read(`${base}/${file}`)).map((doc) => doc.toJS() as Resource),
  );
  const config = Object.fromEntries(
    (kustomization.configMapGenerator.find((g) => g.name === 'connector-config')?.literals ?? []).map((l) =>
      l.split(/=(.*)/s).slice(0, 2),
    ),
  ) as Record<string, string>;
  const of = (kind: string, name: string) =>
    resources.find((r) => r.kind === kind && r.metadata.name === name) as Resource;

  it('lists only files that exist, each a well-formed resource', () => {
    expect(
      readdirSync(join(ROOT, base))
        .filter((f) => f.endsWith('.yaml'))
        .sort(),
    ).toEqual([...kustomization.resources, 'kustomization.yaml'].sort());
    for (const resource of resources) {
      expect(resource.apiVersion).toMatch(/^[\w./]+$/);
      expect(resource.kind).toMatch(/^[A-Z]\w+$/);
      expect(resource.metadata.name).toMatch(/^[a-z0-9-]+$/);
    }
    const overlay = parse(read('deploy/k8s/overlays/example/kustomization.yaml')) as { resources: string[] };
    for (const path of overlay.resources) {
      expect(existsSync(join(ROOT, 'deploy/k8s/overlays/example', path, 'kustomization.yaml'))).toBe(true);
    }
  });

  it.each(Object.keys(CONFIGS))(
    '%s: a Deployment with probes and every variable production requires',
    (name) => {
      const deployment = of('Deployment', name);
      expect(deployment.spec.template?.spec.securityContext?.runAsNonRoot).toBe(true);
      const container = deployment.spec.template?.spec.containers[0] as Container;
      expect(container.readinessProbe?.httpGet?.path).toBe('/health');
      expect(container.livenessProbe?.httpGet?.path).toBe('/health/live');
      expect(container.resources?.requests?.cpu).toBeDefined();
      expect(container.envFrom?.[0]?.configMapRef?.name).toBe('connector-config');
      const env = Object.fromEntries((container.env ?? []).map((e) => [e.name, e]));
      expect(env['SERVICE']?.value).toBe(name);
      for (const variable of requiredInProductionOf(CONFIGS[name] as new () => ServiceConfig)) {
        const source = env[variable]?.valueFrom;
        // Secrets from the Secret; the rest from the ConfigMap, where an overlay must fill it in.
        expect([variable, source?.['secretKeyRef']?.name ?? source?.['configMapKeyRef']?.name]).toEqual([
          variable,
          expect.stringMatching(/^connector-(secrets|config)$/),
        ]);
      }
      expect(config['NODE_ENV']).toBe('production');
      expect(config['MIGRATIONS_RUN']).toBe('false');
      expect(config['ALLOW_PRIVATE_ADDRESSES']).toBe('none');
    },
  );

  it('serves /metrics on a port of its own that no Service exposes, and scrapes it there', () => {
    expect(config['METRICS_PORT']).toBe('9464');
    for (const name of Object.keys(CONFIGS)) {
      const deployment = of('Deployment', name) as Resource & {
        spec: { template: { metadata: { annotations: Record<string, string> } } };
      };
      expect(deployment.spec.template.metadata.annotations['prometheus.io/port']).toBe('9464');
    }
    for (const service of resources.filter((r) => r.kind === 'Service')) {
      const ports = (service.spec as unknown as { ports: Array<{ targetPort: unknown; port: number }> })
        .ports;
      for (const port of ports)
        expect([service.metadata.name, port.targetPort]).not.toEqual([service.metadata.name, 'metrics']);
      for (const port of ports) expect(port.targetPort).not.toBe(9464);
    }
  });

  it("counts the registry's wrong keys per client behind the ingress (TRUST_PROXY)", () => {
    const container = of('Deployment', 'connector-registry').spec.template?.spec.containers[0] as Container;
    const trustProxy = container.env?.find((e) => e.name === 'TRUST_PROXY')?.value ?? '';
    expect(parseTrustProxy(trustProxy)).toBe(1);
  });

  it('migrates in a Job from the compiled output, with every secret the services migrate with', () => {
    const job = of('Job', 'connector-migrate');
    const container = job.spec.template?.spec.containers[0] as Container;
    expect(container.command).toEqual(['node', 'dist/tools/migrate.js']);
    const names = (container.env ?? []).map((e) => e.name);
    for (const Config of Object.values(CONFIGS)) {
      for (const variable of requiredInProductionOf(Config)) expect(names).toContain(variable);
    }
  });

  it('connects each service as its own database role, and migrates as the migrator', () => {
    const databaseKey = (container: Container) =>
      container.env?.find((e) => e.name === 'DATABASE_URL')?.valueFrom?.['secretKeyRef']?.key;
    for (const service of SERVICES) {
      const container = of('Deployment', service).spec.template?.spec.containers[0] as Container;
      expect([service, databaseKey(container)]).toEqual([service, databaseUrlSecretKey(service)]);
    }
    const job = of('Job', 'connector-migrate').spec.template?.spec.containers[0] as Container;
    expect(databaseKey(job)).toBe('DATABASE_URL');
  });

  it('scales each worker on CPU', () => {
    for (const worker of WORKERS) {
      const hpa = of('HorizontalPodAutoscaler', worker);
      expect(hpa.apiVersion).toBe('autoscaling/v2');
      expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: worker });
      expect(hpa.spec.metrics?.[0]?.resource?.name).toBe('cpu');
    }
  });
});
