import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { BROKER_SERVICES } from '@connector/messaging';
import {
  DEFINITIONS_PATH,
  definitionsJson,
  DEPLOYMENT_RABBITMQ_USERS,
  deploymentDefinitions,
  PASSWORD_HASH_PLACEHOLDER,
  rabbitmqUrlSecretKey,
  secretFiles,
} from './broker-definitions';

/**
 * The deployments' broker users come from libs/messaging's broker-permissions.ts: the committed definitions
 * template, docker compose and the Kubernetes manifests must agree with it (`npm run broker-users` rewrites
 * the template).
 */
const ROOT = join(__dirname, '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

describe('deploy/rabbitmq/definitions.json', () => {
  it('is what broker-permissions.ts gives (run `npm run broker-users` after changing it)', () => {
    expect(readFileSync(DEFINITIONS_PATH, 'utf8')).toBe(definitionsJson(deploymentDefinitions()));
  });

  it('holds no password hash, only placeholders filled in at deploy time', () => {
    const { users } = JSON.parse(readFileSync(DEFINITIONS_PATH, 'utf8')) as {
      users: Array<{ name: string; password_hash: string }>;
    };
    expect(users.map((user) => user.name)).toEqual([...BROKER_SERVICES, 'platform']);
    expect(new Set(users.map((user) => user.password_hash))).toEqual(new Set([PASSWORD_HASH_PLACEHOLDER]));
  });
});

describe('docker compose broker users', () => {
  const compose = parse(read('docker-compose.yml'), { merge: true }) as {
    services: Record<
      string,
      {
        environment?: Record<string, string>;
        depends_on?: Record<string, { condition: string }>;
        command?: string[];
        volumes?: string[];
      }
    >;
  };

  it('creates them before any service starts, with passwords kept in the keys volume', () => {
    const setup = compose.services['broker-users'];
    expect(setup?.command?.slice(0, 2)).toEqual(['node', 'dist/tools/broker-users.js']);
    expect(setup?.command).toEqual(expect.arrayContaining(['--secrets', '/keys', '--apply']));
    expect(setup?.volumes).toEqual(['keys:/keys']);
    expect(setup?.depends_on?.['rabbitmq']?.condition).toBe('service_healthy');
  });

  it.each(BROKER_SERVICES)(
    '%s connects as its own user, over plain amqp only by explicit allowance',
    (name) => {
      const service = compose.services[name];
      const env = service?.environment ?? {};
      expect(env['RABBITMQ_URL']).toBeUndefined();
      expect(env['RABBITMQ_URL_FILE']).toBe(`/keys/${secretFiles(name).url}`);
      expect(env['RABBITMQ_USERS']).toBe(DEPLOYMENT_RABBITMQ_USERS);
      expect(env['RABBITMQ_ALLOW_PLAIN_AMQP']).toBe('true'); // the compose network is private to the demo
      expect(service?.depends_on?.['broker-users']?.condition).toBe('service_completed_successfully');
      expect(service?.volumes).toContain('keys:/keys:ro');
    },
  );
});

describe('Kubernetes broker users', () => {
  interface EnvVar {
    name: string;
    valueFrom?: Record<string, { name: string; key: string }>;
  }
  const base = 'deploy/k8s/base';
  const kustomization = parse(read(`${base}/kustomization.yaml`)) as {
    configMapGenerator: Array<{ name: string; literals: string[] }>;
  };
  const literals =
    kustomization.configMapGenerator.find((g) => g.name === 'connector-config')?.literals ?? [];
  const envOf = (file: string) =>
    (
      parseAllDocuments(read(`${base}/${file}`))[0]?.toJS() as {
        spec: { template: { spec: { containers: Array<{ env: EnvVar[] }> } } };
      }
    ).spec.template.spec.containers[0]!.env;

  it('names every service broker user in the ConfigMap, and never allows plain amqp', () => {
    expect(literals).toContain(`RABBITMQ_USERS=${DEPLOYMENT_RABBITMQ_USERS}`);
    expect(literals.some((literal) => literal.startsWith('RABBITMQ_ALLOW_PLAIN_AMQP'))).toBe(false);
  });

  it('migrates each service as its own broker user', () => {
    const env = Object.fromEntries(envOf('migrate-job.yaml').map((e) => [e.name, e.valueFrom]));
    for (const name of BROKER_SERVICES) {
      expect(env[rabbitmqUrlSecretKey(name)]?.['secretKeyRef']).toEqual({
        name: 'connector-secrets',
        key: rabbitmqUrlSecretKey(name),
      });
    }
  });

  it.each(BROKER_SERVICES)('%s takes its own RABBITMQ_URL from the Secret, as the README says', (name) => {
    const env = Object.fromEntries(envOf(`${name}.yaml`).map((e) => [e.name, e.valueFrom]));
    expect(env['RABBITMQ_URL']?.['secretKeyRef']).toEqual({
      name: 'connector-secrets',
      key: rabbitmqUrlSecretKey(name),
    });
    expect(env['RABBITMQ_USERS']?.['configMapKeyRef']).toEqual({
      name: 'connector-config',
      key: 'RABBITMQ_USERS',
    });
    expect(read('deploy/k8s/README.md')).toContain(
      `${rabbitmqUrlSecretKey(name)}=broker-secrets/${secretFiles(name).url}`,
    );
  });
});
