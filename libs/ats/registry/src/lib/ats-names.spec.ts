import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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

function sourceFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return out
    .split('\n')
    .filter((path) => /\.(ts|js|mjs)$/.test(path) && !/\.(spec|int-spec|e2e-spec)\.ts$/.test(path))
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
