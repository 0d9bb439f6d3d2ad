import { isIP } from 'node:net';

/** Express's `trust proxy` value: off, a hop count, or the addresses/subnets (and names) of trusted proxies. */
export type TrustProxy = false | number | string[];

/** The names Express (proxy-addr) knows for address ranges. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

export class TrustProxyFormatError extends Error {}

/**
 * `TRUST_PROXY` as Express reads `trust proxy`: empty or `false` → off (the socket's address is the client);
 * a whole number → trust that many hops of X-Forwarded-For; else a comma list of `loopback`, `linklocal`,
 * `uniquelocal`, addresses and subnets (`10.0.0.0/8`, `fd00::/8`). `true` (trust every hop, so any client
 * can name its own address) is refused: name the proxies or count them.
 */
export function parseTrustProxy(raw: string): TrustProxy {
  const value = raw.trim();
  if (value === '' || value.toLowerCase() === 'false') return false;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 100) throw new TrustProxyFormatError('a hop count must be at most 100');
    return hops === 0 ? false : hops;
  }
  if (value.toLowerCase() === 'true') {
    throw new TrustProxyFormatError('"true" trusts every client; give the hop count or the proxies');
  }
  const entries = value.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    if (!isTrustEntry(entry)) {
      throw new TrustProxyFormatError(
        `"${entry}" is neither loopback, linklocal, uniquelocal, an IP address nor a subnet`,
      );
    }
  }
  return entries;
}

function isTrustEntry(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address, bits, ...rest] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  if (!/^\d+$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}
