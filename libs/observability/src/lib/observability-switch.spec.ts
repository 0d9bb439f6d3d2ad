import type { Registry } from 'prom-client';

describe('OBSERVABILITY=off', () => {
  /** The module loaded afresh with OBSERVABILITY=value, and the prom-client registry it records in. */
  const load = <T extends object>(path: string, value: string | undefined): T & { registry: Registry } => {
    const before = process.env['OBSERVABILITY'];
    if (value === undefined) delete process.env['OBSERVABILITY'];
    else process.env['OBSERVABILITY'] = value;
    try {
      let loaded!: T & { registry: Registry };
      jest.isolateModules(() => {
        const { register } = jest.requireActual<typeof import('prom-client')>('prom-client');
        loaded = { ...jest.requireActual<T>(path), registry: register };
      });
      return loaded;
    } finally {
      if (before === undefined) delete process.env['OBSERVABILITY'];
      else process.env['OBSERVABILITY'] = before;
    }
  };

  it('records no metric and registers none', () => {
    const metrics = load<typeof import('./metrics')>('./metrics', 'off');
    const calls = metrics.counter({ name: 'connector_switch_test_total', help: 'test', labelNames: ['a'] });
    calls.inc({ a: 'x' });
    metrics.histogram({ name: 'connector_switch_test_seconds', help: 'test' }).observe(1);
    expect(metrics.registry.getSingleMetric('connector_switch_test_total')).toBeUndefined();
    expect(metrics.registry.getSingleMetric('connector_switch_test_seconds')).toBeUndefined();
  });

  it('runs work without a log context', () => {
    const context = load<typeof import('./log-context')>('./log-context', 'off');
    expect(context.withLogContext({ messageId: 'm1' }, () => context.currentLogContext())).toBeUndefined();
  });

  it('leaves both on otherwise', () => {
    const metrics = load<typeof import('./metrics')>('./metrics', undefined);
    metrics.counter({ name: 'connector_switch_test_total', help: 'test' }).inc();
    expect(metrics.registry.getSingleMetric('connector_switch_test_total')).toBeDefined();
    const context = load<typeof import('./log-context')>('./log-context', undefined);
    expect(context.withLogContext({ messageId: 'm1' }, () => context.currentLogContext())).toEqual({
      messageId: 'm1',
    });
  });
});
