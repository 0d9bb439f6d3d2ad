import type { Config } from 'jest';
import { preset } from './jest.preset';

// Integration and end-to-end tests: real RabbitMQ, real Postgres, sandboxes over HTTP.
// They share one broker, so they run one file at a time.
const config: Config = {
  ...preset,
  displayName: 'integration',
  testMatch: ['<rootDir>/{apps,libs,tools}/**/*.int-spec.ts', '<rootDir>/{apps,libs}/**/*.e2e-spec.ts'],
  globalSetup: '<rootDir>/libs/testing/src/global-setup.ts',
  // No suite touches the broker's default vhost or `npm start`'s database (where a running system lives).
  setupFiles: ['<rootDir>/libs/testing/src/hermetic-setup.ts'],
  globalTeardown: '<rootDir>/libs/testing/src/global-teardown.ts',
  maxWorkers: 1,
  testTimeout: 60_000,
};
export default config;
