import { freePort, type ServiceProcess } from '@connector/testing';
import { type TestWorld, testWorld } from '@connector/test-world';

/**
 * With METRICS_PORT (the Kubernetes base sets it), `/metrics` is served on that port only: the port behind the
 * ingress answers 404 there, so the public admin API's host shows no metrics.
 */
describe('metrics on a port of their own', () => {
  let world: TestWorld;
  let registry: ServiceProcess;
  let metricsPort: number;

  beforeAll(async () => {
    metricsPort = await freePort();
    world = await testWorld({
      name: 'e2e_metrics_port',
      services: ['connector-registry'],
      registry: 'real',
      serviceEnv: {
        'connector-registry': {
          ADMIN_API_KEYS: 'acct_metrics:metrics-key',
          METRICS_PORT: String(metricsPort),
        },
      },
    });
    registry = world.service('connector-registry');
  }, 120_000);

  afterAll(() => world?.close());

  it('serves /metrics on METRICS_PORT, and not on the service port', async () => {
    const apart = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(apart.status).toBe(200);
    expect(apart.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await apart.text()).toMatch(/^# HELP /m);
    expect((await fetch(`${registry.url}/metrics`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/health`)).status).toBe(404);
    expect((await fetch(`${registry.url}/health`)).status).toBe(200);
  });
});
