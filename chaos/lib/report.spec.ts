import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatTable, writeDocs } from './report';
import type { ScenarioResult } from './scenario-runner';

const result = (scenario: string, overrides: Partial<ScenarioResult> = {}): ScenarioResult => ({
  scenario,
  seed: 1,
  events: 300,
  faults: ['kill -9 candidate-sync'],
  lost: 0,
  duplicated: 0,
  failureLog: 0,
  recovery: { settledMs: 12_340, healthyMs: 20_000 },
  violations: [],
  notes: [],
  lostLabels: [],
  duplicatedLabels: [],
  passed: true,
  logDir: '/tmp',
  ...overrides,
});

describe('report', () => {
  it('prints a row per scenario, marking lost and duplicated effects', () => {
    const table = formatTable([
      result('a'),
      result('b', { lost: 2, duplicated: 1, recovery: { settledMs: null, healthyMs: 500 } }),
    ]);
    const [, , a, b] = table.split('\n');
    expect(a).toMatch(
      /^\| `a` \| 300 \| kill -9 candidate-sync \| 0 \| 0 \| 0 \| settled 12\.3 s, healthy 20\.0 s \|/,
    );
    expect(b).toContain('| **2** | **1** |');
    expect(b).toContain('settled **not within the time allowed**, healthy 0.5 s');
  });

  it('replaces the rows of the scenarios that ran, keeps the others in the suite order, lists the scenarios', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'reliability-')), 'reliability.md');
    writeFileSync(
      path,
      '# R\n\n<!-- chaos-scenarios:start -->\n<!-- chaos-scenarios:end -->\n\n' +
        '<!-- chaos-table:start -->\n| `gone` | 1 |\n| `c`    | 7 |\n<!-- chaos-table:end -->\n\nAfter.\n',
    );
    const scenarios = [
      { name: 'a', description: 'A fault.' },
      { name: 'b', description: 'B fault.', restartsSharedInfrastructure: true },
      { name: 'c', description: 'C fault.' },
    ];
    writeDocs(path, [result('b'), result('a')], scenarios);
    writeDocs(path, [result('b', { events: 42 })], scenarios);
    const text = readFileSync(path, 'utf8');
    const rows = text.split('\n').filter((l) => l.startsWith('| `'));
    // The row of `c`, as prettier pads it, is kept as it was.
    expect(rows.map((r) => r.split(' | ')[0].trimEnd())).toEqual(['| `a`', '| `b`', '| `c`']);
    expect(rows[1]).toContain('| 42 |');
    expect(rows[2]).toBe('| `c`    | 7 |');
    expect(text).toContain(
      '<!-- chaos-scenarios:start -->\n- `a`: A fault.\n- `b` (restarts shared infrastructure): B fault.\n' +
        '- `c`: C fault.\n<!-- chaos-scenarios:end -->',
    );
    expect(text).toContain('<!-- chaos-table:start -->\n| scenario |');
    expect(text.endsWith('<!-- chaos-table:end -->\n\nAfter.\n')).toBe(true);
  });
});
