/**
 * @connector/ats-http: the generic ATS HTTP layer (AtsHttp, the OutboundGuard, the URL policy, tolerant
 * reads) with one error classification (AtsError.kind) for every ATS. The ATS clients built on it live in
 * their adapters (@connector/ats-a, @connector/ats-b). Tokens, sessions, rate limiting and counting stay
 * with the caller:
 *
 *   const client = new AtsAClient({       // @connector/ats-a
 *     baseUrl, token: ({ rejected }) => tokens.get(connectorId, { rejected }),
 *     hooks: { beforeCall: () => limiter.acquire(key, 1, { maxWaitMs: 0 }).then(() => undefined),
 *              afterCall: ({ endpoint, status, headers }) => metrics.count(endpoint, status, headers) },
 *   });
 *   for await (const { records } of client.searchPages<AtsAVacancy>('vacancies', { pageSize: 100 })) …
 *
 * Every call goes through an OutboundGuard (SSRF): https and public addresses only, checked on each address
 * a connection resolves to, unless `guard: outboundGuard('loopback')` (local mode, tests) says otherwise.
 */
export {
  AtsError,
  parseAtsErrorBody,
  kindOfStatus,
  classifyResponse,
  classifyNetworkFailure,
  retryAtOf,
  UNSURE_WRITE_SETTLE_MS,
  type AtsErrorKind,
  type AtsErrorInit,
  type AtsErrorBody,
  type ResponseFailure,
  type NetworkFailure,
} from './lib/ats-error';
export {
  AtsHttp,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUT_MS,
  isRecord,
  isSuccess,
  type AtsCallHooks,
  type AtsHttpOptions,
  type AtsRequest,
  type AtsResponse,
  type AtsWriteOptions,
  type HttpMethod,
  type QuickRetryPolicy,
} from './lib/http/ats-http';
export type { MultipartPart } from './lib/http/multipart';
export {
  DEFAULT_MAX_REDIRECTS,
  isAllowedHost,
  parseAllowedHosts,
  type RedirectPolicy,
} from './lib/http/redirects';
export { discard, OutboundGuard, outboundGuard, type GuardedStream } from './lib/http/outbound-guard';
export {
  ADDRESS_ALLOWANCES,
  checkAtsUrlPolicy,
  classifyAddress,
  UrlPolicyError,
  type AddressAllowance,
  type UrlPolicyErrorCode,
  type AddressClass,
  type HostResolver,
} from './lib/url-policy';

export { readBoolean, readDate, readId, readInt, readObject, readText } from './lib/read/tolerant-read';
