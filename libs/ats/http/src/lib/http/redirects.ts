/**
 * Following an ATS's redirects (opt-in, `AtsHttpOptions.redirects`): only to the ATS's own hosts, a few hops at
 * most, each hop sent through the guard like any address. An ATS that serves customers from several data
 * centres answers a call to the wrong one with a redirect to the right one.
 */
export interface RedirectPolicy {
  /**
   * Host suffixes a redirect may lead to: `.example.com` (or `example.com`) allows `example.com` and every
   * host under it; an IP address allows that address. Compared without the port, case-insensitively.
   */
  readonly allowedHosts: readonly string[];
  /** Hops followed at most (default DEFAULT_MAX_REDIRECTS); one more is refused. */
  readonly maxHops?: number;
  /** Told of a refused hop (its host and why, never its path or query): the caller logs it. */
  readonly onRefused?: (refusal: { endpoint: string; host: string; reason: string }) => void;
}

export const DEFAULT_MAX_REDIRECTS = 3;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Headers that carry the caller's identity: not sent to another origin (as the Fetch standard does). */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

export const isRedirectStatus = (status: number): boolean => REDIRECT_STATUSES.has(status);

/** Whether `host` (a URL's hostname) is one of the allowed hosts or under one of the allowed suffixes. */
export function isAllowedHost(host: string, allowedHosts: readonly string[]): boolean {
  const name = host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  return allowedHosts.some((entry) => {
    const suffix = entry.trim().toLowerCase().replace(/^\./, '').replace(/\.$/, '');
    return suffix !== '' && (name === suffix || name.endsWith(`.${suffix}`));
  });
}

/** A comma-separated list of host suffixes (a setting) as a list; blanks dropped. */
export function parseAllowedHosts(value: string): string[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/**
 * The method and body of the next hop (RFC 9110 15.4): 307 and 308 repeat the request as it was; 303 becomes a
 * GET, and so does a POST answered 301 or 302 (what browsers and the Fetch standard do).
 */
export function methodAfter<M extends string>(
  status: number,
  method: M,
): { method: M | 'GET'; keepBody: boolean } {
  if (status === 307 || status === 308) return { method, keepBody: true };
  if (status === 303 ? method !== 'GET' : method === 'POST') return { method: 'GET', keepBody: false };
  return { method, keepBody: true };
}

/** The caller's headers for a hop to `to`: its credentials only while the origin stays the same. */
export function headersFor(
  headers: Record<string, string> | undefined,
  from: URL,
  to: URL,
): Record<string, string> | undefined {
  if (!headers || from.origin === to.origin) return headers;
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => !CREDENTIAL_HEADERS.includes(name.toLowerCase())),
  );
}
