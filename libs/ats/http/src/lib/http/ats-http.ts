import { inSpan, SpanKind } from '@connector/observability';
import {
  AtsError,
  classifyNetworkFailure,
  classifyResponse,
  scrub,
  UNSURE_WRITE_SETTLE_MS,
} from '../ats-error';
import { UrlPolicyError } from '../url-policy';
import { countAtsCall } from './ats-metrics';
import { encodeMultipart, type MultipartPart } from './multipart';
import {
  DEFAULT_MAX_REDIRECTS,
  headersFor,
  isAllowedHost,
  isRedirectStatus,
  methodAfter,
  type RedirectPolicy,
} from './redirects';
import {
  AnswerTooLargeError,
  DEFAULT_MAX_ANSWER_BYTES,
  type OutboundGuard,
  outboundGuard,
} from './outbound-guard';

/** Rate limiting and call counting are the caller's business; the clients only call these around each request. */
export interface AtsCallHooks {
  /** Awaited before every HTTP request (retries and token calls included), e.g. to take a rate-limiter token. */
  beforeCall?: (endpoint: string) => Promise<void>;
  /**
   * After every HTTP answer, whatever its status (counting, reading X-RateLimit-*). Must not throw: a throw is
   * ignored, because failing a write that the ATS applied would make the caller repeat it.
   */
  afterCall?: (info: { endpoint: string; status: number; headers: Headers }) => void;
  /**
   * After a call that `beforeCall` let through got no answer (network error, timeout, aborted before sending),
   * so a budget counting calls in flight can settle it. Must not throw, as afterCall.
   */
  afterNoAnswer?: (endpoint: string) => void;
}

/**
 * Quick retries for blips: a 5xx or 408 answer, or no answer where nothing can have been applied (a
 * connection refused or reset before sending, a read that timed out), is tried again a few times within a
 * few seconds, jittered, honouring Retry-After, before the caller's (much slower) retry ladder takes over.
 * Never for a write whose outcome is unsure (`ambiguous`), nor for 429s: the budget owns those.
 */
export interface QuickRetryPolicy {
  /** Retries after the first try (default 3). */
  retries: number;
  /** No retry starts later than this after the first try (default 10 000). */
  withinMs: number;
  /** Delay before the first retry, doubled for each next one, each jittered by ±50 % (default 1 000). */
  baseDelayMs: number;
}

const DEFAULT_QUICK_RETRY: QuickRetryPolicy = { retries: 3, withinMs: 10_000, baseDelayMs: 1_000 };

export interface AtsHttpOptions {
  hooks?: AtsCallHooks;
  /** Per request, body read included. Default 30 000. */
  timeoutMs?: number;
  /**
   * Which addresses may be called (SSRF): checked on every request and on every address a connection
   * resolves to. Default: https and public addresses only.
   */
  guard?: OutboundGuard;
  /** Injectable for unit tests; the URL is still checked, but the connection is not guarded. */
  fetch?: typeof fetch;
  /** Default DEFAULT_QUICK_RETRY; `false`: one try only. */
  quickRetry?: QuickRetryPolicy | false;
  /**
   * The largest answer read (default 8 MiB): a larger one is refused while it streams in (AtsError
   * `permanent`, code `answer_too_large`), so a broken or hostile host cannot fill the process's memory.
   */
  maxResponseBytes?: number;
  /**
   * Follow the ATS's redirects to its own hosts (RedirectPolicy); each hop is a call of its own (hooks, guard,
   * timeout). Default: none followed, a redirect answer is the caller's (`failure` makes it a permanent error).
   */
  redirects?: RedirectPolicy;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RESPONSE_BYTES = DEFAULT_MAX_ANSWER_BYTES;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface AtsRequest {
  /** Label for hooks and errors, e.g. 'PATCH /api/candidates/{id}'; never holds secrets. */
  endpoint: string;
  method: HttpMethod;
  url: string;
  headers?: Record<string, string>;
  /** An object is sent as JSON; parts as multipart/form-data. */
  json?: unknown;
  /** Sent as `application/x-www-form-urlencoded` (an OAuth token request, RFC 6749). */
  form?: Readonly<Record<string, string>>;
  multipart?: readonly MultipartPart[];
  /** Changes data and may not be repeated blindly: a timeout after sending is then `ambiguous`. */
  write: boolean;
  /** Values to keep out of error messages (tokens, secrets, codes). */
  secrets?: readonly string[];
  /** The caller's (a lock's): once aborted, the request is not sent (checked after `beforeCall`'s wait). */
  signal?: AbortSignal;
  /**
   * False for a request that a 5xx answer does not prove unapplied and that must never be repeated (a
   * single-use code or refresh token): no quick retry. Default true.
   */
  quickRetry?: boolean;
}

/** What a caller may pass to a client's writes. */
export interface AtsWriteOptions {
  /**
   * Aborted when the caller may no longer write, e.g. its lock on the record was lost: a write still waiting
   * for budget then throws the signal's reason instead of being sent (another worker may be at that record).
   */
  signal?: AbortSignal;
}

export interface AtsResponse {
  /** Where the answer came from: the request's URL, or the last hop's when redirects were followed. */
  url: string;
  status: number;
  headers: Headers;
  /** Parsed JSON, the text when it is not JSON, undefined when empty. */
  body: unknown;
}

/** One HTTP exchange with an ATS: hooks, timeout, and the classification of failures. */
export class AtsHttp {
  private readonly guard: OutboundGuard;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;

