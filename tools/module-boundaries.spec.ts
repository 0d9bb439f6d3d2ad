import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '..');

/**
 * Sources linted the way `npm run lint` sees them, as if they were files of the project they name. They are
 * never written: ESLint's `lintText` lints them under the path given, so a test run leaves the tree untouched.
 */
const probes = {
  appImportsApp: {
    dir: 'apps/candidate-sync/src',
    text: "import { VacancySyncConfig } from '../../vacancy-sync/src/app/vacancy-sync.config';\nexport const probe = VacancySyncConfig;\n",
  },
  serviceImportsSandbox: {
    dir: 'apps/candidate-sync/src',
    text: "import { startAtsASandbox } from '@connector/ats-a-sandbox';\nexport const probe = startAtsASandbox;\n",
  },
  serviceImportsTestKit: {
    dir: 'apps/candidate-sync/src',
    text: "import { eventually } from '@connector/testing';\nexport const probe = eventually;\n",
  },
  appImportsSharedLib: {
    dir: 'apps/candidate-sync/src',
    text: "import { Exchange } from '@connector/contracts';\nexport const probe = Exchange.PlatformEvents;\n",
  },
  vendorImportsServiceLayer: {
    dir: 'libs/ats/client-factory/src/lib',
    text: "import { ErasedCandidates } from '@connector/service-kit';\nexport const probe = ErasedCandidates;\n",
  },
  infraImportsVendor: {
    // Every infra lib is below an adapter now (the sinks throw messaging's PermanentMessageError): the cycle
    // such an import makes may be named before the layers, as for the HTTP layer below.
    dir: 'libs/messaging/src/lib',
    text: "import { AtsAClient } from '@connector/ats-a';\nexport const probe = AtsAClient;\n",
  },
  httpLayerImportsVendor: {
    dir: 'libs/ats/http/src/lib',
    text: "import { AtsAClient } from '@connector/ats-a';\nexport const probe = AtsAClient;\n",
  },
  vendorImportsHttpLayer: {
    dir: 'libs/ats/ats-a/src/lib',
    text: "import { AtsHttp } from '@connector/ats-http';\nexport const probe = AtsHttp;\n",
  },
  serviceLayerImportsVendor: {
    dir: 'libs/exactly-once/src/lib',
    text: "import { AtsAClient } from '@connector/ats-a';\nexport const probe = AtsAClient;\n",
  },
  sandboxImportsProduct: {
    dir: 'libs/ats/ats-a/sandbox/src/lib',
    text: "import { Exchange } from '@connector/contracts';\nexport const probe = Exchange;\n",
  },
  adapterImportsItsSandbox: {
    // The sandbox lives in its vendor's folder (libs/ats/ats-a/sandbox) but is a project of its own.
    dir: 'libs/ats/ats-a/src/lib/client',
    text: "import { startAtsASandbox } from '@connector/ats-a-sandbox';\nexport const probe = startAtsASandbox;\n",
  },
  vendorSpecStartsSandbox: {
    dir: 'libs/ats/ats-a/src/lib/client',
    spec: true,
    text: "import { startAtsASandbox } from '@connector/ats-a-sandbox';\nexport const probe = startAtsASandbox;\n",
  },
};
type Probe = keyof typeof probes;
const pathOf = (probe: Probe) => {
  const { dir, spec } = probes[probe] as { dir: string; spec?: boolean };
  return join(root, dir, `boundary-probe-${probe}${spec ? '.spec' : ''}.ts`);
};

// ESLint's flat config is ESM, which Jest cannot load in-process: a child Node runs ESLint's API instead.
const lintScript = `
import { readFileSync, writeFileSync } from 'node:fs';
import { ESLint } from 'eslint';
const { probes, report } = JSON.parse(readFileSync(0, 'utf8'));
// The type-aware parser knows only files on disk; the boundary rule needs no types, and runs alone.
const eslint = new ESLint({
  overrideConfig: { files: ['**/*.ts'], languageOptions: { parserOptions: { projectService: false } } },
  ruleFilter: ({ ruleId }) => ruleId === '@nx/enforce-module-boundaries',
});
const results = [];
for (const { filePath, text } of probes) results.push(...(await eslint.lintText(text, { filePath })));
writeFileSync(report, JSON.stringify(results));
`;

