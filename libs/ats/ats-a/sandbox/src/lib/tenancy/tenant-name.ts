/**
 * Tenants: one sandbox process serving many customer systems, each under its own path prefix
 * (`/t/<name>/api/…`, `/t/<name>/__sandbox/…`), as many customers' systems at their own addresses would be.
 */
export const TENANT_PREFIX = '/t';

const TENANT_NAME = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/** Lower-case letters, digits and inner dashes, at most 64: it sits in a URL path. */
export function isTenantName(name: string): boolean {
  return TENANT_NAME.test(name);
}

/** A tenant's default data seed: stable for its name (FNV-1a), so its data is the same on every start. */
export function tenantSeed(name: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    hash ^= name.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  // Positive and within a 31-bit integer, as the generators' seeds are.
  return hash >>> 1 || 1;
}

/** `/t/acme/api/token?x` → { name: 'acme', rest: '/api/token?x' }; anything else → undefined. */
export function splitTenantPath(url: string): { name: string; rest: string } | undefined {
  if (!url.startsWith(`${TENANT_PREFIX}/`)) return undefined;
  const start = TENANT_PREFIX.length + 1;
  const end = url.indexOf('/', start);
  if (end < 0) return undefined;
  return { name: url.slice(start, end), rest: url.slice(end) };
}