  constructor(
    readonly atsName: string,
    private readonly options: AtsHttpOptions,
    /** What a 429 without Retry-After / X-RateLimit-Reset means for this ATS. */
    private readonly defaultRetryAfterMs: number,
    /** How long a write takes to show in this ATS's searches (documented or measured; ats-*.md). */
    private readonly indexLagMs: number = UNSURE_WRITE_SETTLE_MS,
  ) {
    this.guard = options.guard ?? outboundGuard();
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  }

  /** From a write's start until a look-up surely sees it if it landed: the call's timeout, then the index lag. */
  get unsureWriteSettleMs(): number {
    return this.timeoutMs + this.indexLagMs;
  }

  /**
   * Sends and returns any HTTP answer; throws AtsError only when there is none (network, timeout). Blips are
   * tried again first (QuickRetryPolicy); the last answer or failure is what the caller gets.
   */
  async send(request: AtsRequest): Promise<AtsResponse> {
    const policy = request.quickRetry === false ? false : (this.options.quickRetry ?? DEFAULT_QUICK_RETRY);
    const started = Date.now();
    for (let retry = 0; ; retry++) {
      let response: AtsResponse;
      try {
        response = await this.sendOnce(request);
      } catch (error) {
        const wait = policy && isBlipFailure(error) ? quickRetryDelay(policy, retry, started) : undefined;
        if (wait === undefined) throw error;
        await sleep(wait);
        continue;
      }
      const wait =
        policy && isBlipStatus(response.status)
          ? quickRetryDelay(policy, retry, started, retryAfterMsOf(response.headers))
          : undefined;
      if (wait === undefined) return response;
      await sleep(wait);
    }
  }

  /** One try: the request, and the redirects its policy follows. */
  private async sendOnce(request: AtsRequest): Promise<AtsResponse> {
    let current = request;
    for (let hop = 0; ; hop++) {
      const response = await this.sendHop(current);
      const next = this.redirectOf(current, response, hop);
      if (!next) return response;
      current = next;
    }
  }

  /**
   * The next hop of a redirect the policy follows, undefined for any other answer. A redirect elsewhere than
   * the allowed hosts, or one hop too many, is refused: a permanent error naming the host, never the query.
   */
  private redirectOf(request: AtsRequest, response: AtsResponse, hop: number): AtsRequest | undefined {
    const policy = this.options.redirects;
    const location = response.headers.get('location');
    if (!policy || !isRedirectStatus(response.status) || !location) return undefined;
    const from = new URL(request.url);
    let to: URL;
    try {
      to = new URL(location, from);
    } catch {
      throw this.refusedRedirect(request, response, 'an unreadable address', 'it is not a web address');
    }
    if (!isAllowedHost(to.hostname, policy.allowedHosts)) {
      throw this.refusedRedirect(request, response, to.host, 'not one of its allowed hosts');
    }
    const maxHops = policy.maxHops ?? DEFAULT_MAX_REDIRECTS;
    if (hop >= maxHops) {
      throw this.refusedRedirect(request, response, to.host, `more than ${maxHops} redirects`);
    }
    const { method, keepBody } = methodAfter(response.status, request.method);
    return {
      ...request,
      method,
      url: to.toString(),
      headers: headersFor(request.headers, from, to),
      ...(keepBody ? {} : { json: undefined, multipart: undefined }),
    };
  }

