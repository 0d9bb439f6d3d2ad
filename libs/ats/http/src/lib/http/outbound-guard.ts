import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import { Agent, buildConnector, type Dispatcher } from 'undici';
import {
  type AddressAllowance,
  blockedAddress,
  checkUrlShape,
  type HostResolver,
  refusedAddressClass,
  UrlPolicyError,
} from '../url-policy';

export interface OutboundGuardOptions {
  /** Default `none`: https and public addresses only. */
  allowance?: AddressAllowance;
  /** Injectable for tests (e.g. a rebinding DNS); default node:dns. */
  resolve?: HostResolver;
  /** TCP + TLS connect timeout. Default 10 000. */
  connectTimeoutMs?: number;
  /** The largest answer `request` reads whole, unless a request says (`GuardedRequest.maxAnswerBytes`). */
  maxAnswerBytes?: number;
}

/**
 * An ATS answer is JSON of a page of records at most; a larger one is refused, early from Content-Length or
 * while it is read, so a broken or hostile host cannot fill the process's memory.
 */
export const DEFAULT_MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/** An answer over its `maxAnswerBytes`: refused before more than that was read. */
export class AnswerTooLargeError extends Error {
  readonly code = 'answer_too_large';

  constructor(readonly maxBytes: number) {
    super(`the answer is larger than the ${maxBytes} bytes read from an ATS`);
    this.name = 'AnswerTooLargeError';
  }
}

/**
 * SSRF guard for every outbound call to an ATS or a platform file URL. The policy runs on the addresses
 * the connection actually uses: the dispatcher's DNS lookup refuses a host when any address it resolves to
 * is not allowed, and IP-literal hosts are checked before connecting. A DNS answer that changes after a
 * set-up check (rebinding) therefore cannot reach 127.0.0.1; pooled connections stay on checked addresses.
 */
export class OutboundGuard {
  readonly allowance: AddressAllowance;
  /** The undici dispatcher every request goes through. */
  readonly dispatcher: Agent;
  private readonly maxAnswerBytes: number;

  constructor(options: OutboundGuardOptions = {}) {
    this.allowance = options.allowance ?? 'none';
    this.maxAnswerBytes = options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
    const allowance = this.allowance;
    const connectBase = buildConnector({
      lookup: guardedLookup(allowance, options.resolve),
      timeout: options.connectTimeoutMs ?? 10_000,
    });
    this.dispatcher = new Agent({
      connect: (connectOptions, callback) => {
        // net.connect skips the lookup for an IP literal, so it is checked here.
        const host = connectOptions.hostname.replace(/^\[|\]$/g, '');
        const refused = isIP(host) ? refusedAddressClass(host, allowance) : undefined;
        if (refused) callback(blockedAddress(connectOptions.hostname, host, refused), null);
        else connectBase(connectOptions, callback);
      },
    });
  }

  /** Throws UrlPolicyError for what is wrong with the URL itself (scheme, credentials, a refused IP literal). */
  check(url: string): URL {
    return checkUrlShape(url, this.allowance);
  }

  /**
   * One request through the guard with undici's own API on the guard's connection pools (one per origin,
   * kept alive): no WHATWG streams, a fraction of `fetch`'s CPU per call. Redirects are not followed. The
   * body is streamed: the caller reads it or destroys it. Refusals throw the UrlPolicyError itself.
   */
  async open(url: string, init: GuardedRequest): Promise<GuardedStream> {
    const { statusCode, headers, body } = await this.send(url, init);
    return { status: statusCode, headers: headersOf(headers), body };
  }

  /** `open`, with the body read whole as text (up to `maxAnswerBytes`: AnswerTooLargeError beyond). */
  async request(url: string, init: GuardedRequest): Promise<GuardedResponse> {
    const { statusCode, headers, body } = await this.send(url, init);
    try {
      const text = await this.text(body, headers, init.maxAnswerBytes ?? this.maxAnswerBytes);
      return { status: statusCode, headers: headersOf(headers), text };
    } catch (error) {
      throw refusalIn(error) ?? error;
    }
  }

