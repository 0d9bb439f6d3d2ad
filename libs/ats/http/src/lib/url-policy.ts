import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

export type UrlPolicyErrorCode =
  'invalid_url' | 'insecure_scheme' | 'credentials_in_url' | 'unresolvable' | 'blocked_address';

/** An ATS address the connector refuses to call; the message tells the admin what to change. */
export class UrlPolicyError extends Error {
  override readonly name = 'UrlPolicyError';
  constructor(
    readonly code: UrlPolicyErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Which non-public addresses outbound calls (ATSs, document downloads) may reach, and with them plain http
 * (local ATS simulators have no TLS). `none` is the only safe value in production and the default everywhere:
 * no environment name turns protection off; local mode and tests say `loopback`, a demo on a container
 * network `private`.
 */
export const ADDRESS_ALLOWANCES = ['none', 'loopback', 'private'] as const;
export type AddressAllowance = (typeof ADDRESS_ALLOWANCES)[number];

export type AddressClass =
  | 'public'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link_local'
  | 'metadata'
  | 'cgnat'
  | 'unique_local'
  | 'multicast'
  | 'translated'
  | 'tunnel'
  | 'reserved';

/** What each allowance lets through besides public addresses; everything else is never called. */
const ALLOWED: Record<AddressAllowance, ReadonlySet<AddressClass>> = {
  none: new Set(['public']),
  loopback: new Set(['public', 'loopback']),
  private: new Set(['public', 'loopback', 'private', 'link_local', 'cgnat', 'unique_local']),
};

/** For DNS lookups in tests; default node:dns. */
export type HostResolver = (hostname: string) => Promise<Array<{ address: string }>>;

const defaultResolver: HostResolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

/** The class of `address` when `allowance` forbids calling it; undefined when it may be called. */
export function refusedAddressClass(address: string, allowance: AddressAllowance): AddressClass | undefined {
  const kind = classifyAddress(address);
  return ALLOWED[allowance].has(kind) ? undefined : kind;
}

/** "a loopback address", "an unspecified address": for messages. */
export function describeAddressClass(kind: AddressClass): string {
  const words = kind.replace('_', '-');
  return `${/^[aeiou]/.test(words) ? 'an' : 'a'} ${words} address`;
}

/**
 * What can be checked without DNS: a web address, https unless the allowance lets plain http through, no
 * credentials, and an IP-literal host of an allowed class. Returns the parsed URL.
 */
export function checkUrlShape(url: string, allowance: AddressAllowance): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UrlPolicyError(
      'invalid_url',
      `"${url}" is not a web address; use e.g. https://acme.example.com`,
    );
  }
  const insecureAllowed = allowance !== 'none';
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && insecureAllowed)) {
    throw new UrlPolicyError(
      parsed.protocol === 'http:' ? 'insecure_scheme' : 'invalid_url',
      `The ATS address must start with https:// (got ${parsed.protocol}//${parsed.host})`,
    );
  }
  if (parsed.username || parsed.password) {
    throw new UrlPolicyError(
      'credentials_in_url',
      'The ATS address must not contain a user name or password; enter credentials in their own fields',
    );
  }
  const host = hostOf(parsed);
  if (isIP(host)) {
    const refused = refusedAddressClass(host, allowance);
    if (refused) throw blockedAddress(parsed.host, host, refused);
  }
  return parsed;
}

/**
 * SSRF guard for a customer-typed ATS address (either ATS) at set-up, with a message an admin can act on:
 * the URL's shape and every address the host resolves to now. The calls themselves are guarded again at
 * connect time (OutboundGuard), so a later DNS answer cannot slip past this check.
 */
export async function checkAtsUrlPolicy(
  url: string,
  allowance: AddressAllowance,
  resolve: HostResolver = defaultResolver,
): Promise<void> {
  try {
    await checkResolved(url, allowance, resolve);
  } catch (error) {
    if (!(error instanceof UrlPolicyError) || error.code !== 'blocked_address') throw error;
    throw new UrlPolicyError(
      'blocked_address',
      `The ATS address ${error.message}; use the public address of your ATS`,
    );
  }
}

