import { startAtsBSandbox, type AtsBSandboxOptions } from '@connector/ats-b-sandbox';

/** Reads the environment once and fails fast, naming the variable that is wrong. */
function optionsFromEnv(env: NodeJS.ProcessEnv): AtsBSandboxOptions {
  const int = (name: string, fallback: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 0)
      throw new Error(`${name} must be a non-negative integer, got '${raw}'`);
    return n;
  };
  const pair = (name: string, raw: string): [string, string] => {
    const i = raw.indexOf(':');
    if (i <= 0 || i === raw.length - 1)
      throw new Error(`${name} entries must look like name:secret, got '${raw}'`);
    return [raw.slice(0, i), raw.slice(i + 1)];
  };
  const [clientId, clientSecret] = pair(
    'ATS_B_SANDBOX_CLIENT',
    env['ATS_B_SANDBOX_CLIENT'] || 'platform-client:platform-secret',
  );
  const redirectUris = (env['ATS_B_SANDBOX_REDIRECT_URIS'] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const users = (env['ATS_B_SANDBOX_USERS'] || 'recruiter:recruiter-pass')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const [username, password] = pair('ATS_B_SANDBOX_USERS', entry);
      return { username, password };
    });
  return {
    port: int('PORT', 4020),
    host: env['HOST'] || '127.0.0.1',
    // The address it advertises (loginInfo, restUrl) when clients reach it by another name (docker compose).
    publicUrl: env['ATS_B_SANDBOX_PUBLIC_URL'] || undefined,
    seed: { jobs: int('ATS_B_SANDBOX_JOBS', 200) },
    client: { clientId, clientSecret, redirectUris: redirectUris.length > 0 ? redirectUris : undefined },
    users,
    // Optional knobs for benchmarks and demos; unset means the Bullhorn-like defaults.
    perMinuteLimit: env['ATS_B_SANDBOX_PER_MINUTE_LIMIT']
      ? int('ATS_B_SANDBOX_PER_MINUTE_LIMIT', 1500)
      : undefined,
    latencyMs: int('ATS_B_SANDBOX_LATENCY_MS', 0),
    jitterMs: int('ATS_B_SANDBOX_JITTER_MS', 0),
    tenants: { max: int('ATS_B_SANDBOX_MAX_TENANTS', 5_000) },
    sessionTtlSeconds: env['ATS_B_SANDBOX_SESSION_TTL'] ? int('ATS_B_SANDBOX_SESSION_TTL', 600) : undefined,
  };
}

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
