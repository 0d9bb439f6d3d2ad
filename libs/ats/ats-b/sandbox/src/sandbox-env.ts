import { intFromEnv } from '@connector/ats-sandbox-core';
import type { AtsBSandboxOptions } from './index';

/** Reads the environment once and fails fast, naming the variable that is wrong. */
export function optionsFromEnv(env: NodeJS.ProcessEnv): AtsBSandboxOptions {
  const int = (name: string, fallback: number): number => intFromEnv(env, name, fallback);
  const positive = (name: string): number | undefined => {
    if (!env[name]) return undefined;
    const n = int(name, 0);
    if (n < 1) throw new Error(`${name} must be a positive integer, got '${env[name]}'`);
    return n;
  };
  const days = (name: string): number | undefined => {
    const n = positive(name);
    return n === undefined ? undefined : n * 86_400_000;
  };
  const pair = (name: string, raw: string): [string, string] => {
    const i = raw.indexOf(':');
    if (i <= 0 || i === raw.length - 1)
      throw new Error(`${name} entries must look like name:secret, got '${raw}'`);
    return [raw.slice(0, i), raw.slice(i + 1)];
  };
  const list = (name: string, fallback = ''): string[] =>
    (env[name] || fallback)
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  const redirectUris = list('ATS_B_SANDBOX_REDIRECT_URIS');
  const [clientId, clientSecret] = pair(
    'ATS_B_SANDBOX_CLIENT',
    env['ATS_B_SANDBOX_CLIENT'] || 'platform-client:platform-secret',
  );
  // `us:4021,emea:4022` (name, optional port; none = a free one). Unset: one data centre, as before.
  const dataCentres = list('ATS_B_SANDBOX_DATA_CENTRES').map((entry) => {
    const [name = '', port] = entry.split(':');
    return port === undefined
      ? { name }
      : { name, port: intFromEnv({ ATS_B_SANDBOX_DATA_CENTRES: port }, 'ATS_B_SANDBOX_DATA_CENTRES', 0) };
  });
  // With data centres, `name:secret@dc` puts the user in data centre `dc` (none: the first).
  const users = list('ATS_B_SANDBOX_USERS', 'recruiter:recruiter-pass').map((entry) => {
    const [username, secret] = pair('ATS_B_SANDBOX_USERS', entry);
    const at = secret.lastIndexOf('@');
    if (dataCentres.length === 0 || at < 0) return { username, password: secret };
    const dataCentre = secret.slice(at + 1);
    if (!dataCentres.some((dc) => dc.name === dataCentre))
      throw new Error(
        `ATS_B_SANDBOX_USERS: '${username}' names data centre '${dataCentre}', not one of ATS_B_SANDBOX_DATA_CENTRES`,
      );
    return { username, password: secret.slice(0, at), dataCentre };
  });
  return {
    port: int('PORT', 4020),
    host: env['HOST'] || '127.0.0.1',
    // The address it advertises (loginInfo, restUrl) when clients reach it by another name (docker compose).
    publicUrl: env['ATS_B_SANDBOX_PUBLIC_URL'] || undefined,
    seed: { jobs: int('ATS_B_SANDBOX_JOBS', 200) },
    client: { clientId, clientSecret, redirectUris: redirectUris.length > 0 ? redirectUris : undefined },
    users,
    ...(dataCentres.length > 0 ? { dataCentres } : {}),
    // Optional knobs for benchmarks and demos; unset means the Bullhorn-like defaults.
    perMinuteLimit: env['ATS_B_SANDBOX_PER_MINUTE_LIMIT']
      ? int('ATS_B_SANDBOX_PER_MINUTE_LIMIT', 1500)
      : undefined,
    latencyMs: int('ATS_B_SANDBOX_LATENCY_MS', 0),
    jitterMs: int('ATS_B_SANDBOX_JITTER_MS', 0),
    tenants: { max: int('ATS_B_SANDBOX_MAX_TENANTS', 5_000) },
    sessionTtlSeconds: env['ATS_B_SANDBOX_SESSION_TTL'] ? int('ATS_B_SANDBOX_SESSION_TTL', 600) : undefined,
    // The vendor's pages disagree (15 subscriptions and 7 days in the event guide, 50 and 30 days on the
    // usage-limits page): unset means the event guide's, the less convenient.
    eventSubscriptions: {
      max: positive('ATS_B_SANDBOX_MAX_EVENT_SUBSCRIPTIONS'),
      ttlMs: days('ATS_B_SANDBOX_EVENT_RETENTION_DAYS'),
    },
  };
}
