export {
  startAtsASandbox,
  buildAtsASandboxApp,
  type RunningAtsASandbox,
} from './lib/http/ats-a-sandbox.server';
export {
  resolveSandboxOptions,
  DEFAULT_CLIENTS,
  type AtsASandboxOptions,
  type AtsASandboxClient,
  type AtsATenantOptions,
  type AtsATenantsOptions,
  type AtsASandboxSeed,
  type ResolvedSandboxOptions,
} from './lib/ats-a-sandbox.options';
export {
  AtsASandboxState,
  type CallCounts,
  type SeedInfo,
  type ApplicationsSummary,
  type NewFile,
} from './lib/ats-a-sandbox.state';
export type { FaultConfig, FaultUpdate } from './lib/faults/fault.injector';
export type { QuotaSnapshot } from './lib/quota/quota.meter';
export type { VacancyPatch } from './lib/store/vacancy.store';
export type { SearchResponse } from './lib/search/search.engine';
export type {
  Vacancy,
  Company,
  Contact,
  Candidate,
  Application,
  ApplicationQuestion,
  StoredFile,
  PostalAddress,
  EmploymentHistoryEntry,
  EducationEntry,
} from './lib/ats-a.records';
export {
  VACANCY_STATUSES,
  FILE_TYPES,
  ENDPOINT_SCOPES,
  SCOPES,
  ID_BASE,
  PAGING,
  ERROR_MESSAGES,
  type PickListItem,
  type Link,
  type Scope,
} from './lib/ats-a.protocol';
export { AtsATenants, type AtsATenant } from './lib/tenancy/ats-a-tenants';
export { TENANT_PREFIX } from './lib/tenancy/tenant-name';
