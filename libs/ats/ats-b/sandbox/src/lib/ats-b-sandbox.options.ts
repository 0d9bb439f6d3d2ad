import { DEFAULT_EVENT_SUBSCRIPTION_OPTIONS } from './event-subscription.store';
import type { OAuthClientConfig, SandboxUser } from './oauth.store';

export interface AtsBSandboxOptions {
  /** 0 = a free port. */
  port?: number;
  host?: string;
  /** The partner's OAuth client; default platform-client/platform-secret, any loopback redirect allowed. */
  client?: OAuthClientConfig;
  /** Default [{recruiter, recruiter-pass}]. */
  users?: SandboxUser[];
  accessTokenTtlSeconds?: number;
  /** BhRestToken lifetime (idle timeout when `sessionSliding`), default 600. */
  sessionTtlSeconds?: number;
  /** Default true: each data call pushes the session's expiry forward, as Bullhorn's inactivity timeout does. */
  sessionSliding?: boolean;
  codeTtlSeconds?: number;
  /** Requests a minute per customer before 429, default 1500. */
  perMinuteLimit?: number;
  /**
   * Token requests and REST logins a minute (each endpoint its own count) before 429, default 60. The vendor
   * says only that logins are rate limited ("never log in in a loop"): the number is a choice (ats-b.md).
   */
  authPerMinuteLimit?: number;
  /** How long a new candidate takes to show in searches (the vendor's index lag), default 0. */
  indexLagMs?: number;
  seed?: { jobs: number; seed?: number; baseTimeMs?: number };
  latencyMs?: number;
  /** Uniform extra latency in [0, jitterMs) on every counted call (default 0). */
  jitterMs?: number;
  /** Candidate statuses this customer allows; default Bullhorn's stock list (includes "New Lead"). */
  candidateStatuses?: string[];
  /** File attachment `type` values this customer allows; default Resume, Cover Letter, Smart CV, Other. */
  fileTypes?: string[];
  /**
   * Event subscriptions: `max` per customer (15) and `ttlMs` after which unread events are purged and a
   * subscription not read is dropped (7 days); both changeable later over `PUT /__sandbox/event-subscriptions`.
   */
  eventSubscriptions?: { max?: number; ttlMs?: number };
  /** Base URL to advertise (loginInfo, restUrl) when the sandbox sits behind a proxy. */
  publicUrl?: string;
  /** Fastify request logging; off by default for throughput. */
  logger?: boolean;
  /** Other customers served by the same process, each behind `/t/<name>` (see `AtsBTenants`). */
  tenants?: AtsBTenantsOptions;
  /** A tenant's name, put into its codes and OAuth tokens so the vendor-wide endpoints find the tenant. */
  tokenTag?: string;
  /**
   * Several data centres (see README "Data centres"): each its own listener with its own users, codes, tokens,
   * sessions and data; the sandbox's main address becomes the vendor-wide router (loginInfo, 307). Users name
   * theirs with `dataCentre` (default: the first). Unset: one data centre, exactly as before.
   */
  dataCentres?: AtsBDataCentreOptions[];
}

export interface AtsBDataCentreOptions {
  /** Lower-case letters, digits and inner dashes, e.g. `us`, `emea`. */
  name: string;
  /** 0 (default) = a free port. */
  port?: number;
}

/** What a tenant may differ in from the template (the default tenant's options); the rest is inherited. */
export interface AtsBTenantOptions {
  /** Jobs generated for the tenant (its seed defaults to one derived from its name). */
  jobs?: number;
  seed?: number;
  perMinuteLimit?: number;
  latencyMs?: number;
  jitterMs?: number;
}

export interface AtsBTenantsOptions {
  /** Tenants at most, created on first use or by `POST /__sandbox/tenants` (default 5 000). */
  max?: number;
  defaults?: AtsBTenantOptions;
}

export interface ResolvedOptions {
  port: number;
  host: string;
  client: OAuthClientConfig;
  users: SandboxUser[];
  accessTokenTtlSeconds: number;
  sessionTtlSeconds: number;
  sessionSliding: boolean;
  codeTtlSeconds: number;
  perMinuteLimit: number;
  authPerMinuteLimit: number;
  indexLagMs: number;
  seed: { jobs: number; seed: number; baseTimeMs?: number };
  latencyMs: number;
  jitterMs: number;
  candidateStatuses: string[];
  fileTypes: string[];
  eventSubscriptions: { max: number; ttlMs: number };
  publicUrl?: string;
  logger: boolean;
  maxTenants: number;
  tenantDefaults: AtsBTenantOptions;
  tokenTag?: string;
  /** Empty: one data centre (no router). */
  dataCentres: Array<{ name: string; port: number }>;
}

export const DEFAULT_CANDIDATE_STATUSES = [
  'New Lead',
  'Active',
  'Submitted',
  'Interviewing',
  'Placed',
  'Inactive',
  'Archive',
];
export const DEFAULT_FILE_TYPES = ['Resume', 'Cover Letter', 'Smart CV', 'Other'];

