/**
 * @connector/ats-registry: the registered ATS adapters (`atsRegistry`), `AtsType` derived from them, and the
 * validation of an ATS name at the edges (docs/adding-an-ats.md).
 */
export * from './lib/ats-adapters';
export * from './lib/is-ats-type';
