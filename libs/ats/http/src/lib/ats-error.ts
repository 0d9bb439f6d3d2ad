/**
 * One classification of ATS failures for both ATSs, so workers decide retry / pause / dead-letter / re-auth in
 * one place (`switch (error.kind)`), whatever ATS answered.
 */
export type AtsErrorKind =
  'auth' | 'forbidden' | 'rate_limited' | 'transient' | 'permanent' | 'not_found' | 'unreachable';

/**
 * For an ATS whose index lag is not known: how long after a write a look-up surely sees it. Each ATS names
 * its own (ATS_A_INDEX_LAG_MS, ATS_B_INDEX_LAG_MS); until an unsure write is that old, not finding it proves
 * nothing.
 */
export const UNSURE_WRITE_SETTLE_MS = 60_000;

export interface AtsErrorInit {
  kind: AtsErrorKind;
  endpoint: string;
  status?: number;
  atsMessage?: string;
  code?: string;
  fields?: readonly string[];
  retryAt?: Date;
  ambiguous?: boolean;
  settleMs?: number;
}

export class AtsError extends Error {
  override readonly name = 'AtsError';
  readonly kind: AtsErrorKind;
  readonly status?: number;
  /**
   * The ATS's own error text (with validation details), secrets scrubbed. It may quote what was sent (a
   * candidate's name, email, file name), so it is never part of `message`, which reaches logs, traces and
   * `operation.failed`; only a dead letter keeps it (see toMessageError), and erasure removes that.
   */
  readonly atsMessage?: string;
  /** e.g. 'invalid_grant', 'invalid_client', 'errors.authentication.invalidRestToken'. */
  readonly code?: string;
  /** The fields the ATS named as refused (ATS-B validation): names only, never their values. */
  readonly fields?: readonly string[];
  /** For rate_limited: when the ATS says calls may resume. */
  readonly retryAt?: Date;
  /** True when a write may have been applied (timeout or dropped connection after sending): reconcile first. */
  readonly ambiguous: boolean;
  /** For an ambiguous write: how long from now until a look-up surely sees it if it landed (the index lag). */
  readonly settleMs?: number;
  /** e.g. 'POST /api/candidates'; never holds tokens or secrets. */
  readonly endpoint: string;

  constructor(message: string, init: AtsErrorInit) {
    super(message);
    this.kind = init.kind;
    this.status = init.status;
    this.atsMessage = init.atsMessage;
    this.code = init.code;
    this.fields = init.fields;
    this.retryAt = init.retryAt;
    this.ambiguous = init.ambiguous ?? false;
    this.settleMs = init.settleMs;
    this.endpoint = init.endpoint;
  }

  /** Worth trying again later (after retryAt for rate_limited). */
  get retryable(): boolean {
    switch (this.kind) {
      case 'rate_limited':
      case 'transient':
      case 'unreachable':
        return true;
      case 'auth':
      case 'forbidden':
      case 'permanent':
      case 'not_found':
        return false;
    }
  }
}

/** What either ATS put in an error body, read once. */
export interface AtsErrorBody {
  atsMessage?: string;
  code?: string;
  fields?: string[];
}

/** A code or field name as an ATS's schema spells them; anything else may be free text and is left out. */
const NAME = /^[A-Za-z][\w.:-]{0,79}$/;

/**
 * Reads both ATSs' error bodies: ATS-A `{"error_message"}` and OAuth `{"error","error_description"}`,
 * ATS-B `{"errorMessage","errorMessageKey","errorCode","messages":[{detailMessage,propertyName}]}`.
 */
export function parseAtsErrorBody(body: unknown): AtsErrorBody {
  if (typeof body === 'string') return body.trim() ? { atsMessage: body.trim().slice(0, 500) } : {};
  if (!isRecord(body)) return {};
  const text = (key: string): string | undefined => {
    const value = body[key];
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  };
  const messages = Array.isArray(body['messages']) ? body['messages'].filter(isRecord) : [];
  const details =
    messages.length > 0
      ? messages
          .map((m) => {
            const detail = typeof m['detailMessage'] === 'string' ? m['detailMessage'] : undefined;
            const property = typeof m['propertyName'] === 'string' ? m['propertyName'] : undefined;
            if (!detail) return undefined;
            return property && !detail.includes(property) ? `${property}: ${detail}` : detail;
          })
          .filter((d): d is string => d !== undefined)
      : [];
  const main = text('error_message') ?? text('errorMessage') ?? text('error_description') ?? text('error');
  const atsMessage = [main, ...details].filter((m): m is string => m !== undefined).join('; ') || undefined;
  const fields = [
    ...new Set(
      messages.flatMap((m) =>
        typeof m['propertyName'] === 'string' && NAME.test(m['propertyName']) ? [m['propertyName']] : [],
      ),
    ),
  ];
  return {
    atsMessage,
    code: text('errorMessageKey') ?? text('error'),
    ...(fields.length > 0 ? { fields } : {}),
  };
}

/** Status → kind, the table the README of this lib shows. */
export function kindOfStatus(status: number): AtsErrorKind {
  if (status === 401) return 'auth';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limited';
  if (status === 408 || status >= 500) return 'transient';
  return 'permanent';
}

/** OAuth error codes that mean "a person must fix credentials or authorize again", whatever the status. */
const AUTH_CODES = new Set(['invalid_grant', 'invalid_client']);

