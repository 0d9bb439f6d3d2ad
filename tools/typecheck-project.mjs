// `nx run <project>:typecheck`: type-checks one project (and what it imports) with the workspace's settings,
// so Nx can cache the result per project. `npm run typecheck` still checks the whole workspace at once.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const projectRoot = process.argv[2];
if (!projectRoot) throw new Error('usage: node tools/typecheck-project.mjs <projectRoot>');
const dir = join(root, 'tmp', 'typecheck');
mkdirSync(dir, { recursive: true });
const config = join(dir, `${projectRoot.replaceAll('/', '_')}.tsconfig.json`);
writeFileSync(
  config,
  JSON.stringify({
    extends: '../../tsconfig.base.json',
    compilerOptions: { noEmit: true },
    include: [`../../${projectRoot}/**/*.ts`],
  }),
);
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
try {
  execFileSync(process.execPath, [tsc, '-p', config], { stdio: 'inherit', cwd: root });
} catch {
  process.exit(1);
}
