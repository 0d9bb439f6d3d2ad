/**
 * `npm run contracts`: writes docs/asyncapi.yaml, docs/openapi.json and the admin page's admin-api.d.ts from the
 * code. Run it after changing a message class in libs/contracts or an endpoint or view of connector-registry;
 * `--check` only reports drift.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { ADMIN_API_TYPES_PATH } from './admin-api-types';
import { adminApiDts, ASYNCAPI_PATH, asyncApiYaml, OPENAPI_PATH, openApiJson, ROOT } from './contract-docs';

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const openApi = await openApiJson();
  const documents: Array<[string, string]> = [
    [ASYNCAPI_PATH, asyncApiYaml()],
    [OPENAPI_PATH, openApi],
    [ADMIN_API_TYPES_PATH, adminApiDts(openApi)],
  ];
  let stale = 0;
  for (const [path, text] of documents) {
    const name = relative(ROOT, path);
    let current = '';
    try {
      current = readFileSync(path, 'utf8');
    } catch {
      /* not written yet */
    }
    if (current === text) {
      process.stdout.write(`✓ ${name} is up to date\n`);
    } else if (check) {
      stale++;
      process.stderr.write(`✖ ${name} differs from the code: run \`npm run contracts\` and commit it\n`);
    } else {
      writeFileSync(path, text);
      process.stdout.write(`✎ ${name} written\n`);
    }
  }
  process.exit(stale > 0 ? 1 : 0);
}

main().catch((error: unknown) => {
  process.stderr.write(`✖ ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
