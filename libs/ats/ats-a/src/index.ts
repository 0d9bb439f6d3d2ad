/** @connector/ats-a: the ATS-A adapter (docs/adding-an-ats.md, /work/shared/ats-a.md). */
export { type AtsAAccess, atsAAccessOf } from './lib/ats-a-access';
export { atsAAdapter } from './lib/ats-a.adapter';
export { makeAtsAClients } from './lib/ats-a-clients';
export { AtsACredentialIssuer, atsACredentialIssuer } from './lib/credentials/ats-a-credential.issuer';
export { ATS_A_VACANCY_BLOCKS, ATS_A_SOURCE_PATHS } from './lib/ats-a-vacancy-fields';
export { normalizeAtsABaseUrl } from './lib/client/ats-a-base-url';
export { requestAtsAToken, type AtsAToken, type AtsATokenOptions } from './lib/client/ats-a-token';
export {
  AtsAClient,
  type AtsAClientConfig,
  type AtsAAccessToken,
  type AtsASearchPagesOptions,
  type AtsAPage,
} from './lib/client/ats-a.client';
export {
  atsAAdvertisedUntil,
  atsAVacancyLiveness,
  DEFAULT_ATS_A_OPEN_STATUSES,
  type AtsALiveness,
  type AtsANotLiveReason,
} from './lib/client/ats-a-vacancy';
export {
  describeMissingAtsAStatuses,
  readAtsAPickList,
  resolveAtsAStatuses,
  type AtsAPickListValue,
  type AtsAStatusResolution,
} from './lib/client/ats-a-statuses';
export {
  ATS_A_VACANCY_STATUS_DROPDOWN,
  ATS_A_MAX_PAGE_SIZE,
  ATS_A_TOKEN_CALLS_COUNT,
} from './lib/client/ats-a.protocol';
export type * from './lib/client/ats-a.types';
export {
  DEFAULT_ATS_A_DAILY_CALL_LIMIT,
  atsAQuota,
  atsAQuotaKey,
  quotaHeadersOf,
} from './lib/budget/ats-a-budget';
export { AtsACallsInFlight, atsABudgetHooks, type AtsABudgetOptions } from './lib/budget/ats-a-budget-hooks';
export { AtsAVacancySource, splitByLiveness, toSourceVacancy } from './lib/vacancies/ats-a-vacancy.source';
export { AtsACandidateSink } from './lib/candidates/ats-a-candidate.sink';
export { AtsADocumentSink } from './lib/documents/ats-a-document.sink';
export { AtsAApplicationSink } from './lib/applications/ats-a-application.sink';
