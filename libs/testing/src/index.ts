export * from './lib/test-services';
export * from './lib/test-database';
