import { AtsError, classifyNetworkFailure, classifyResponse, scrub } from '../ats-error';

/** Rate limiting and call counting are the caller's business; the clients only call these around each request. */
export interface AtsCallHooks {
  /** Awaited before every HTTP request (retries and token calls included), e.g. to take a rate-limiter token. */
  beforeCall?: (endpoint: string) => Promise<void>;
  /**
   * After every HTTP answer, whatever its status (counting, reading X-RateLimit-*). Must not throw: a throw is
   * ignored, because failing a write that the ATS applied would make the caller repeat it.
   */
  afterCall?: (info: { endpoint: string; status: number; headers: Headers }) => void;
}

export interface AtsHttpOptions {
  hooks?: AtsCallHooks;
  /** Per request, body read included. Default 30 000. */
  timeoutMs?: number;
  /** Injectable for tests; default the global fetch. */
  fetch?: typeof fetch;
}

export const DEFAULT_TIMEOUT_MS = 30_000;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface AtsRequest {
  /** Label for hooks and errors, e.g. 'PATCH /api/candidates/{id}'; never holds secrets. */
  endpoint: string;
  method: HttpMethod;
  url: string;
  headers?: Record<string, string>;
  /** An object is sent as JSON; FormData as multipart. */
  json?: unknown;
  form?: FormData;
  /** Changes data and may not be repeated blindly: a timeout after sending is then `ambiguous`. */
  write: boolean;
  /** Values to keep out of error messages (tokens, secrets, codes). */
  secrets?: readonly string[];
}

export interface AtsResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON, the text when it is not JSON, undefined when empty. */
  body: unknown;
}

/** One HTTP exchange with an ATS: hooks, timeout, and the classification of failures. */
export class AtsHttp {
  private readonly fetchFn: typeof fetch;
  readonly timeoutMs: number;

  constructor(
    readonly atsName: string,
    private readonly options: AtsHttpOptions,
    /** What a 429 without Retry-After / X-RateLimit-Reset means for this ATS. */
    private readonly defaultRetryAfterMs: number,
  ) {
    this.fetchFn = options.fetch ?? ((input, init) => fetch(input, init));
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** Sends and returns any HTTP answer; throws AtsError only when there is none (network, timeout). */
  async send(request: AtsRequest): Promise<AtsResponse> {
    await this.options.hooks?.beforeCall?.(request.endpoint);
    const headers: Record<string, string> = { Accept: 'application/json', ...request.headers };
    let body: string | FormData | undefined;
    if (request.form) body = request.form;
    else if (request.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(request.json);
    }
    let response: Response;
    let text: string;
    try {
      response = await this.fetchFn(request.url, {
        method: request.method,
        headers,
        body,
        // A redirect would carry our session header to another host; it is reported instead (see failure()).
        redirect: 'manual',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      throw classifyNetworkFailure({
        atsName: this.atsName,
        endpoint: request.endpoint,
        error,
        write: request.write,
        timeoutMs: this.timeoutMs,
        secrets: request.secrets,
      });
    }
    try {
      this.options.hooks?.afterCall?.({
        endpoint: request.endpoint,
        status: response.status,
        headers: response.headers,
      });
    } catch {
      // Deliberately ignored: see AtsCallHooks.afterCall.
    }
    return { status: response.status, headers: response.headers, body: parseBody(text) };
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

export const isSuccess = (response: AtsResponse): boolean => response.status >= 200 && response.status < 300;

function parseBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
