import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import * as ts from 'typescript';
import { atsRegistry } from './ats-adapters';

const ROOT = join(__dirname, '../../../../..');

/**
 * Where ATS names may be listed together: the adapters' folders, the sandboxes (they play one vendor each),
 * migrations (history: the CHECK that listed them is dropped by a later one) and the admin page's types,
 * generated from docs/openapi.json, whose enum the registry fills (`npm run contracts`).
 */
const ALLOWED = [
  /^libs\/ats\//,
  /sandbox/,
  /\/migrations\//,
  /^apps\/connector-registry\/src\/app\/admin-page\/public\/admin-api\.d\.ts$/,
];

/** `'ats-a' | 'ats-b'` (a type), or `'ats-a', 'ats-b'` (a list: an array, an enum, SQL's IN). */
function listsOfNames(text: string, names: readonly string[]): string[] {
  const name = `(?:${names.map((n) => n.replace(/[-]/g, '\\-')).join('|')})`;
  const quoted = `['"\`]${name}['"\`]`;
  const pattern = new RegExp(`${quoted}\\s*(?:\\||,)\\s*${quoted}`, 'g');
  return text.match(pattern) ?? [];
}

/** Tracked and new (not ignored) files, as the repository has them. */
function repositoryFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return out.split('\n').filter((path) => path !== '' && /\.(ts|js|mjs)$/.test(path));
}

const isTest = (path: string) => /\.(spec|int-spec|e2e-spec)\.ts$/.test(path);

function sourceFiles(): string[] {
  return repositoryFiles()
    .filter((path) => !isTest(path))
    .filter((path) => !ALLOWED.some((allowed) => allowed.test(path)));
}

describe('ATS names', () => {
  it('are listed together only in the registry: no literal union or list of them elsewhere', () => {
    const names = atsRegistry.types();
    const found = sourceFiles().flatMap((path) =>
      listsOfNames(readFileSync(join(ROOT, path), 'utf8'), names).map((hit) => `${path}: ${hit}`),
    );
    expect(found).toEqual([]);
  });

  it('finds a union, a list and an SQL IN of them (the check above can fail)', () => {
    const names = ['ats-a', 'ats-b'];
    expect(listsOfNames(`type T = 'ats-a' | 'ats-b';`, names)).toHaveLength(1);
    expect(listsOfNames(`const L = ['ats-a', "ats-b"];`, names)).toHaveLength(1);
    expect(listsOfNames(`CHECK ("type" IN ('ats-a', 'ats-b'))`, names)).toHaveLength(1);
    expect(listsOfNames(`if (type === 'ats-a') return 'ats-b';`, names)).toEqual([]);
  });
});

/*
 * A vendor is a folder (STYLE.md 12): outside libs/ats, production code names no vendor (in an identifier, a
 * string or a file name; comments are prose and not read), and only the registry imports a concrete adapter.
 * Production code is what the services, the sandboxes and the tools run: not tests, the test kit, bench, chaos,
 * migrations (history) or generated files. The baseline below is empty: a violation it does not list fails, and
 * so does an entry that no longer occurs, so the list stays true.
 */

/** The vendors' brand names (docs/ats-a.md, docs/ats-b.md), which the registry does not hold. */
const BRANDS = ['eploy', 'bullhorn'];

const PRODUCTION = /^(apps|libs|tools)\//;
const NOT_PRODUCTION = [
  /^apps\/e2e\//,
  /^libs\/(testing|service-stubs|ats\/testing)\//,
  /^libs\/[^/]+\/src\/test\//,
  /\/migrations\/|\.migration\.ts$/,
  /^apps\/connector-registry\/src\/app\/admin-page\/public\/admin-api\.d\.ts$/,
];

/**
 * Known violations, `<file>: <what>`; a folder (`<folder>/: vendor folder`) holds whatever its files do. Issue 35
 * emptied it: keep it so, putting the vendor's part in its adapter rather than adding an entry.
 */
const BASELINE: readonly string[] = [];

/**
 * A vendor's name as code writes it: `ats-a`, `ATS-A`, `ats_a`, `ATS_A` as a word (not `ats-adapter`); `atsA`,
 * `AtsA` as a word of an identifier (not `AtsAdapter`, `atsAccess`); a brand in any of these cases.
 */
function vendorPattern(names: readonly string[]): RegExp {
  const spellings = names.flatMap((name) => {
    const words = name.toLowerCase().split('-');
    const [first, ...rest] = words.map((word) => word.charAt(0).toUpperCase() + word.slice(1));
    return [
      `(?<![A-Za-z0-9])(?:${words.join('[-_]?')}|${words.join('[-_]?').toUpperCase()})(?![A-Za-z0-9])`,
      `(?<![A-Za-z0-9])${words[0]}${rest.join('')}(?![a-z])`,
      `${first}${rest.join('')}(?![a-z])`,
    ];
  });
  return new RegExp(spellings.join('|'), 'g');
}

/** The path aliases of tsconfig.base.json: `@connector/<name>` to its lib's barrel. */
const PATH_ALIASES = (
  JSON.parse(readFileSync(join(ROOT, 'tsconfig.base.json'), 'utf8')) as {
    compilerOptions: { paths: Record<string, string[]> };
  }
).compilerOptions.paths;

/** Whether a module specifier loads a concrete adapter (its alias, or a path into its folder) from outside it. */
function importsAdapter(path: string, specifier: string, adapterFolders: readonly string[]): boolean {
  const target = specifier.startsWith('.')
    ? `${relative(ROOT, resolve(ROOT, dirname(path), specifier))}/`
    : (PATH_ALIASES[specifier]?.[0] ?? '');
  return adapterFolders.some((folder) => target.startsWith(folder) && !path.startsWith(folder));
}

