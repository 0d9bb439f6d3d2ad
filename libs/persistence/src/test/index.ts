/** Helpers for the tests of services that use @connector/persistence (as @connector/persistence/testing). */
export * from './migrated-data-source';
export * from './schema-drift';
export * from './query-plans';
export * from './fleet-query-plans';
