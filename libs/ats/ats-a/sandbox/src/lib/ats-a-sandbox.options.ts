export interface AtsASandboxClient {
  clientId: string;
  clientSecret: string;
  /** When set, tokens of this client may only call endpoints needing one of these scopes (else 403). */
  scopes?: string[];
}

export interface AtsASandboxSeed {
  vacancies: number;
  seed?: number;
  /**
   * Day the generated dates are relative to (ISO date or epoch ms). Default: today's UTC midnight at seeding,
   * so "not yet advertised" and "expired" vacancies stay so during the day. Same seed + anchor → same data.
   */
  anchor?: string | number;
}

export interface AtsASandboxOptions {
  /** 0 = free port (default 0). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** API keys of this one customer system; default [{clientId:'demo-client', clientSecret:'demo-secret'}]. */
  clients?: AtsASandboxClient[];
  /** Calls per quota window shared by all keys (default 10 000). */
  dailyLimit?: number;
  /** Default 86 400; windows are aligned to multiples of this since the epoch (so UTC midnight by default). */
  quotaWindowSeconds?: number;
  /** Token lifetime, reported as expires_in (default 3599). */
  tokenTtlSeconds?: number;
  /** A token stops working this long before the expires_in it was issued with (default 0): an ATS that expires early. */
  tokenEarlyExpirySeconds?: number;
  /**
   * choice (ats-a.md): the token call counts against the daily limit like any call (default true). Off: it is
   * answered with the quota headers but counts nothing, as a vendor that says token calls are free.
   */
  countTokenCalls?: boolean;
  /** How long a new candidate or application takes to show in searches, the vendor's index lag (default 0). */
  indexLagMs?: number;
  /** Deterministic data set (default 200 vacancies, seed 1). */
  seed?: AtsASandboxSeed;
  /** Fixed latency on every /api call (default 0). */
  latencyMs?: number;
  /** Uniform extra latency in [0, jitterMs] on every /api call (default 0). */
  jitterMs?: number;
  /** Upload size limit (default 10 MiB); larger uploads get 413. */
  maxUploadBytes?: number;
  /** Log each request through fastify's logger (default false: logging costs throughput). */
  logRequests?: boolean;
  /** Other customer systems served by the same process under `/t/<name>` (see `AtsATenants`). */
  tenants?: AtsATenantsOptions;
}

/** What a tenant may differ in from the template (the default tenant's options); the rest is inherited. */
export interface AtsATenantOptions {
  clients?: AtsASandboxClient[];
  dailyLimit?: number;
  /** Vacancies generated for the tenant (its seed defaults to one derived from its name). */
  vacancies?: number;
  seed?: number;
  latencyMs?: number;
  jitterMs?: number;
}

export interface AtsATenantsOptions {
  /** Tenants at most, created lazily on first use or by `POST /__sandbox/tenants` (default 5 000). */
  max?: number;
  /** Every tenant's options unless its creation says otherwise; by default the sandbox's own. */
  defaults?: AtsATenantOptions;
}

export interface ResolvedSandboxOptions {
  port: number;
  host: string;
  clients: AtsASandboxClient[];
  dailyLimit: number;
  quotaWindowSeconds: number;
  tokenTtlSeconds: number;
  tokenEarlyExpirySeconds: number;
  countTokenCalls: boolean;
  indexLagMs: number;
  seed: AtsASandboxSeed;
  latencyMs: number;
  jitterMs: number;
  maxUploadBytes: number;
  logRequests: boolean;
  maxTenants: number;
  tenantDefaults: AtsATenantOptions;
}

export const DEFAULT_CLIENTS: readonly AtsASandboxClient[] = [
  { clientId: 'demo-client', clientSecret: 'demo-secret' },
];

export function resolveSandboxOptions(options: AtsASandboxOptions = {}): ResolvedSandboxOptions {
  const resolved: ResolvedSandboxOptions = {
    port: options.port ?? 0,
    host: options.host ?? '127.0.0.1',
    clients: options.clients?.length ? options.clients : DEFAULT_CLIENTS.map((c) => ({ ...c })),
    dailyLimit: options.dailyLimit ?? 10_000,
    quotaWindowSeconds: options.quotaWindowSeconds ?? 86_400,
    tokenTtlSeconds: options.tokenTtlSeconds ?? 3599,
    tokenEarlyExpirySeconds: options.tokenEarlyExpirySeconds ?? 0,
    countTokenCalls: options.countTokenCalls ?? true,
    indexLagMs: options.indexLagMs ?? 0,
    seed: { seed: 1, ...(options.seed ?? { vacancies: 200 }) },
    latencyMs: options.latencyMs ?? 0,
    jitterMs: options.jitterMs ?? 0,
    maxUploadBytes: options.maxUploadBytes ?? 10 * 1024 * 1024,
    logRequests: options.logRequests ?? false,
    maxTenants: options.tenants?.max ?? 5_000,
    tenantDefaults: options.tenants?.defaults ?? {},
  };
  assertNonNegativeInteger('port', resolved.port);
  assertNonNegativeInteger('dailyLimit', resolved.dailyLimit);
  assertPositiveNumber('quotaWindowSeconds', resolved.quotaWindowSeconds);
  assertPositiveNumber('tokenTtlSeconds', resolved.tokenTtlSeconds);
  assertNonNegativeInteger('tokenEarlyExpirySeconds', resolved.tokenEarlyExpirySeconds);
  assertNonNegativeInteger('indexLagMs', resolved.indexLagMs);
  assertNonNegativeInteger('seed.vacancies', resolved.seed.vacancies);
  assertNonNegativeInteger('latencyMs', resolved.latencyMs);
  assertNonNegativeInteger('jitterMs', resolved.jitterMs);
  assertNonNegativeInteger('tenants.max', resolved.maxTenants);
  assertPositiveNumber('maxUploadBytes', resolved.maxUploadBytes);
  return resolved;
}

/**
 * A tenant's options: the template's, with what the tenant sets on top; its data seed derived from its name
 * unless given, so two tenants never share data by accident.
 */
export function tenantSandboxOptions(
  template: ResolvedSandboxOptions,
  overrides: AtsATenantOptions,
  defaultSeed: number,
): ResolvedSandboxOptions {
  const set = { ...template.tenantDefaults, ...overrides };
  return resolveSandboxOptions({
    clients: set.clients ?? template.clients,
    dailyLimit: set.dailyLimit ?? template.dailyLimit,
    quotaWindowSeconds: template.quotaWindowSeconds,
    tokenTtlSeconds: template.tokenTtlSeconds,
    seed: { vacancies: set.vacancies ?? template.seed.vacancies, seed: set.seed ?? defaultSeed },
    latencyMs: set.latencyMs ?? template.latencyMs,
    jitterMs: set.jitterMs ?? template.jitterMs,
    maxUploadBytes: template.maxUploadBytes,
    logRequests: template.logRequests,
    tenants: { max: 0 },
  });
}

function assertNonNegativeInteger(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`ATS-A sandbox option ${name} must be a non-negative integer, got ${value}`);
  }
}

function assertPositiveNumber(name: string, value: number): void {
  if (!Number.isFinite(value) || value <= 0) {
    throw new Error(`ATS-A sandbox option ${name} must be a positive number, got ${value}`);
  }
}