  private async text(
    body: Dispatcher.ResponseData['body'],
    headers: IncomingHeaders,
    maxBytes: number,
  ): Promise<string> {
    const declared = Number(headers['content-length']);
    // HTTP framing ends a body at its Content-Length: undici's own reader is then safe, and the fastest.
    if (declared <= maxBytes) return body.text();
    if (declared > maxBytes) {
      discard(body);
      throw new AnswerTooLargeError(maxBytes);
    }
    const chunks: Buffer[] = [];
    let received = 0;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      received += chunk.byteLength;
      // Leaving the loop destroys the body, with this loop still listening for its error.
      if (received > maxBytes) throw new AnswerTooLargeError(maxBytes);
      chunks.push(chunk);
    }
    // As undici's `text()`: UTF-8, a byte order mark dropped.
    return new TextDecoder().decode(Buffer.concat(chunks, received));
  }

  private async send(url: string, init: GuardedRequest): Promise<Dispatcher.ResponseData> {
    const target = this.check(url);
    try {
      return await this.dispatcher.request({
        origin: target.origin,
        path: `${target.pathname}${target.search}`,
        method: init.method ?? 'GET',
        headers: init.headers,
        body: init.body,
        signal: init.signal,
      });
    } catch (error) {
      throw refusalIn(error) ?? error;
    }
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}

export interface GuardedRequest {
  /** Default GET. */
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  signal?: AbortSignal;
  /** `request` only: the largest answer read (default the guard's). */
  maxAnswerBytes?: number;
}

export interface GuardedStream {
  status: number;
  headers: Headers;
  /** Read it (`for await`) or `discard` it: its connection goes back to the pool only then. */
  body: Readable;
}

/**
 * Lets go of a body that will not be read. undici reports an unread body's destruction as an `error` event on
 * it, which would end the process were nobody listening.
 */
export function discard(body: Readable): void {
  body.on('error', () => undefined);
  body.destroy();
}

export interface GuardedResponse {
  status: number;
  headers: Headers;
  text: string;
}

type IncomingHeaders = Record<string, string | string[] | undefined>;

function headersOf(raw: IncomingHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

const shared = new Map<AddressAllowance, OutboundGuard>();

/** The process's guard for an allowance: one connection pool per allowance, shared by every client. */
export function outboundGuard(allowance: AddressAllowance = 'none'): OutboundGuard {
  let guard = shared.get(allowance);
  if (!guard) {
    guard = new OutboundGuard({ allowance });
    shared.set(allowance, guard);
  }
  return guard;
}

/** A `net` lookup that resolves every address of the host and fails when any one is not allowed. */
function guardedLookup(allowance: AddressAllowance, resolve?: HostResolver): LookupFunction {
  const all: (hostname: string) => Promise<LookupAddress[]> = resolve
    ? async (hostname) =>
        (await resolve(hostname)).map(({ address }) => ({ address, family: isIP(address) || 4 }))
    : (hostname) =>
        new Promise((ok, fail) =>
          dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) =>
            error ? fail(error) : ok(addresses),
          ),
        );
  return (hostname, options, callback) => {
    all(hostname).then(
      (addresses) => {
        if (addresses.length === 0) {
          callback(noAddress(`${hostname} has no address`), '', 0);
          return;
        }
        for (const { address } of addresses) {
          const refused = refusedAddressClass(address, allowance);
          if (refused) {
            callback(blockedAddress(hostname, address, refused), '', 0);
            return;
          }
        }
        const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
        const wanted = family ? addresses.filter((a) => a.family === family) : addresses;
        const first = wanted[0];
        if (options.all) callback(null, wanted);
        else if (first) callback(null, first.address, first.family);
        else callback(noAddress(`${hostname} has no IPv${family} address`), '', 0);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

/**
 * The connect error may come as it is or as the `cause` of another, and from another realm (jest's sandbox)
 * as a plain Error named by its text; each is recognised.
 */
function refusalIn(error: unknown): UrlPolicyError | undefined {
  for (let e: unknown = error, depth = 0; typeof e === 'object' && e !== null && depth < 4; depth++) {
    if (e instanceof UrlPolicyError) return e;
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && message.startsWith(REFUSAL_PREFIX)) {
      return new UrlPolicyError('blocked_address', message.slice(REFUSAL_PREFIX.length));
    }
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

const REFUSAL_PREFIX = 'UrlPolicyError: ';

const noAddress = (message: string) => Object.assign(new Error(message), { code: 'ENOTFOUND' });
