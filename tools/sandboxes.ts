/**
 * The one sandbox runner: every registered ATS whose folder has a sandbox (libs/ats/<type>/sandbox, whose
 * src/sandbox.ts exports its `AtsSandbox` declaration) is found through the registry, so `npm start`, docker
 * compose and the specs start each sandbox without naming one.
 *
 *   node -r @swc-node/register tools/sandboxes.ts [type…]   (compiled: node dist/tools/sandboxes.js [type…])
 *
 * starts the named sandboxes (all of them when none is named) in this process, each on its default port, or on
 * PORT when one is named; Ctrl-C or SIGTERM stops them.
 */
import { atsRegistry } from '@connector/ats-registry';
import { type AtsSandbox, type RunningAtsSandbox, sandboxesOf } from '@connector/ats-sandbox-core';

/** The sandboxes of the registered ATSs, in the registry's order; an ATS without a sandbox folder has none. */
export function registeredSandboxes(): AtsSandbox[] {
  return sandboxesOf(atsRegistry.types());
}

async function main(): Promise<void> {
  const all = registeredSandboxes();
  const named = process.argv.slice(2);
  const unknown = named.filter((type) => !all.some((sandbox) => sandbox.type === type));
  if (unknown.length > 0)
    throw new Error(`no sandbox for ${unknown.join(', ')} (sandboxes: ${all.map((s) => s.type).join(', ')})`);
  const chosen = named.length === 0 ? all : all.filter((sandbox) => named.includes(sandbox.type));
  const port = (sandbox: AtsSandbox) =>
    chosen.length === 1 && process.env['PORT'] ? process.env['PORT'] : String(sandbox.defaultPort);
  const running: RunningAtsSandbox[] = [];
  for (const sandbox of chosen) {
    const started = await sandbox.start({ ...process.env, PORT: port(sandbox) });
    running.push(started);
    console.log(started.describe);
  }
  const stop = (): void => {
    Promise.all(running.map((sandbox) => sandbox.close())).then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('a sandbox failed to close', error);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(`sandbox failed to start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