async function checkResolved(url: string, allowance: AddressAllowance, resolve: HostResolver): Promise<void> {
  const parsed = checkUrlShape(url, allowance);
  const host = hostOf(parsed);
  if (isIP(host)) return;
  let addresses: string[];
  try {
    addresses = (await resolve(host)).map((a) => a.address);
  } catch {
    throw new UrlPolicyError(
      'unresolvable',
      `The host ${host} could not be found; check the spelling of the ATS address`,
    );
  }
  if (addresses.length === 0) {
    throw new UrlPolicyError('unresolvable', `The host ${host} has no address; check the ATS address`);
  }
  for (const address of addresses) {
    const refused = refusedAddressClass(address, allowance);
    if (refused) throw blockedAddress(parsed.host, address, refused);
  }
}

/**
 * The one refusal of an address by its class, at set-up and at connect time alike. A name's address is not
 * told: what an internal DNS name points to would be a map of our network for any tenant who types names.
 * An address typed as such is named (the admin knows it already).
 */
export function blockedAddress(host: string, address: string, kind: AddressClass): UrlPolicyError {
  const typed = hostOfAuthority(host) === address.replace(/^\[|\]$/g, '');
  return new UrlPolicyError(
    'blocked_address',
    typed
      ? `${host} is ${describeAddressClass(kind)} that the connector may not call`
      : `${host} points to ${describeAddressClass(kind)} that the connector may not call`,
  );
}

/** `host:port` or `[v6]:port` → the bare host. */
function hostOfAuthority(authority: string): string {
  const bracketed = /^\[([^\]]+)\]/.exec(authority);
  return bracketed ? (bracketed[1] as string) : authority.replace(/:\d+$/, '');
}

const hostOf = (url: URL): string => url.hostname.replace(/^\[|\]$/g, '');

/** Which kind of network an IP address (v4 or v6, including IPv4-mapped v6) belongs to. */
export function classifyAddress(address: string): AddressClass {
  const ip = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const v4 = parseIPv4(ip);
  if (v4 !== undefined) return classifyIPv4(v4);
  const v6 = parseIPv6(ip);
  if (v6 === undefined) return 'reserved'; // not an address: never treat unknown input as public
  return classifyIPv6(v6);
}

/**
 * Cloud credential and metadata endpoints: never called, whatever the allowance (a `private` demo network
 * still must not hand a tenant the host's cloud credentials). AWS/GCP/Azure/OCI instance metadata, ECS task
 * credentials, EKS Pod Identity, Alibaba Cloud.
 */
const METADATA_V4: ReadonlySet<number> = new Set(
  ['169.254.169.254', '169.254.170.2', '169.254.170.23', '100.100.100.200'].map(
    (ip) => parseIPv4(ip) as number,
  ),
);
/** AWS's IPv6 instance metadata (fd00:ec2::254) and EKS Pod Identity (fd00:ec2::23). */
const METADATA_V6 = ['fd00:ec2::254', 'fd00:ec2::23'];

function classifyIPv4(ip: number): AddressClass {
  const inNet = (base: string, bits: number): boolean => {
    const b = parseIPv4(base) as number;
    const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
    return (ip & mask) >>> 0 === (b & mask) >>> 0;
  };
  if (METADATA_V4.has(ip)) return 'metadata';
  if (inNet('0.0.0.0', 8)) return 'unspecified';
  if (inNet('127.0.0.0', 8)) return 'loopback';
  if (inNet('10.0.0.0', 8) || inNet('172.16.0.0', 12) || inNet('192.168.0.0', 16)) return 'private';
  if (inNet('169.254.0.0', 16)) return 'link_local';
  if (inNet('100.64.0.0', 10)) return 'cgnat';
  if (inNet('224.0.0.0', 4)) return 'multicast';
  if (
    inNet('240.0.0.0', 4) || // reserved and broadcast
    inNet('192.0.0.0', 24) || // IETF protocol assignments
    inNet('192.0.2.0', 24) ||
    inNet('198.51.100.0', 24) ||
    inNet('203.0.113.0', 24) || // documentation
    inNet('198.18.0.0', 15) || // benchmarking
    inNet('192.88.99.0', 24) // former 6to4 relays
  )
    return 'reserved';
  return 'public';
}

