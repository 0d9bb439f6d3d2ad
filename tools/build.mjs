// `npm run build`: compiles the services, sandboxes and deploy tools once into dist/ (what the container image
// runs: no TypeScript at start). tsc emits the JavaScript; the admin page's static files are copied beside it;
// each `@connector/*` path alias becomes a package under dist/node_modules pointing at its compiled index; and
// dist/sbom.cdx.json lists the production dependencies.
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
// The production dependencies (exactly the lockfile's) as a CycloneDX SBOM, for whatever scanner a deployment
// points at it: `npm audit` needs an advisory endpoint not every network reaches. npm's own `--omit=dev` drops
// some production packages from a lockfile-only SBOM, so the production closure is walked here.
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
const production = productionPackages(lock.packages);
const sbom = JSON.parse(
  execFileSync('npm', ['sbom', '--package-lock-only', '--sbom-format', 'cyclonedx'], {
    cwd: root,
    maxBuffer: 256 * 1024 * 1024,
  }).toString(),
);
sbom.components = sbom.components.filter((c) => production.has(`${c.name}@${c.version}`));
const kept = new Set([sbom.metadata?.component?.['bom-ref'], ...sbom.components.map((c) => c['bom-ref'])]);
sbom.dependencies = (sbom.dependencies ?? [])
  .filter((d) => kept.has(d.ref))
  .map((d) => ({ ...d, dependsOn: (d.dependsOn ?? []).filter((ref) => kept.has(ref)) }));
writeFileSync(join(outDir, 'sbom.cdx.json'), `${JSON.stringify(sbom, null, 2)}\n`);

/** `name@version` of every package package.json's dependencies need, by node's resolution in the lockfile. */
function productionPackages(packages) {
  const resolve = (from, name) => {
    for (let base = from; ;) {
      const candidate = `${base ? `${base}/` : ''}node_modules/${name}`;
      if (packages[candidate]) return candidate;
      if (!base) return undefined;
      const parent = base.lastIndexOf('/node_modules/');
      base = parent < 0 ? '' : base.slice(0, parent);
    }
  };
  const seen = new Set();
  const visit = (path) => {
    if (!path || seen.has(path)) return;
    seen.add(path);
    const entry = packages[path];
    const optionalPeers = entry.peerDependenciesMeta ?? {};
    const names = [
      ...Object.keys(entry.dependencies ?? {}),
      ...Object.keys(entry.optionalDependencies ?? {}),
      ...Object.keys(entry.peerDependencies ?? {}).filter((name) => !optionalPeers[name]?.optional),
    ];
    for (const name of names) visit(resolve(path, name));
  };
  const top = packages[''];
  for (const name of Object.keys({ ...top.dependencies, ...top.optionalDependencies }))
    visit(resolve('', name));
  return new Set(
    [...seen].map((path) => {
      const entry = packages[path];
      return `${entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)}@${entry.version}`;
    }),
  );
}

console.log(
  `✓ compiled into ${relative(root, outDir) || '.'}/ (start a service: node ${relative(root, outDir)}/apps/<name>/src/main.js)`,
);
