import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

const ADMIN_PAGE_JS = 'apps/connector-registry/src/app/admin-page/public/*.js';

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
      // Apps are thin shells over libs; an app never imports another app, a service never a sandbox.
      '@nx/enforce-module-boundaries': [
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
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:service', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:sandbox', onlyDependOnLibsWithTags: ['scope:shared', 'scope:sandbox'] },
          ],
        },
      ],
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
      ],
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Tests may start the ATS sandboxes in-process; production code still may not import them.
      '@nx/enforce-module-boundaries': [
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
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared', 'scope:sandbox'] },
            { sourceTag: 'scope:service', onlyDependOnLibsWithTags: ['scope:shared', 'scope:sandbox'] },
            { sourceTag: 'scope:sandbox', onlyDependOnLibsWithTags: ['scope:shared', 'scope:sandbox'] },
          ],
        },
      ],
    },
  },
];
