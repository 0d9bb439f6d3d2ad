export * from './lib/job-mapping.types';
export * from './lib/validate-job-mapping';
export * from './lib/apply-job-mapping';
