import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import * as ts from 'typescript';

/*
 * No file imports itself round a circle (issue 35: libs/ats/core had one through its part types). Lint's module
 * boundaries see projects; this sees files, inside a project and across one through its index.ts, type-only
 * imports and re-exports included: a circle of types is still a reader going round in circles, and the next
 * value import on it is a load-order bug.
 */

const ROOT = join(__dirname, '..');

const PATH_ALIASES = (
  JSON.parse(readFileSync(join(ROOT, 'tsconfig.base.json'), 'utf8')) as {
    compilerOptions: { paths: Record<string, string[]> };
  }
).compilerOptions.paths;

/** Tracked and new (not ignored) TypeScript files, as the repository has them. */
function repositoryFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return out.split('\n').filter((path) => path !== '' && !path.endsWith('.d.ts'));
}

/** The repository file a specifier names (relative, or a path alias), or undefined for a package. */
function resolveImport(from: string, specifier: string, files: ReadonlySet<string>): string | undefined {
  const alias = PATH_ALIASES[specifier]?.[0];
  const base = alias ?? (specifier.startsWith('.') ? normalize(join(dirname(from), specifier)) : undefined);
  if (base === undefined) return undefined;
  return [base, `${base}.ts`, `${base}/index.ts`].find((candidate) => files.has(candidate));
}

/** Each file's imports of other repository files: `import`, `import type`, `export … from`, `import()`. */
function importGraph(sources: ReadonlyMap<string, string>): Map<string, string[]> {
  const files = new Set(sources.keys());
  const graph = new Map<string, string[]>();
  for (const [path, text] of sources) {
    const { importedFiles } = ts.preProcessFile(text, true, true);
    const targets = importedFiles
      .map(({ fileName }) => resolveImport(path, fileName, files))
      .filter((target): target is string => target !== undefined);
    graph.set(path, [...new Set(targets)]);
  }
  return graph;
}

/** The circles of a graph: each strongly connected set of two or more files (or one importing itself), sorted. */
function importCycles(sources: ReadonlyMap<string, string>): string[][] {
  const graph = importGraph(sources);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  // Tarjan's algorithm, iterative (a deep chain of imports would overflow a recursive one).
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; next: number }[] = [{ node: start, next: 0 }];
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const { node } = frame;
      if (frame.next === 0) {
        index.set(node, index.size);
        low.set(node, index.get(node) as number);
        stack.push(node);
        onStack.add(node);
      }
      const targets = graph.get(node) ?? [];
      if (frame.next < targets.length) {
        const target = targets[frame.next++];
        if (!index.has(target)) work.push({ node: target, next: 0 });
        else if (onStack.has(target))
          low.set(node, Math.min(low.get(node) as number, index.get(target) as number));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node) as number, low.get(node) as number));
      if (low.get(node) !== index.get(node)) continue;
      const members: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        members.push(member);
      } while (member !== node);
      if (members.length > 1 || targets.includes(node)) cycles.push(members.sort());
    }
  }
  return cycles.sort((a, b) => a[0].localeCompare(b[0]));
}

describe('import cycles', () => {
  it('no file of the repository imports itself round a circle', () => {
    const sources = new Map(repositoryFiles().map((path) => [path, readFileSync(join(ROOT, path), 'utf8')]));
    expect(importCycles(sources)).toEqual([]);
  });

  it('finds a circle of type imports, one through an index.ts and one through a path alias (it can fail)', () => {
    const sources = new Map([
      ['libs/x/src/lib/a.ts', "import type { B } from './b';\nexport interface A { b: B }"],
      ['libs/x/src/lib/b.ts', "import type { A } from './a';\nexport interface B { a: A }"],
      ['libs/x/src/index.ts', "export * from './lib/c';"],
      ['libs/x/src/lib/c.ts', "import { d } from '../index';\nexport const c = d;"],
      ['libs/ats/core/src/index.ts', "export * from './lib/e';"],
      ['libs/ats/core/src/lib/e.ts', "export { e } from '@connector/ats-core';"],
      ['libs/x/src/lib/f.ts', "import { a } from './a';\nimport { readFileSync } from 'node:fs';"],
    ]);
    expect(importCycles(sources)).toEqual([
      ['libs/ats/core/src/index.ts', 'libs/ats/core/src/lib/e.ts'],
      ['libs/x/src/index.ts', 'libs/x/src/lib/c.ts'],
      ['libs/x/src/lib/a.ts', 'libs/x/src/lib/b.ts'],
    ]);
  });
});
