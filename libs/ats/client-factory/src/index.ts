export * from './lib/connector-directory';
export * from './lib/ats-access.provider';
export * from './lib/ats-client.factory';
export * from './lib/to-message-error';
export * from './lib/ats-access.module';
export * from './lib/ats-systems';
export * from './lib/system-breakers';