  private refusedRedirect(
    request: AtsRequest,
    response: AtsResponse,
    host: string,
    reason: string,
  ): AtsError {
    try {
      this.options.redirects?.onRefused?.({ endpoint: request.endpoint, host, reason });
    } catch {
      // Deliberately ignored: the refusal stands whatever the logger does.
    }
    return new AtsError(
      `${this.atsName} ${request.endpoint} answered ${response.status} (redirect to ${host}): refused, ${reason}`,
      { kind: 'permanent', endpoint: request.endpoint, status: response.status, code: 'redirect_refused' },
    );
  }

  private async sendHop(request: AtsRequest): Promise<AtsResponse> {
    await this.options.hooks?.beforeCall?.(request.endpoint);
    // The wait for budget can be long: a caller that lost its lock meanwhile must not write now.
    if (request.signal?.aborted) {
      this.noAnswer(request.endpoint);
      request.signal.throwIfAborted();
    }
    const attributes = {
      'ats.name': this.atsName,
      'ats.endpoint': request.endpoint,
      'http.request.method': request.method,
    };
    return inSpan(
      `${this.atsName} ${request.endpoint}`,
      { kind: SpanKind.CLIENT, attributes },
      async (span) => {
        const response = await this.exchange(request);
        span?.setAttribute('http.response.status_code', response.status);
        return response;
      },
    );
  }

  /** The HTTP exchange itself, timed and counted (the wait for budget in beforeCall is not). */
  private async exchange(request: AtsRequest): Promise<AtsResponse> {
    const started = performance.now();
    const headers: Record<string, string> = { Accept: 'application/json', ...request.headers };
    let body: string | Buffer | undefined;
    if (request.multipart) {
      const encoded = encodeMultipart(request.multipart);
      headers['Content-Type'] = encoded.contentType;
      body = encoded.body;
    } else if (request.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(request.json);
    } else if (request.form) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(request.form).toString();
    }
    let status: number;
    let responseHeaders: Headers;
    let text: string;
    try {
      const init = {
        method: request.method,
        headers,
        body,
        signal: AbortSignal.timeout(this.timeoutMs),
        maxAnswerBytes: this.maxResponseBytes,
      };
      // undici's request on the guard's kept-alive pools; an injected fetch in unit tests.
      ({
        status,
        headers: responseHeaders,
        text,
      } = this.options.fetch
        ? await this.viaFetch(this.options.fetch, request.url, init)
        : await this.guard.request(request.url, init));
    } catch (error) {
      const refused = policyErrorIn(error);
      if (refused) {
        // Nothing was sent: a refused address does not get better by retrying.
        this.noAnswer(request.endpoint);
        throw new AtsError(`${this.atsName} ${request.endpoint} refused: ${refused.message}`, {
          kind: 'permanent',
          endpoint: request.endpoint,
          code: refused.code,
        });
      }
      if (error instanceof AnswerTooLargeError) {
        // The same answer again would be as large: not worth a retry.
        countAtsCall(this.atsName, request.endpoint, 'answer_too_large', seconds(started));
        this.noAnswer(request.endpoint);
        throw new AtsError(
          `${this.atsName} ${request.endpoint} answered more than ${error.maxBytes} bytes, the most read from an ATS`,
          { kind: 'permanent', endpoint: request.endpoint, code: 'answer_too_large' },
        );
      }
      const failure = classifyNetworkFailure({
        atsName: this.atsName,
        endpoint: request.endpoint,
        error,
        write: request.write,
        timeoutMs: this.timeoutMs,
        secrets: request.secrets,
        indexLagMs: this.indexLagMs,
      });
      countAtsCall(
        this.atsName,
        request.endpoint,
        failure.code === 'timeout' ? 'timeout' : 'network_error',
        seconds(started),
      );
      this.noAnswer(request.endpoint);
      throw failure;
    }
    countAtsCall(this.atsName, request.endpoint, status, seconds(started));
    try {
      this.options.hooks?.afterCall?.({ endpoint: request.endpoint, status, headers: responseHeaders });
    } catch {
      // Deliberately ignored: see AtsCallHooks.afterCall.
    }
    return { url: request.url, status, headers: responseHeaders, body: parseBody(text) };
  }

  private noAnswer(endpoint: string): void {
    try {
      this.options.hooks?.afterNoAnswer?.(endpoint);
    } catch {
      // Deliberately ignored, as afterCall's.
    }
  }

