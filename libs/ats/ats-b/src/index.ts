/** @connector/ats-b: the ATS-B adapter (docs/adding-an-ats.md, /work/shared/ats-b.md). */
export { type AtsBAccess, atsBAccessOf } from './lib/ats-b-access';
export { atsBAdapter } from './lib/ats-b.adapter';
export { makeAtsBClients } from './lib/ats-b-clients';
export { AtsBCredentialIssuer, atsBCredentialIssuer } from './lib/credentials/ats-b-credential.issuer';
export { atsBBudget } from './lib/budget/ats-b-budget';
export { ATS_B_SOURCE_PATHS } from './lib/ats-b-vacancy-fields';
export { AtsBOptionsDto } from './lib/ats-b-connector.dto';
export { AtsBOAuthClient } from './lib/client/ats-b-oauth.client';
export {
  AtsBClient,
  jobOrderListingTerms,
  type AtsBClientConfig,
  type AtsBJobOrderIdPagesOptions,
} from './lib/client/ats-b.client';
export {
  ATS_B_OPEN_JOBS_QUERY,
  ATS_B_MAX_SEARCH_COUNT,
  ATS_B_MAX_IDS_PER_GET,
  ATS_B_CLIENT_CONTACT_FIELDS,
  ATS_B_CLIENT_CORPORATION_FIELDS,
  ATS_B_JOB_ORDER_SCALAR_FIELDS,
  ATS_B_JOB_ORDER_FIELDS,
} from './lib/client/ats-b.protocol';
export type * from './lib/client/ats-b.types';
export {
  ATS_B_MAX_EVENTS_PER_READ,
  ATS_B_SUBSCRIPTION_ID,
  AtsBSubscriptionGoneError,
  readEventBatch,
  type AtsBEntityEvent,
  type AtsBEntityEventType,
  type AtsBEventBatch,
} from './lib/client/ats-b-events';
export {
  ATS_B_JOB_FIELDS,
  AtsBVacancySource,
  atsBJobState,
  atsBPage,
  toAtsBSourceVacancy,
} from './lib/vacancies/ats-b-vacancy.source';
export { AtsBVacancyEventSource } from './lib/vacancies/ats-b-vacancy-events.source';
export { AtsBCandidateSink } from './lib/candidates/ats-b-candidate.sink';
export { AtsBDocumentSink } from './lib/documents/ats-b-document.sink';
