/**
 * @connector/ats-clients: HTTP clients for ATS-A and ATS-B (/work/shared/ats-a.md, ats-b.md), with one error
 * classification (AtsError.kind) for both. Tokens, sessions, rate limiting and counting stay with the caller:
 *
 *   const client = new AtsAClient({
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
  DEFAULT_TIMEOUT_MS,
  type AtsCallHooks,
  type AtsHttpOptions,
  type QuickRetryPolicy,
} from './lib/http/ats-http';
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

export {
  readArray,
  readBoolean,
  readDate,
  readId,
  readInt,
  readObject,
  readText,
} from './lib/read/tolerant-read';

export { normalizeAtsABaseUrl } from './lib/ats-a/ats-a-base-url';
export { requestAtsAToken, type AtsAToken, type AtsATokenOptions } from './lib/ats-a/ats-a-token';
export {
  AtsAClient,
  type AtsAClientConfig,
  type AtsAAccessToken,
  type AtsASearchPagesOptions,
  type AtsAPage,
} from './lib/ats-a/ats-a.client';
export {
  atsAAdvertisedUntil,
  atsAVacancyLiveness,
  isLiveAtsAVacancy,
  DEFAULT_ATS_A_OPEN_STATUSES,
  type AtsALiveness,
  type AtsANotLiveReason,
} from './lib/ats-a/ats-a-vacancy';
export {
  describeMissingAtsAStatuses,
  readAtsAPickList,
  resolveAtsAStatuses,
  type AtsAPickListValue,
  type AtsAStatusResolution,
} from './lib/ats-a/ats-a-statuses';
export {
  ATS_A_VACANCY_STATUS_DROPDOWN,
  ATS_A_MAX_PAGE_SIZE,
  ATS_A_TOKEN_CALLS_COUNT,
} from './lib/ats-a/ats-a.protocol';
export type * from './lib/ats-a/ats-a.types';

export { AtsBOAuthClient } from './lib/ats-b/ats-b-oauth.client';
export {
  AtsBClient,
  jobOrderListingTerms,
  type AtsBClientConfig,
  type AtsBJobOrderIdPagesOptions,
} from './lib/ats-b/ats-b.client';
export {
  ATS_B_OPEN_JOBS_QUERY,
  ATS_B_MAX_SEARCH_COUNT,
  ATS_B_MAX_IDS_PER_GET,
  ATS_B_CLIENT_CONTACT_FIELDS,
  ATS_B_CLIENT_CORPORATION_FIELDS,
  ATS_B_JOB_ORDER_SCALAR_FIELDS,
  ATS_B_JOB_ORDER_FIELDS,
} from './lib/ats-b/ats-b.protocol';
export type * from './lib/ats-b/ats-b.types';
export {
  ATS_B_MAX_EVENTS_PER_READ,
  ATS_B_SUBSCRIPTION_ID,
  AtsBSubscriptionGoneError,
  readEventBatch,
  type AtsBEntityEvent,
  type AtsBEntityEventType,
  type AtsBEventBatch,
} from './lib/ats-b/ats-b-events';