export function resolveOptions(o: AtsBSandboxOptions = {}): ResolvedOptions {
  return {
    port: o.port ?? 0,
    host: o.host ?? '127.0.0.1',
    client: o.client ?? { clientId: 'platform-client', clientSecret: 'platform-secret' },
    users: o.users ?? [{ username: 'recruiter', password: 'recruiter-pass' }],
    accessTokenTtlSeconds: o.accessTokenTtlSeconds ?? 600,
    sessionTtlSeconds: o.sessionTtlSeconds ?? 600,
    sessionSliding: o.sessionSliding ?? true,
    codeTtlSeconds: o.codeTtlSeconds ?? 60,
    perMinuteLimit: o.perMinuteLimit ?? 1500,
    authPerMinuteLimit: o.authPerMinuteLimit ?? 60,
    indexLagMs: o.indexLagMs ?? 0,
    seed: { jobs: o.seed?.jobs ?? 200, seed: o.seed?.seed ?? 1, baseTimeMs: o.seed?.baseTimeMs },
    latencyMs: o.latencyMs ?? 0,
    jitterMs: o.jitterMs ?? 0,
    candidateStatuses: o.candidateStatuses ?? DEFAULT_CANDIDATE_STATUSES,
    fileTypes: o.fileTypes ?? DEFAULT_FILE_TYPES,
    eventSubscriptions: {
      max: o.eventSubscriptions?.max ?? DEFAULT_EVENT_SUBSCRIPTION_OPTIONS.max,
      ttlMs: o.eventSubscriptions?.ttlMs ?? DEFAULT_EVENT_SUBSCRIPTION_OPTIONS.ttlMs,
    },
    publicUrl: o.publicUrl,
    logger: o.logger ?? false,
    maxTenants: o.tenants?.max ?? 5_000,
    tenantDefaults: o.tenants?.defaults ?? {},
    tokenTag: o.tokenTag,
    dataCentres: resolveDataCentres(o.dataCentres ?? [], o.users ?? []),
  };
}

const DATA_CENTRE_NAME = /^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/;

/** Checks the data centres and that every user's is one of them; throws naming what is wrong. */
function resolveDataCentres(
  dataCentres: AtsBDataCentreOptions[],
  users: SandboxUser[],
): Array<{ name: string; port: number }> {
  const names = dataCentres.map((dc) => dc.name);
  for (const name of names) {
    if (!DATA_CENTRE_NAME.test(name))
      throw new Error(`data centre name '${name}' must be lower-case letters, digits and inner dashes`);
    if (names.indexOf(name) !== names.lastIndexOf(name))
      throw new Error(`data centre '${name}' is named twice`);
  }
  for (const user of users) {
    if (user.dataCentre === undefined) continue;
    if (names.length === 0)
      throw new Error(`user '${user.username}' names data centre '${user.dataCentre}', but there are none`);
    if (!names.includes(user.dataCentre))
      throw new Error(
        `user '${user.username}' names data centre '${user.dataCentre}', not one of ${names.join(', ')}`,
      );
  }
  return dataCentres.map((dc) => ({ name: dc.name, port: dc.port ?? 0 }));
}

/** A data centre's options: the template's, with only the users it holds, and no tenants or data centres. */
export function dataCentreOptions(template: ResolvedOptions, name: string): ResolvedOptions {
  const first = template.dataCentres[0]?.name;
  return {
    ...template,
    users: template.users.filter((u) => (u.dataCentre ?? first) === name),
    maxTenants: 0,
    tenantDefaults: {},
    dataCentres: [],
  };
}

/** The router's options: no users and no jobs, so it issues nothing and holds no data of its own. */
export function routerOptions(template: ResolvedOptions): ResolvedOptions {
  return {
    ...template,
    users: [],
    seed: { jobs: 0, seed: 1 },
    maxTenants: 0,
    tenantDefaults: {},
    dataCentres: [],
  };
}

/**
 * A tenant's options: the template's, with the tenant's users (each template user as `<user>@<tenant>`, one
 * customer's logins), its own seed (derived from its name unless given) and what it sets on top.
 */
export function tenantOptions(
  template: ResolvedOptions,
  name: string,
  overrides: AtsBTenantOptions,
  defaultSeed: number,
): ResolvedOptions {
  const set = { ...template.tenantDefaults, ...overrides };
  return {
    ...template,
    users: template.users.map((u) => ({ ...u, username: `${u.username}@${name}` })),
    perMinuteLimit: set.perMinuteLimit ?? template.perMinuteLimit,
    seed: { jobs: set.jobs ?? template.seed.jobs, seed: set.seed ?? defaultSeed },
    latencyMs: set.latencyMs ?? template.latencyMs,
    jitterMs: set.jitterMs ?? template.jitterMs,
    maxTenants: 0,
    tenantDefaults: {},
    tokenTag: name,
  };
}