export interface ResponseFailure {
  atsName: string;
  endpoint: string;
  status: number;
  headers: Headers;
  body: unknown;
  now: Date;
  /** When a 429 carries neither Retry-After nor X-RateLimit-Reset. */
  defaultRetryAfterMs: number;
  /** Values to cut out of any text we keep (tokens, secrets, codes). */
  secrets?: readonly string[];
}

/** An HTTP answer ≥ 400 → AtsError. */
export function classifyResponse(failure: ResponseFailure): AtsError {
  const { status, endpoint } = failure;
  const parsed = parseAtsErrorBody(failure.body);
  const atsMessage = parsed.atsMessage ? scrub(parsed.atsMessage, failure.secrets) : undefined;
  const { code, fields } = parsed;
  const kind = code && AUTH_CODES.has(code) ? 'auth' : kindOfStatus(status);
  const retryAt =
    kind === 'rate_limited'
      ? retryAtOf(failure.headers, failure.now, failure.defaultRetryAfterMs)
      : undefined;
  // The category, the status, the ATS's code and field names: never its words (they may quote a person).
  const message =
    `${failure.atsName} ${endpoint} answered ${status} (${kind}` +
    (code && NAME.test(code) ? `, ${code}` : '') +
    (fields ? `; fields: ${fields.join(', ')}` : '') +
    ')' +
    (retryAt ? ` (retry after ${retryAt.toISOString()})` : '');
  return new AtsError(message, { kind, endpoint, status, atsMessage, code, fields, retryAt });
}

/**
 * When calls may resume: `Retry-After` (seconds or an HTTP date), else `X-RateLimit-Reset` (epoch seconds,
 * or seconds from now when small), else the ATS's documented default.
 */
export function retryAtOf(headers: Headers, now: Date, defaultRetryAfterMs: number): Date {
  const retryAfter = headers.get('retry-after')?.trim();
  if (retryAfter) {
    if (/^\d+(\.\d+)?$/.test(retryAfter)) return new Date(now.getTime() + Number(retryAfter) * 1000);
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return new Date(date);
  }
  const reset = headers.get('x-ratelimit-reset')?.trim();
  if (reset && /^\d+(\.\d+)?$/.test(reset)) {
    const value = Number(reset);
    // Epoch seconds are > 1e9; a smaller number is a delay (both conventions exist in the wild).
    return new Date(value > 1e9 ? value * 1000 : now.getTime() + value * 1000);
  }
  return new Date(now.getTime() + defaultRetryAfterMs);
}

/** Codes of errors raised before any byte of the request can have reached the ATS. */
const CONNECT_PHASE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EAI_NONAME',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_INVALID_ARG',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

export interface NetworkFailure {
  atsName: string;
  endpoint: string;
  /** What fetch threw (or the body read). */
  error: unknown;
  /** The call changes data and is not safe to repeat blindly (create, upload, refresh-token rotation). */
  write: boolean;
  timeoutMs: number;
  secrets?: readonly string[];
  /** The ATS's index lag: an ambiguous write is looked up no sooner than this after the failure. */
  indexLagMs?: number;
}

/** No HTTP answer → AtsError: timeout → transient, network error → unreachable; ambiguous for writes once sent. */
export function classifyNetworkFailure(failure: NetworkFailure): AtsError {
  const { endpoint, write, atsName } = failure;
  if (isTimeout(failure.error)) {
    return new AtsError(
      `${atsName} ${endpoint} did not answer within ${failure.timeoutMs} ms` +
        (write ? '; the write may have been applied' : ''),
      {
        kind: 'transient',
        endpoint,
        code: 'timeout',
        ambiguous: write,
        ...(write ? { settleMs: failure.indexLagMs ?? UNSURE_WRITE_SETTLE_MS } : {}),
      },
    );
  }
  const code = errorCode(failure.error);
  const beforeSending = code !== undefined && CONNECT_PHASE_CODES.has(code);
  const ambiguous = write && !beforeSending;
  const detail = scrub(errorText(failure.error), failure.secrets);
  return new AtsError(
    `${atsName} ${endpoint} could not be reached (${detail})` +
      (ambiguous ? '; the write may have been applied' : ''),
    {
      kind: 'unreachable',
      endpoint,
      code: code ?? 'network_error',
      ambiguous,
      ...(ambiguous ? { settleMs: failure.indexLagMs ?? UNSURE_WRITE_SETTLE_MS } : {}),
    },
  );
}

/** AbortSignal.timeout aborts with a DOMException named TimeoutError (not always `instanceof Error`). */
function isTimeout(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; isRecord(e) && depth < 4; e = e['cause'], depth++) {
    if (e['name'] === 'TimeoutError') return true;
  }
  return false;
}

/** undici wraps socket errors: `TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } })`. */
function errorCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; isRecord(e) && depth < 4; e = e['cause'], depth++) {
    if (typeof e['code'] === 'string') return e['code'];
  }
  return undefined;
}

function errorText(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; isRecord(e) && depth < 4; e = e['cause'], depth++) {
    if (typeof e['message'] === 'string') parts.push(e['message']);
  }
  return parts.join(': ') || String(error);
}

/** Cuts known secret values out of text that may end up in logs. */
export function scrub(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
