import type { Config } from 'jest';
import { preset } from './jest.preset';

// Unit tests: logic only, no network, beside the code as *.spec.ts.
const config: Config = {
  ...preset,
  displayName: 'unit',
  testMatch: ['<rootDir>/{apps,libs,tools,chaos}/**/*.spec.ts'],
};
export default config;