describe('module boundaries', () => {
  const messages = new Map<Probe, string[]>();

  beforeAll(() => {
    const names = Object.keys(probes) as Probe[];
    // The report goes to a file: on a fresh checkout Nx may print notices on stdout while it builds the graph.
    const report = join(mkdtempSync(join(tmpdir(), 'boundaries-')), 'report.json');
    // The boundary rule reads Nx's project graph and is skipped without one: build it first, as `npm run lint` does.
    spawnSync(join(root, 'node_modules/.bin/nx'), ['show', 'projects'], {
      cwd: root,
      env: { ...process.env, NX_DAEMON: 'false' },
    });
    const lint = spawnSync(process.execPath, ['--input-type=module', '-e', lintScript], {
      cwd: root,
      input: JSON.stringify({
        report,
        probes: names.map((probe) => ({ filePath: pathOf(probe), text: probes[probe].text })),
      }),
      encoding: 'utf8',
    });
    if (lint.status !== 0) throw new Error(`ESLint did not run: ${lint.stderr}`);
    const results = JSON.parse(readFileSync(report, 'utf8')) as Array<{
      filePath: string;
      messages: Array<{ ruleId: string; message: string }>;
    }>;
    for (const probe of names) {
      const result = results.find((r) => r.filePath === pathOf(probe));
      // A parse error would hide the rule's verdict: let it fail the test with its own words.
      messages.set(
        probe,
        (result?.messages ?? [])
          .filter((m) => m.ruleId === '@nx/enforce-module-boundaries' || m.ruleId === null)
          .map((m) => m.message),
      );
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

  it('fails lint when a service imports the test kit outside its tests', () => {
    expect(messages.get('serviceImportsTestKit')).toEqual([
      expect.stringMatching(/tagged with "scope:service" can only depend on libs tagged with "scope:shared"/),
    ]);
  });

  it('lets an app import a shared lib through its barrel', () => {
    expect(messages.get('appImportsSharedLib')).toEqual([]);
  });

  it('fails lint when a vendor adapter imports a service-layer lib', () => {
    expect(messages.get('vendorImportsServiceLayer')).toEqual([
      expect.stringMatching(
        /tagged with "layer:vendor" can only depend on libs tagged with "layer:base", "layer:infra", "layer:vendor"$/,
      ),
    ]);
  });

  it('fails lint when an infrastructure lib imports a vendor adapter', () => {
    expect(messages.get('infraImportsVendor')).toEqual([
      expect.stringMatching(
        /^Circular dependency between "messaging" and "ats-a"|tagged with "layer:infra" can only depend on libs tagged with "layer:base", "layer:infra"$/,
      ),
    ]);
  });

  it('fails lint when the generic HTTP layer imports a vendor adapter (it sits below them)', () => {
    // The adapters import the HTTP layer: the rule names the cycle such an import makes before the layers.
    expect(messages.get('httpLayerImportsVendor')).toEqual([
      expect.stringMatching(
        /^Circular dependency between "ats-http" and "ats-a"|tagged with "layer:infra" can only depend on libs tagged with "layer:base", "layer:infra"$/,
      ),
    ]);
  });

  it('lets a vendor adapter import the generic HTTP layer', () => {
    expect(messages.get('vendorImportsHttpLayer')).toEqual([]);
  });

  it('lets a service-layer lib import a vendor adapter', () => {
    expect(messages.get('serviceLayerImportsVendor')).toEqual([]);
  });

  it('fails lint when a sandbox imports a product lib, even the contracts', () => {
    expect(messages.get('sandboxImportsProduct')).toEqual([
      expect.stringMatching(
        /tagged with "scope:sandbox" can only depend on libs tagged with "scope:sandbox"$/,
      ),
    ]);
  });

  it("fails lint when an adapter's production code imports the sandbox in its own folder", () => {
    expect(messages.get('adapterImportsItsSandbox')).toEqual([
      expect.stringMatching(/tagged with "scope:shared" can only depend on libs tagged with "scope:shared"$/),
    ]);
  });

  it("lets a vendor adapter's tests start a sandbox", () => {
    expect(messages.get('vendorSpecStartsSandbox')).toEqual([]);
  });
});
