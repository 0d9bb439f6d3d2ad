import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv from 'ajv';
import { register } from 'prom-client';
import { parse } from 'yaml';
import { collectProcessMetrics } from '@connector/observability';
import { findPromtool } from '@connector/testing';
// Every service's modules, so every metric the services declare is in the registry.
import '@connector/service-kit';
import '@connector/ats-client-factory';
import '../apps/auth-gateway/src/app/app.module';
import '../apps/connector-registry/src/app/app.module';
import '../apps/vacancy-sync/src/app/app.module';
import '../apps/candidate-sync/src/app/app.module';
import '../apps/document-service/src/app/app.module';

/**
 * The observability files checked without Prometheus or Grafana running: every metric follows the naming
 * conventions and is documented, the alert rules pass `promtool check rules` (Debian's prometheus package)
 * where promtool is installed and a schema check otherwise, and the dashboard loads (schema-checked); the
 * rules and the dashboard only name metrics the services export.
 */
const ROOT = join(__dirname, '..');
const DIR = join(ROOT, 'deploy', 'observability');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

interface MetricInfo {
  name: string;
  help: string;
  type: string;
  labelNames: string[];
}

/**
 * Label names whose values are one per customer or per record: each value is a series, so at 10 000 customers
 * the registry's /metrics alone would carry tens of thousands (hosts, accounts, connectors, candidates, URLs,
 * any `*_id` or `*Id`). What stays is bounded by the code: ATS types, queues, event types, endpoint templates,
 * status classes, outcomes, states.
 */
const UNBOUNDED_NAME =
  /^(host|hostname|origin|domain|customer|tenant|account|connector|candidate|application|document|vacancy|run|job|user|url|base_?url|address|email|ip)(_?ids?)?$|(^|_)ids?$/i;
const unboundedLabel = (label: string) => UNBOUNDED_NAME.test(label) || /[a-z]Ids?$/.test(label);

/** Every series name the services export: ours and the process metrics. */
function exported(): Set<string> {
  collectProcessMetrics();
  return new Set(register.getMetricsAsArray().map((metric) => (metric as unknown as MetricInfo).name));
}

function ourMetrics(): MetricInfo[] {
  collectProcessMetrics();
  return register
    .getMetricsAsArray()
    .map((metric) => metric as unknown as MetricInfo)
    .filter((metric) => metric.name.startsWith('connector_'))
    .map(({ name, help, type, labelNames }) => ({ name, help, type, labelNames: [...(labelNames ?? [])] }));
}

