// `npm run build`: compiles the services, sandboxes and deploy tools once into dist/ (what the container image
// runs: no TypeScript at start). tsc emits the JavaScript; the admin page's static files are copied beside it;
// each `@connector/*` path alias becomes a package under dist/node_modules pointing at its compiled index.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, process.argv[2] ?? 'dist');
const require = createRequire(import.meta.url);

rmSync(outDir, { recursive: true, force: true });
execFileSync(
  process.execPath,
  [require.resolve('typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json'), '--outDir', outDir],
  {
    stdio: 'inherit',
  },
);

const assets = ['apps/connector-registry/src/app/admin-page/public'];
for (const dir of assets) cpSync(join(root, dir), join(outDir, dir), { recursive: true });

const { compilerOptions } = JSON.parse(readFileSync(join(root, 'tsconfig.base.json'), 'utf8'));
for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
  const compiled = join(outDir, target.replace(/\.ts$/, '.js'));
  if (!existsSync(compiled)) continue; // test-only libs are not part of the build
  const packageDir = join(outDir, 'node_modules', alias);
  mkdirSync(packageDir, { recursive: true });
  const main = relative(packageDir, compiled);
  writeFileSync(
    join(packageDir, 'package.json'),
    `${JSON.stringify({ name: alias, private: true, main }, null, 2)}\n`,
  );
}
console.log(
  `✓ compiled into ${relative(root, outDir) || '.'}/ (start a service: node ${relative(root, outDir)}/apps/<name>/src/main.js)`,
);
