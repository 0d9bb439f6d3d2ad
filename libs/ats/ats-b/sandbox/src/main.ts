import { startAtsBSandbox } from './index';
import { optionsFromEnv } from './sandbox-env';

async function main(): Promise<void> {
  const sandbox = await startAtsBSandbox(optionsFromEnv(process.env));
  console.log(
    `ATS-B sandbox listening on ${sandbox.url} (oauth ${sandbox.oauthUrl}, admin ${sandbox.url}/__sandbox)`,
  );
  const stop = (): void => {
    sandbox.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((err: unknown) => {
  console.error(`ATS-B sandbox failed to start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
