/** ATS-B sandbox: an HTTP simulator of a Bullhorn-like ATS (OAuth login + REST) for tests, demos and benchmarks. */
export { startAtsBSandbox, buildAtsBSandboxApp, type RunningAtsBSandbox } from './lib/ats-b-sandbox.server';
export {
  resolveOptions,
  DEFAULT_CANDIDATE_STATUSES,
  DEFAULT_FILE_TYPES,
  type AtsBSandboxOptions,
  type AtsBDataCentreOptions,
  type AtsBTenantOptions,
  type AtsBTenantsOptions,
} from './lib/ats-b-sandbox.options';
export { AtsBTenants, type AtsBTenant } from './lib/tenancy/ats-b-tenants';
export type { AtsBDataCentre, DataCentreCall } from './lib/data-centres/data-centres';
export { AtsBSandboxState } from './lib/ats-b-sandbox.state';
export type { ActiveFaults, FaultConfig } from './lib/fault-injector';
export type { JobOrderPatch, SeedOptions, JobSort } from './lib/job-order.store';
export { JobOrderGenerator, DEFAULT_BASE_TIME_MS } from './lib/job-order.generator';
export type { CandidateView, DuplicateReport } from './lib/candidate.store';
export type { OAuthClientConfig, SandboxUser, TokenResponse } from './lib/oauth.store';
export type { AtsBErrorBody, ValidationMessage } from './lib/ats-b.error';
export { ADMIN_PREFIX } from './lib/sandbox-admin.routes';
export { MAX_SEARCH_COUNT, DEFAULT_SEARCH_COUNT } from './lib/job-order.routes';
export { MAX_FILE_BYTES, MAX_FILE_NAME } from './lib/file.validation';
export type * from './lib/sandbox.types';
