import type { Config } from 'jest';
import { preset } from './jest.preset';

// Integration and end-to-end tests: real RabbitMQ, real Postgres, sandboxes over HTTP.
// Two files run at once: each has a vhost and a database of its own (and broker users, Postgres roles and ports
// named or picked for it), and most of a file's time is spent waiting on its services, not on the CPU.
const config: Config = {
  ...preset,
  displayName: 'integration',
  testMatch: ['<rootDir>/{apps,libs,tools}/**/*.int-spec.ts', '<rootDir>/{apps,libs}/**/*.e2e-spec.ts'],
  globalSetup: '<rootDir>/libs/testing/src/global-setup.ts',
  // No suite touches the broker's default vhost or `npm start`'s database (where a running system lives).
  setupFiles: ['<rootDir>/libs/testing/src/hermetic-setup.ts'],
  globalTeardown: '<rootDir>/libs/testing/src/global-teardown.ts',
  maxWorkers: 2,
  testSequencer: '<rootDir>/tools/slowest-first.sequencer.mjs',
  testTimeout: 60_000,
};
export default config;
