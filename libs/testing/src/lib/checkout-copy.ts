import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { WORKSPACE_ROOT } from './service-process';

/** Where the registry lists its adapters and where the path aliases live: the edits a new ATS may make. */
export const REGISTRY_FILE = 'libs/ats/registry/src/lib/ats-adapters.ts';
export const PATH_ALIASES_FILE = 'tsconfig.base.json';

/** An ATS folder to add: a complete `libs/ats/<type>` as docs/adding-an-ats.md describes, and its adapter's export. */
export interface AtsFolder {
  /** Its adapter's `type`: the folder becomes `libs/ats/<type>`, its alias `@connector/<type>`. */
  type: string;
  /** The folder to copy in. */
  from: string;
  /** The adapter its `src/index.ts` exports (`twKeysAdapter`). */
  adapterExport: string;
}

/** A copy of this checkout in a temporary folder, under git of its own, to add ATSs to as their author would. */
export interface CheckoutCopy {
  root: string;
  /**
   * Adds `folder` as `libs/ats/<type>` with the registry line and the path alias, regenerates the contract
   * documents (`npm run contracts`), commits, and answers every file the addition touched outside the folder.
   */
  addAts(folder: AtsFolder): string[];
  remove(): void;
}

const git = (root: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', ...args], {
    cwd: root,
    encoding: 'utf8',
  });

/**
 * Copies the checkout's files (tracked and new, as `git ls-files` lists them, except `leaveOut`: folders this
 * copy must not have, e.g. the templates it adds from) with node_modules linked, and commits them as the base.
 */
export function copyCheckout(leaveOut: readonly string[] = []): CheckoutCopy {
  const root = mkdtempSync(join(tmpdir(), 'checkout-copy-'));
  const files = git(WORKSPACE_ROOT, 'ls-files', '-z', '--cached', '--others', '--exclude-standard')
    .split('\0')
    .filter((file) => file !== '' && !leaveOut.some((folder) => file.startsWith(`${folder}/`)));
  for (const file of files) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    // A file deleted in the working tree but still tracked is simply not copied.
    try {
      cpSync(join(WORKSPACE_ROOT, file), join(root, file));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  symlinkSync(join(WORKSPACE_ROOT, 'node_modules'), join(root, 'node_modules'));
  git(root, 'init', '-q');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'the checkout as it was');
  return {
    root,
    addAts: (folder) => addAts(root, folder),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

function addAts(root: string, folder: AtsFolder): string[] {
  const own = `libs/ats/${folder.type}`;
  cpSync(folder.from, join(root, own), { recursive: true });
  edit(root, REGISTRY_FILE, (text) => {
    const list = /export const ATS_ADAPTERS = \[([^\]]*)\] as const;/;
    if (!list.test(text)) throw new Error(`${REGISTRY_FILE} has no ATS_ADAPTERS list`);
    return `import { ${folder.adapterExport} } from '@connector/${folder.type}';\n${text.replace(
      list,
      (_all, adapters: string) =>
        `export const ATS_ADAPTERS = [${adapters}, ${folder.adapterExport}] as const;`,
    )}`;
  });
  edit(root, PATH_ALIASES_FILE, (text) => {
    const paths = /"paths": \{\n/;
    if (!paths.test(text)) throw new Error(`${PATH_ALIASES_FILE} has no "paths"`);
    return text.replace(
      paths,
      (opening) => `${opening}      "@connector/${folder.type}": ["${own}/src/index.ts"],\n`,
    );
  });
  execFileSync(process.execPath, ['-r', '@swc-node/register', 'tools/contracts.ts'], {
    cwd: root,
    stdio: 'pipe',
  });
  git(root, 'add', '-A');
  const touched = git(root, 'diff', '--cached', '--name-only')
    .split('\n')
    .filter((file) => file !== '' && !file.startsWith(`${own}/`));
  git(root, 'commit', '-q', '-m', `add ${folder.type}`);
  return touched;
}

function edit(root: string, file: string, change: (text: string) => string): void {
  const path = join(root, file);
  writeFileSync(path, change(readFileSync(path, 'utf8')));
}