/** What one file does that only the adapters and the registry may: `file name`, `import …`, `name …`. */
function violationsIn(path: string, text: string, types: readonly string[]): string[] {
  const names = vendorPattern([...types, ...BRANDS]);
  const adapterFolders = types.map((type) => `libs/ats/${type}/`);
  const namesIn = (value: string) => [...value.matchAll(names)].map((match) => `name ${match[0]}`);
  const insideAts = path.startsWith('libs/ats/');
  const found = insideAts || namesIn(path).length === 0 ? [] : ['file name'];
  const visit = (node: ts.Node): void => {
    const specifier =
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier
        ? (node.moduleSpecifier as ts.StringLiteral).text
        : undefined;
    if (
      specifier !== undefined &&
      !path.startsWith('libs/ats/registry/') &&
      importsAdapter(path, specifier, adapterFolders)
    ) {
      found.push(`import ${specifier}`);
      return;
    }
    if (
      !insideAts &&
      (ts.isIdentifier(node) || ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node))
    ) {
      found.push(...namesIn(node.text));
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false));
  return found;
}

/** The violations of `files` (path and text), each `<file>: <what>` once, sorted. */
function violationsOf(
  files: ReadonlyArray<{ path: string; text: string }>,
  types: readonly string[],
): string[] {
  const found = files.flatMap(({ path, text }) =>
    violationsIn(path, text, types).map((what) => `${path}: ${what}`),
  );
  return [...new Set(found)].sort();
}

const FOLDER = ': vendor folder';

/** The violations not in `baseline`, and the baseline entries that no longer occur. */
function againstBaseline(found: readonly string[], baseline: readonly string[]) {
  const folders = baseline
    .filter((entry) => entry.endsWith(FOLDER))
    .map((entry) => entry.slice(0, -FOLDER.length));
  const inFolder = (folder: string) => (entry: string) => entry.startsWith(folder);
  return {
    added: found.filter(
      (entry) => !baseline.includes(entry) && !folders.some((folder) => inFolder(folder)(entry)),
    ),
    gone: baseline.filter((entry) =>
      entry.endsWith(FOLDER) ? !found.some(inFolder(entry.slice(0, -FOLDER.length))) : !found.includes(entry),
    ),
  };
}

const productionFiles = () =>
  repositoryFiles()
    .filter((path) => PRODUCTION.test(path) && !isTest(path) && !NOT_PRODUCTION.some((p) => p.test(path)))
    .map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }));

describe('vendor names outside libs/ats', () => {
  const types = atsRegistry.types();

  it('production code names no vendor and imports no adapter, but for the baseline (empty)', () => {
    const { added, gone } = againstBaseline(violationsOf(productionFiles(), types), BASELINE);
    // added: put the vendor's part in its adapter (libs/ats/<name>) and ask the registry for it.
    // gone: the baseline names something no longer there; remove the entry.
    expect({ added, gone }).toEqual({ added: [], gone: [] });
  });

  it('finds vendor names, adapter imports and vendor files; not comments, not the registry (it can fail)', () => {
    const found = violationsOf(
      [
        {
          path: 'apps/vacancy-sync/src/app/runs/sync.ts',
          text: [
            "import { AtsAClient } from '@connector/ats-a';",
            '// ATS-A and ats-b in a comment are prose',
            "const limit = process.env['ATS_B_LIMIT'] ?? 'ats-a';",
            'const kind: AtsAdapter = atsAccess(new AtsAClient());',
            'const toBullhornJob = `${limit}`;',
          ].join('\n'),
        },
        { path: 'apps/vacancy-sync/src/app/runs/eploy-statuses.ts', text: 'export {};' },
        {
          path: 'libs/ats/client-factory/src/lib/systems.ts',
          text: "export * from '../../../ats-b/src/index';",
        },
        {
          path: 'libs/ats/registry/src/lib/adapters.ts',
          text: "import { atsAAdapter } from '@connector/ats-a';",
        },
      ],
      types,
    );
    expect(found).toEqual([
      'apps/vacancy-sync/src/app/runs/eploy-statuses.ts: file name',
      'apps/vacancy-sync/src/app/runs/sync.ts: import @connector/ats-a',
      'apps/vacancy-sync/src/app/runs/sync.ts: name ATS_B',
      'apps/vacancy-sync/src/app/runs/sync.ts: name AtsA',
      'apps/vacancy-sync/src/app/runs/sync.ts: name Bullhorn',
      'apps/vacancy-sync/src/app/runs/sync.ts: name ats-a',
      'libs/ats/client-factory/src/lib/systems.ts: import ../../../ats-b/src/index',
    ]);
  });

  it('fails on a violation the baseline lacks and on a baseline entry that no longer occurs', () => {
    const baseline = [
      'apps/a.ts: name AtsA',
      'apps/gone.ts: name ats-b',
      'libs/ats-c-sandbox/: vendor folder',
    ];
    const found = [
      'apps/a.ts: name AtsA',
      'apps/a.ts: name ATS_B',
      'libs/ats-c-sandbox/src/main.ts: file name',
    ];
    expect(againstBaseline(found, baseline)).toEqual({
      added: ['apps/a.ts: name ATS_B'],
      gone: ['apps/gone.ts: name ats-b'],
    });
    expect(againstBaseline(['apps/a.ts: name AtsA'], baseline).gone).toContain(
      'libs/ats-c-sandbox/: vendor folder',
    );
  });
});