function classifyIPv6(h: number[]): AddressClass {
  const [h0 = 0, h1 = 0, h2 = 0, h3 = 0, h4 = 0, h5 = 0, h6 = 0, h7 = 0] = h;
  if (METADATA_V6.some((address) => sameIPv6(parseIPv6(address), h))) return 'metadata';
  const embeddedV4 = ((h6 << 16) | h7) >>> 0;
  const zeroPrefix = h0 === 0 && h1 === 0 && h2 === 0 && h3 === 0 && h4 === 0;
  if (zeroPrefix && h5 === 0 && h6 === 0 && h7 === 0) return 'unspecified';
  if (zeroPrefix && h5 === 0 && h6 === 0 && h7 === 1) return 'loopback';
  // IPv4-mapped (::ffff:a.b.c.d) and deprecated IPv4-compatible (::a.b.c.d) reach the IPv4 address.
  if (zeroPrefix && (h5 === 0xffff || h5 === 0)) return classifyIPv4(embeddedV4);
  // IPv4-translated (::ffff:0:a.b.c.d, SIIT): never a public ATS's address, whatever it embeds.
  if (h0 === 0 && h1 === 0 && h2 === 0 && h3 === 0 && h4 === 0xffff && h5 === 0) return 'translated';
  // Well-known NAT64 (64:ff9b::/96) reaches the embedded IPv4 address; the local-use prefix
  // (64:ff9b:1::/48) is a network's own translator, whose reach we cannot know.
  if (h0 === 0x64 && h1 === 0xff9b && h2 === 0 && h3 === 0 && h4 === 0 && h5 === 0)
    return classifyIPv4(embeddedV4);
  if (h0 === 0x64 && h1 === 0xff9b && h2 === 1) return 'translated';
  // Teredo (2001::/32) tunnels to an obfuscated IPv4 address through a relay.
  if (h0 === 0x2001 && h1 === 0) return 'tunnel';
  // 6to4 (2002::/16) embeds an IPv4 address in hextets 1-2.
  if (h0 === 0x2002) return classifyIPv4(((h1 << 16) | h2) >>> 0);
  if ((h0 & 0xffc0) === 0xfe80) return 'link_local';
  if ((h0 & 0xffc0) === 0xfec0) return 'private'; // deprecated site-local
  if ((h0 & 0xfe00) === 0xfc00) return 'unique_local';
  if ((h0 & 0xff00) === 0xff00) return 'multicast';
  if (h0 === 0x2001 && h1 === 0x0db8) return 'reserved'; // documentation
  if (h0 === 0x0100 && h1 === 0 && h2 === 0 && h3 === 0) return 'reserved'; // discard-only
  return 'public';
}

function sameIPv6(a: number[] | undefined, b: number[]): boolean {
  return a !== undefined && a.every((group, index) => group === b[index]);
}

/** Dotted quad only (what URL and DNS give us); returns the 32-bit value. */
function parseIPv4(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return undefined;
    value = value * 256 + Number(part);
  }
  return value;
}

/** Eight 16-bit groups, `::` and a trailing dotted quad allowed. */
function parseIPv6(text: string): number[] | undefined {
  if (!text.includes(':')) return undefined;
  let rest = text.toLowerCase();
  // A trailing dotted quad (::ffff:127.0.0.1) becomes its two hex groups.
  const quad = /:(\d+\.\d+\.\d+\.\d+)$/.exec(rest);
  if (quad) {
    const v4 = parseIPv4(quad[1] as string);
    if (v4 === undefined) return undefined;
    rest = `${rest.slice(0, quad.index + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = rest.split('::');
  if (halves.length > 2) return undefined;
  const groups = (s: string): number[] | undefined => {
    if (s === '') return [];
    const out: number[] = [];
    for (const g of s.split(':')) {
      if (!/^[0-9a-f]{1,4}$/.test(g)) return undefined;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const head = groups(halves[0] as string);
  const back = halves.length === 2 ? groups(halves[1] as string) : [];
  if (!head || !back) return undefined;
  const known = head.length + back.length;
  if (halves.length === 1 && known !== 8) return undefined;
  if (halves.length === 2 && known > 7) return undefined;
  return [...head, ...new Array<number>(8 - known).fill(0), ...back];
}
