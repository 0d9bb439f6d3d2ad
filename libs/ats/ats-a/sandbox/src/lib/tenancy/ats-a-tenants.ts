import type { FastifyInstance } from 'fastify';
import {
  tenantSandboxOptions,
  type AtsATenantOptions,
  type ResolvedSandboxOptions,
} from '../ats-a-sandbox.options';
import { AtsASandboxState } from '../ats-a-sandbox.state';
import { SandboxError, SandboxErrorCode, validation } from '../sandbox.error';
import { isTenantName, tenantSeed } from './tenant-name';

/** One customer system of a multi-tenant sandbox: its own data, quota, tokens, faults and admin surface. */
export interface AtsATenant {
  name: string;
  state: AtsASandboxState;
  /** The tenant's own app (the same routes as the default tenant's), reached by path prefix. */
  app: FastifyInstance;
}

/**
 * The tenants of one sandbox process. A tenant is created on its first request (with the template's options
 * and a seed derived from its name) or by `create` with options of its own; its data is generated from the
 * seed when read, so a tenant costs its app and a few typed arrays.
 */
export class AtsATenants {
  private readonly opening = new Map<string, Promise<AtsATenant>>();
  private readonly ready = new Map<string, AtsATenant>();

  constructor(
    private readonly template: ResolvedSandboxOptions,
    private readonly buildApp: (state: AtsASandboxState) => Promise<FastifyInstance>,
  ) {}

  /** The tenant of this name, created with the template's options on first use. */
  open(name: string): Promise<AtsATenant> {
    return this.opening.get(name) ?? this.start(name, {});
  }

  /** A new tenant with options of its own; a name in use is refused. */
  create(name: string, options: AtsATenantOptions = {}): Promise<AtsATenant> {
    if (this.opening.has(name)) {
      return Promise.reject(new SandboxError(SandboxErrorCode.Conflict, `Tenant ${name} exists`));
    }
    return this.start(name, options);
  }

  /** An open tenant, in-process (tests). */
  get(name: string): AtsATenant | undefined {
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

  private start(name: string, options: AtsATenantOptions): Promise<AtsATenant> {
    if (!isTenantName(name)) {
      return Promise.reject(
        validation(`Tenant name "${name}" must be lower-case letters, digits and inner dashes (≤ 64)`),
      );
    }
    if (this.opening.size >= this.template.maxTenants) {
      return Promise.reject(
        new SandboxError(
          SandboxErrorCode.Unavailable,
          `This sandbox serves at most ${this.template.maxTenants} tenants`,
        ),
      );
    }
    let resolved: ResolvedSandboxOptions;
    try {
      resolved = tenantSandboxOptions(this.template, options, tenantSeed(name));
    } catch (error) {
      return Promise.reject(validation((error as Error).message));
    }
    const opening = (async () => {
      const state = new AtsASandboxState(resolved);
      const app = await this.buildApp(state);
      await app.ready();
      const tenant = { name, state, app };
      this.ready.set(name, tenant);
      return tenant;
    })();
    this.opening.set(name, opening);
    // A tenant that failed to start may be tried again.
    opening.catch(() => this.opening.delete(name));
    return opening;
  }
}