  private async viaFetch(
    fetchFn: typeof fetch,
    url: string,
    init: RequestInit & { maxAnswerBytes: number },
  ): Promise<{ status: number; headers: Headers; text: string }> {
    this.guard.check(url);
    const { maxAnswerBytes, ...fetchInit } = init;
    const response = await fetchFn(url, { ...fetchInit, redirect: 'manual' });
    const text = await response.text();
    // The unit tests' seam: the cap is enforced while streaming in the guard; here it is only checked.
    if (Buffer.byteLength(text) > maxAnswerBytes) throw new AnswerTooLargeError(maxAnswerBytes);
    return { status: response.status, headers: response.headers, text };
  }

  /** An answer that is not a 2xx → AtsError. */
  failure(request: AtsRequest, response: AtsResponse): AtsError {
    if (response.status >= 300 && response.status < 400) {
      const location = response.headers.get('location')?.split('?')[0] ?? 'an unknown address';
      return new AtsError(
        `${this.atsName} ${request.endpoint} answered ${response.status} (redirect to ${scrub(location, request.secrets)}): ` +
          'the configured address is not the one the ATS serves from',
        { kind: 'permanent', endpoint: request.endpoint, status: response.status, code: 'redirect' },
      );
    }
    return classifyResponse({
      atsName: this.atsName,
      endpoint: request.endpoint,
      status: response.status,
      headers: response.headers,
      body: response.body,
      now: new Date(),
      defaultRetryAfterMs: this.defaultRetryAfterMs,
      secrets: request.secrets,
    });
  }

  /**
   * A page with more records than asked for (more than twice: a little slack for an ATS that rounds up): a
   * broken or hostile answer, refused rather than trusted.
   */
  tooManyRecords(request: AtsRequest, response: AtsResponse, got: number, asked: number): AtsError {
    return new AtsError(
      `${this.atsName} ${request.endpoint} answered ${got} records for a page of ${asked}: a broken answer`,
      { kind: 'permanent', endpoint: request.endpoint, status: response.status, code: 'too_many_records' },
    );
  }

  /** A 2xx whose body is not what the protocol promises: the ATS changed or the address is wrong. */
  unexpected(request: AtsRequest, response: AtsResponse, what: string): AtsError {
    return new AtsError(`${this.atsName} ${request.endpoint} answered ${response.status} without ${what}`, {
      kind: 'permanent',
      endpoint: request.endpoint,
      status: response.status,
      code: 'unexpected_response',
    });
  }
}

/** A 5xx or 408: the ATS (or a proxy) failed the request; 429 is the budget's business, not a blip. */
const isBlipStatus = (status: number): boolean => status === 408 || (status >= 500 && status <= 599);

/** No answer, and nothing that may have been applied: worth a quick retry. */
function isBlipFailure(error: unknown): boolean {
  return (
    error instanceof AtsError &&
    !error.ambiguous &&
    (error.kind === 'unreachable' || error.kind === 'transient')
  );
}

/** Retry-After in ms (seconds or an HTTP date), undefined when absent or unreadable. */
function retryAfterMsOf(headers: Headers): number | undefined {
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/**
 * The wait before quick retry number `retry + 1` (exponential, ±50 % jitter, at least Retry-After), or
 * undefined when the retries are used up or it would start after the policy's window.
 */
function quickRetryDelay(
  policy: QuickRetryPolicy,
  retry: number,
  startedAt: number,
  retryAfterMs?: number,
  random: () => number = Math.random,
): number | undefined {
  if (retry >= policy.retries) return undefined;
  const jittered = policy.baseDelayMs * 2 ** retry * (0.5 + random());
  const wait = Math.max(jittered, retryAfterMs ?? 0);
  return Date.now() + wait - startedAt > policy.withinMs ? undefined : Math.round(wait);
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const seconds = (startedMs: number): number => (performance.now() - startedMs) / 1000;

export const isSuccess = (response: AtsResponse): boolean => response.status >= 200 && response.status < 300;

function parseBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The URL policy's refusal, thrown directly or as a connection failure's cause (fetch wraps it). */
function policyErrorIn(error: unknown): UrlPolicyError | undefined {
  for (let e: unknown = error, depth = 0; isRecord(e) && depth < 4; e = e['cause'], depth++) {
    if (e instanceof UrlPolicyError) return e;
  }
  return undefined;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
