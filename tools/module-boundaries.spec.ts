import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '..');

/** Files written into a project for the time of the test, linted the way `npm run lint` sees them. */
const probes = {
  appImportsApp:
    "import { VacancySyncConfig } from '../../vacancy-sync/src/app/vacancy-sync.config';\nexport const probe = VacancySyncConfig;\n",
  serviceImportsSandbox:
    "import { startAtsASandbox } from '@connector/ats-a-sandbox';\nexport const probe = startAtsASandbox;\n",
  appImportsSharedLib:
    "import { Exchange } from '@connector/contracts';\nexport const probe = Exchange.PlatformEvents;\n",
};
type Probe = keyof typeof probes;
const pathOf = (probe: Probe) => join(root, 'apps/candidate-sync/src', `boundary-probe-${probe}.ts`);

describe('module boundaries', () => {
  const messages = new Map<Probe, string[]>();

  beforeAll(() => {
    const names = Object.keys(probes) as Probe[];
    names.forEach((probe) => writeFileSync(pathOf(probe), probes[probe]));
    try {
      // The ESLint CLI (its flat config is ESM, which Jest cannot load in-process). The report goes to a file:
      // on a fresh checkout Nx may print notices on stdout while it builds the project graph.
      const report = join(mkdtempSync(join(tmpdir(), 'boundaries-')), 'report.json');
      // The boundary rule reads Nx's project graph and is skipped without one: build it first, as `npm run lint` does.
      spawnSync(join(root, 'node_modules/.bin/nx'), ['show', 'projects'], {
        cwd: root,
        env: { ...process.env, NX_DAEMON: 'false' },
      });
      spawnSync(
        join(root, 'node_modules/.bin/eslint'),
        ['--format', 'json', '--output-file', report, ...names.map(pathOf)],
        { cwd: root },
      );
      const results = JSON.parse(readFileSync(report, 'utf8')) as Array<{
        filePath: string;
        messages: Array<{ ruleId: string; message: string }>;
      }>;
      for (const probe of names) {
        const result = results.find((r) => r.filePath === pathOf(probe));
        messages.set(
          probe,
          (result?.messages ?? [])
            .filter((m) => m.ruleId === '@nx/enforce-module-boundaries')
            .map((m) => m.message),
        );
      }
    } finally {
      names.forEach((probe) => rmSync(pathOf(probe), { force: true }));
    }
  }, 60_000);

  it('fails lint when an app imports another app', () => {
    expect(messages.get('appImportsApp')).toEqual([
      expect.stringMatching(/Projects cannot be imported by a relative or absolute path/),
    ]);
  });

  it('fails lint when a service imports a sandbox lib', () => {
    expect(messages.get('serviceImportsSandbox')).toEqual([
      expect.stringMatching(/tagged with "scope:service" can only depend on libs tagged with "scope:shared"/),
    ]);
  });

  it('lets an app import a shared lib through its barrel', () => {
    expect(messages.get('appImportsSharedLib')).toEqual([]);
  });
});
