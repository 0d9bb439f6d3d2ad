import 'reflect-metadata';
export * from './lib/topology';
export * from './lib/envelope';
export * from './lib/platform-events';
export * from './lib/connector-events';
export * from './lib/internal-commands';
export * from './lib/auth-requests';
export * from './lib/message-types';
export * from './lib/validate-message';
