/** What an ATS's sandbox offers the e2e test world (as @connector/ats-sandbox-core/testing). */
export * from './test-driver';
