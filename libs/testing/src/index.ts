export * from './lib/test-services';
export * from './lib/test-database';
export * from './lib/test-broker';
export * from './lib/eventually';
export * from './lib/service-process';
export * from './lib/test-vhost';
export * from './lib/chromium';
