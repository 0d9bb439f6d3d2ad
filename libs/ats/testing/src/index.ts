/**
 * @connector/ats-testing: test helpers that know the registered ATSs. Apart from @connector/testing, which the
 * sandboxes' and the adapters' own tests use: the adapters cannot be below a lib that imports them.
 */
export * from './lib/connector-snapshot';
export * from './lib/fake-ats/fake-ats.adapter';
export * from './lib/fake-ats/fake-ats.connector-kind';
export * from './lib/fake-ats/fake-ats.client-credentials';
