import type { Config } from 'jest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// Path aliases come from tsconfig.base.json so there is one list to maintain.
const tsconfig = JSON.parse(readFileSync(join(__dirname, 'tsconfig.base.json'), 'utf8')) as {
  compilerOptions: { paths: Record<string, string[]> };
};
const moduleNameMapper = Object.fromEntries(
  Object.entries(tsconfig.compilerOptions.paths).map(([alias, [target]]) => [
    `^${alias.replace('/', '\\/')}$`,
    `<rootDir>/${target}`,
  ]),
);

export const preset: Config = {
  rootDir: __dirname,
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
          keepClassNames: true,
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  moduleNameMapper,
  setupFiles: ['reflect-metadata'],
  // Anchored at the root: a checkout may itself live under a /tmp/ directory.
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/dist/', '<rootDir>/tmp/'],
};
