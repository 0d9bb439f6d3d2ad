import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

const ADMIN_PAGE_JS = 'apps/connector-registry/src/app/admin-page/public/*.js';

/**
 * Who may import whom (project.json `tags`). Apps are thin shells over libs and never import another app.
 * The product's libs are layered, each importing only its own layer and those below:
 *   layer:base (contracts, observability, job-mapping) < layer:infra (persistence, messaging, rate-limiter,
 *   libs/ats/http: the generic ATS HTTP layer) < layer:vendor (the rest of libs/ats/*: the ATS adapters, their
 *   clients and budgets; ats-client-factory) < layer:service (service-kit, exactly-once)
 *   < the services (scope:service).
 * The ATS sandboxes (scope:sandbox) stand apart: they import no product lib, and no product code imports them
 * or the test kit (scope:test-support: testing, service-stubs); tests, e2e, bench and chaos may.
 */
function moduleBoundaries({ testCode }) {
  const forTests = testCode ? ['scope:sandbox', 'scope:test-support'] : [];
  const layers = ['layer:base', 'layer:infra', 'layer:vendor', 'layer:service'];
  const layerConstraints = layers.map((layer, i) => ({
    sourceTag: layer,
    onlyDependOnLibsWithTags: [...layers.slice(0, i + 1), ...forTests],
  }));
  return [
    'error',
    {
      enforceBuildableLibDependency: true,
      allow: [],
      depConstraints: [
        { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
        { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
        { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:lib', 'type:chaos'] },
        { sourceTag: 'type:bench', onlyDependOnLibsWithTags: ['type:lib'] },
        { sourceTag: 'type:chaos', onlyDependOnLibsWithTags: ['type:lib'] },
        { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared', ...forTests] },
        { sourceTag: 'scope:service', onlyDependOnLibsWithTags: ['scope:shared', ...forTests] },
        {
          sourceTag: 'scope:sandbox',
          onlyDependOnLibsWithTags: ['scope:sandbox', ...(testCode ? ['scope:test-support'] : [])],
        },
        {
          sourceTag: 'scope:test-support',
          onlyDependOnLibsWithTags: ['scope:shared', 'scope:sandbox', 'scope:test-support'],
        },
        ...layerConstraints,
      ],
    },
  ];
}

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  prettier,
  ...nx.configs['flat/javascript'],
  {
    ignores: [
      '**/node_modules',
      '**/dist',
      '**/tmp',
      '.nx',
      'coverage',
      '**/*.mjs',
      '**/*.js',
      `!${ADMIN_PAGE_JS}`,
    ],
  },
  {
    // The admin page's browser modules: type-checked through their own tsconfig (DOM, JSDoc types).
    files: [ADMIN_PAGE_JS],
    languageOptions: {
      parserOptions: {
        project: './apps/connector-registry/tsconfig.admin-page.json',
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
    },
  },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@nx/enforce-module-boundaries': moduleBoundaries({ testCode: false }),
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
      'no-restricted-syntax': [
        'error',
        {
          // `Module({...})(SomeModule)` rewrites a class at boot: a global under another name. Return a
          // DynamicModule instead (declared @Global() when every feature needs it).
          selector: "CallExpression[callee.type='CallExpression'][callee.callee.name='Module']",
          message: 'Do not rewrite a module class at boot; return a DynamicModule from forRoot.',
        },
        {
          // One way to write SQL: the repository API for plain reads and writes, and where one statement
          // matters, a hand statement (sqlStatement) in the repository's `*.sql.ts`, checked against the
          // migrated schema by tools/sql-statements.int-spec.ts.
          selector: "MemberExpression[property.name='createQueryBuilder']",
          message: "No QueryBuilder: use the repository API, or a sqlStatement in the repository's *.sql.ts.",
        },
      ],
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Tests may start the ATS sandboxes in-process and use the test kit; production code may not.
      '@nx/enforce-module-boundaries': moduleBoundaries({ testCode: true }),
    },
  },
];
