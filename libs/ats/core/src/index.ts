/**
 * @connector/ats-core: what an ATS adapter is (`AtsAdapter`, its capabilities) and the registry class the
 * services look adapters up in. The adapters themselves live in `libs/ats/<name>`, listed in
 * `@connector/ats-registry` (docs/adding-an-ats.md).
 */
export * from './lib/ats-adapter';
export * from './lib/ats-registry';
export * from './lib/access-of';
export * from './lib/ats-part';
export * from './lib/ats-parts';
export * from './lib/ats-settings';
export * from './lib/connector-kind';
export * from './lib/connector-options';
export * from './lib/client-and-budget';
export * from './lib/credential-issuer';
export * from './lib/client-credentials';
export * from './lib/interactive-login';
export * from './lib/application-sink';
export * from './lib/candidate-sink';
export * from './lib/document-sink';
export * from './lib/file-types';
export * from './lib/field-diff';
export { meteredAcquire } from './lib/budget-metrics';
export * from './lib/vacancy-source';
export * from './lib/vacancy-event-source';
export { EnrichmentCache, idsToFetch } from './lib/enrichment-cache';