/** The series names a PromQL expression reads: `connector_*`, `process_*`, `nodejs_*`, `up`. */
function seriesIn(expr: string): string[] {
  const names = expr.match(/\b(connector|process|nodejs)_[a-z0-9_]+\b|\bup\b(?=\{)/g) ?? [];
  return [...new Set(names)];
}

/** A histogram's series (`_bucket`, `_sum`, `_count`) stand for the histogram. */
function known(series: string, names: Set<string>): boolean {
  return names.has(series) || names.has(series.replace(/_(bucket|sum|count)$/, '')) || series === 'up';
}

describe('metrics', () => {
  const metrics = ourMetrics();

  it('are declared by the services', () => {
    expect(metrics.length).toBeGreaterThan(20);
  });

  it.each(metrics.map((m) => [m.name, m] as const))(
    '%s follows the Prometheus naming conventions',
    (_, m) => {
      expect(m.name).toMatch(/^connector_[a-z][a-z0-9_]*[a-z0-9]$/);
      expect(m.help.length).toBeGreaterThan(20);
      if (m.type === 'counter') expect(m.name).toMatch(/_total$/);
      else expect(m.name).not.toMatch(/_total$/);
      if (m.type === 'histogram') expect(m.name).toMatch(/_seconds$/);
    },
  );

  it.each(metrics.map((m) => [m.name, m] as const))(
    '%s has no label whose values grow with the customers (a series per host, account, connector, record)',
    (_, m) => {
      const unbounded = m.labelNames.filter(unboundedLabel);
      expect([m.name, unbounded]).toEqual([m.name, []]);
    },
  );

  it('are each in the table of docs/observability.md, and the table names no other', () => {
    const documented = new Set(
      [...read('docs/observability.md').matchAll(/^\| `(connector_[a-z0-9_]+)`/gm)].map((m) => m[1]),
    );
    expect([...documented].sort()).toEqual(metrics.map((m) => m.name).sort());
  });
});

describe('alert rules (deploy/observability/alerts.yml)', () => {
  const path = join(DIR, 'alerts.yml');
  const rules = parse(readFileSync(path, 'utf8')) as {
    groups: Array<{ name: string; rules: Array<{ alert?: string; expr: string }> }>;
  };

  it('pass promtool check rules where promtool is installed, else the rule-file schema', () => {
    const tool = findPromtool();
    if (tool) {
      const result = spawnSync(tool, ['check', 'rules', path], { encoding: 'utf8' });
      process.stdout.write(`alert rules checked by ${tool}: ${result.stdout.trim()}\n`);
      expect([result.status, result.stderr]).toEqual([0, '']);
      return;
    }
    process.stdout.write(
      'alert rules checked by the JSON schema (no promtool here; set PROMTOOL to use one)\n',
    );
    const duration = {
      type: 'string',
      pattern: '^(0|(\\d+y)?(\\d+w)?(\\d+d)?(\\d+h)?(\\d+m)?(\\d+s)?(\\d+ms)?)$',
    };
    const strings = { type: 'object', additionalProperties: { type: 'string' } };
    const schema = {
      type: 'object',
      required: ['groups'],
      additionalProperties: false,
      properties: {
        groups: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            required: ['name', 'rules'],
            additionalProperties: false,
            properties: {
              name: { type: 'string', minLength: 1 },
              interval: duration,
              rules: {
                type: 'array',
                minItems: 1,
                items: {
                  type: 'object',
                  required: ['alert', 'expr'],
                  additionalProperties: false,
                  properties: {
                    alert: { type: 'string', pattern: '^[a-zA-Z_][a-zA-Z0-9_]*$' },
                    expr: { type: 'string', minLength: 1 },
                    for: duration,
                    keep_firing_for: duration,
                    labels: strings,
                    annotations: strings,
                  },
                },
              },
            },
          },
        },
      },
    };
    const validate = new Ajv({ allErrors: true }).compile(schema);
    expect(validate(rules) ? [] : validate.errors).toEqual([]);
    for (const { expr } of rules.groups.flatMap((g) => g.rules)) {
      // What promtool's parser would refuse first: brackets and quotes that do not close.
      const stripped = expr.replace(/"(?:[^"\\]|\\.)*"/g, '');
      expect([expr, stripped.includes('"') ? 'open quote' : 'ok']).toEqual([expr, 'ok']);
      const depth = [...stripped].reduce(
        (open, c) => open + ('({['.includes(c) ? 1 : ')}]'.includes(c) ? -1 : 0),
        0,
      );
      expect([expr, depth]).toEqual([expr, 0]);
    }
  });

  it('cover what the issue asks for, each with a summary, and read only metrics the services export', () => {
    const alerts = rules.groups.flatMap((g) => g.rules);
    expect(alerts.map((a) => a.alert)).toEqual(
      expect.arrayContaining([
        'DeadLettersRising',
        'QueueNotDraining',
        'ConnectorAuthFailed',
        'AtsBudgetExhaustedEarly',
        'VacancyRunsFailing',
      ]),
    );
    const names = exported();
    for (const { alert, expr } of alerts) {
      const unknown = seriesIn(expr).filter((series) => !known(series, names));
      expect([alert, unknown]).toEqual([alert, []]);
    }
  });
});

