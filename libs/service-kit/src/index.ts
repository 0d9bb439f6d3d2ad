import 'reflect-metadata';
export * from './lib/service-config';
export * from './lib/redact';
export * from './lib/json-logger';
export * from './lib/health.module';
export * from './lib/run-service';
export * from './lib/service-core.module';
