import type { FastifyInstance } from 'fastify';
import { AtsBError } from '../ats-b.error';
import { tenantOptions, type AtsBTenantOptions, type ResolvedOptions } from '../ats-b-sandbox.options';
import { AtsBSandboxState } from '../ats-b-sandbox.state';

/**
 * Tenants: one ATS-B sandbox process serving many customers (corporations), each with its own users, jobs,
 * candidates, sessions, OAuth codes and tokens, per-minute limit, faults and admin surface, behind
 * `/t/<name>`. The vendor-wide entry points stay where the connector is configured to find them.
 */
export const TENANT_PREFIX = '/t';

const TENANT_NAME = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

export function isTenantName(name: string): boolean {
  return TENANT_NAME.test(name);
}

/** A tenant's default data seed: stable for its name (FNV-1a), so its jobs are the same on every start. */
export function tenantSeed(name: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    hash ^= name.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 1 || 1;
}

/** The tenant a login name belongs to: `recruiter@acme` → `acme`. */
export function tenantOfUser(username: string | undefined): string | undefined {
  const at = username?.lastIndexOf('@') ?? -1;
  const name = at > 0 ? (username as string).slice(at + 1) : undefined;
  return name !== undefined && isTenantName(name) ? name : undefined;
}

export interface AtsBTenant {
  name: string;
  state: AtsBSandboxState;
  app: FastifyInstance;
}

/** The tenants of one sandbox process, each started on first use (or by `create`) with an app of its own. */
export class AtsBTenants {
  private readonly opening = new Map<string, Promise<AtsBTenant>>();
  private readonly ready = new Map<string, AtsBTenant>();

  constructor(
    private readonly template: ResolvedOptions,
    private readonly buildApp: (state: AtsBSandboxState, name: string) => Promise<FastifyInstance>,
  ) {}

  open(name: string): Promise<AtsBTenant> {
    return this.opening.get(name) ?? this.start(name, {});
  }

  create(name: string, options: AtsBTenantOptions = {}): Promise<AtsBTenant> {
    if (this.opening.has(name)) {
      return Promise.reject(new AtsBError(409, 'errors.tenantExists', `Tenant ${name} exists`));
    }
    return this.start(name, options);
  }

  /** An open tenant, in-process (tests). */
  get(name: string): AtsBTenant | undefined {
    return this.ready.get(name);
  }

  names(): string[] {
    return [...this.ready.keys()];
  }

  async close(): Promise<void> {
    const tenants = await Promise.allSettled(this.opening.values());
    this.opening.clear();
    this.ready.clear();
    await Promise.all(tenants.map((t) => (t.status === 'fulfilled' ? t.value.app.close() : undefined)));
  }

  private start(name: string, options: AtsBTenantOptions): Promise<AtsBTenant> {
    if (!isTenantName(name)) {
      return Promise.reject(
        AtsBError.badRequest(
          `Tenant name "${name}" must be lower-case letters, digits and inner dashes (≤ 64)`,
          'errors.invalidTenant',
        ),
      );
    }
    if (this.opening.size >= this.template.maxTenants) {
      return Promise.reject(
        new AtsBError(
          503,
          'errors.tenantLimit',
          `This sandbox serves at most ${this.template.maxTenants} tenants`,
        ),
      );
    }
    const opening = (async () => {
      const state = new AtsBSandboxState(tenantOptions(this.template, name, options, tenantSeed(name)));
      const app = await this.buildApp(state, name);
      await app.ready();
      const tenant = { name, state, app };
      this.ready.set(name, tenant);
      return tenant;
    })();
    this.opening.set(name, opening);
    opening.catch(() => this.opening.delete(name));
    return opening;
  }
}