describe('Grafana dashboard (deploy/observability/grafana/dashboards/ats-connector.json)', () => {
  const dashboard = JSON.parse(read('deploy/observability/grafana/dashboards/ats-connector.json')) as {
    panels: Array<{
      id: number;
      type: string;
      title: string;
      gridPos: { x: number; y: number; w: number; h: number };
      datasource?: { uid: string };
      targets?: Array<{ expr: string; refId: string }>;
    }>;
  };
  const queries = dashboard.panels.flatMap((panel) => panel.targets ?? []);

  it('is a dashboard Grafana loads: the fields it needs, unique ids, panels on its 24-column grid without overlap', () => {
    const gridPos = {
      type: 'object',
      required: ['x', 'y', 'w', 'h'],
      properties: {
        x: { type: 'integer', minimum: 0, maximum: 23 },
        y: { type: 'integer', minimum: 0 },
        w: { type: 'integer', minimum: 1, maximum: 24 },
        h: { type: 'integer', minimum: 1 },
      },
    };
    const schema = {
      type: 'object',
      required: ['uid', 'title', 'schemaVersion', 'panels', 'time'],
      properties: {
        uid: { type: 'string', pattern: '^[a-zA-Z0-9_-]{1,40}$' },
        title: { type: 'string', minLength: 1 },
        schemaVersion: { type: 'integer', minimum: 30 },
        time: { type: 'object', required: ['from', 'to'] },
        panels: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            required: ['id', 'type', 'title', 'gridPos'],
            properties: {
              id: { type: 'integer', minimum: 1 },
              type: { enum: ['row', 'timeseries', 'stat', 'gauge', 'bargauge', 'table', 'text'] },
              title: { type: 'string', minLength: 1 },
              gridPos,
              datasource: { type: 'object', required: ['type', 'uid'] },
              targets: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['refId', 'expr'],
                  properties: { expr: { type: 'string' } },
                },
              },
            },
            if: { properties: { type: { not: { const: 'row' } } } },
            then: { required: ['datasource', 'targets'] },
          },
        },
      },
    };
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    expect(validate(dashboard) ? [] : validate.errors).toEqual([]);
    const ids = dashboard.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    const cells = new Map<string, string>();
    for (const { title, gridPos } of dashboard.panels) {
      expect(gridPos.x + gridPos.w).toBeLessThanOrEqual(24);
      for (let x = gridPos.x; x < gridPos.x + gridPos.w; x++) {
        for (let y = gridPos.y; y < gridPos.y + gridPos.h; y++) {
          expect([title, cells.get(`${x},${y}`)]).toEqual([title, undefined]);
          cells.set(`${x},${y}`, title);
        }
      }
    }
  });

  it('queries the provisioned Prometheus for metrics the services export', () => {
    const datasources = parse(
      read('deploy/observability/grafana/provisioning/datasources/prometheus.yml'),
    ) as {
      datasources: Array<{ uid: string; type: string }>;
    };
    const uids = datasources.datasources.map((d) => d.uid);
    for (const panel of dashboard.panels.filter((p) => p.type !== 'row')) {
      expect([panel.title, uids.includes(panel.datasource?.uid ?? '')]).toEqual([panel.title, true]);
    }
    const names = exported();
    for (const { expr } of queries) {
      const unknown = seriesIn(expr).filter((series) => !known(series, names));
      expect([expr, unknown]).toEqual([expr, []]);
    }
    expect(queries.length).toBeGreaterThan(20);
  });

  it('has queries PromQL parses (by promtool, as recording rules, where it is installed)', () => {
    const tool = findPromtool();
    if (!tool) {
      process.stdout.write('dashboard queries not parsed: no promtool here (set PROMTOOL to use one)\n');
      expect(queries.every((q) => q.expr.trim().length > 0)).toBe(true);
      return;
    }
    const file = join(mkdtempSync(join(tmpdir(), 'dashboard-rules-')), 'rules.yml');
    const recording = queries.map((q, i) => ({
      record: `dashboard:query_${i}`,
      expr: q.expr.replaceAll('$__rate_interval', '5m'),
    }));
    writeFileSync(file, JSON.stringify({ groups: [{ name: 'dashboard', rules: recording }] }));
    const result = spawnSync(tool, ['check', 'rules', file], { encoding: 'utf8' });
    process.stdout.write(`dashboard queries parsed by ${tool}: ${result.stdout.trim()}\n`);
    expect([result.status, result.stderr]).toEqual([0, '']);
  });
});

describe('docker compose --profile observability', () => {
  const compose = parse(read('docker-compose.yml'), { merge: true }) as {
    services: Record<string, { profiles?: string[]; volumes?: string[] }>;
  };

  it('mounts the rules, the dashboard and its provisioning where Prometheus and Grafana read them', () => {
    expect(compose.services['prometheus']?.profiles).toEqual(['observability']);
    expect(compose.services['prometheus']?.volumes).toEqual(
      expect.arrayContaining([
        './deploy/observability/prometheus.yml:/etc/prometheus/prometheus.yml:ro',
        './deploy/observability/alerts.yml:/etc/prometheus/alerts.yml:ro',
      ]),
    );
    expect(
      (parse(read('deploy/observability/prometheus.yml')) as { rule_files: string[] }).rule_files,
    ).toEqual(['alerts.yml']);
    const provider = parse(read('deploy/observability/grafana/provisioning/dashboards/dashboards.yml')) as {
      providers: Array<{ options: { path: string } }>;
    };
    expect(compose.services['grafana']?.volumes).toEqual(
      expect.arrayContaining([
        './deploy/observability/grafana/provisioning:/etc/grafana/provisioning:ro',
        `./deploy/observability/grafana/dashboards:${provider.providers[0]?.options.path}:ro`,
      ]),
    );
  });
});
