// @ts-check
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import reactRefresh from 'eslint-plugin-react-refresh';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Import boundaries (after bulletproof-react): shared code never reaches into
 * features or the app shell, and features never reach into the app shell.
 * @param {string[]} groups
 * @param {{ group: string[], message: string }[]} [extra]
 */
const forbid = (groups, extra = []) => ({
  'no-restricted-imports': [
    'error',
    {
      patterns: [
        ...groups.map((group) => ({
          group: [`@/${group}`, `@/${group}/*`],
          message: `This layer may not import from src/${group}.`,
        })),
        ...extra,
      ],
    },
  ],
});

/**
 * A feature uses another feature only through its public face, `features/<name>/index.ts`
 * (its own files by relative paths): `@/features/requests` yes, `@/features/requests/api/x` no.
 */
const NO_DEEP_FEATURE_IMPORTS = {
  group: ['@/features/*/**'],
  message: "Import another feature through its index.ts ('@/features/<name>'), never its internals.",
};

export default tseslint.config(
  { ignores: ['dist', 'coverage', 'node_modules'] },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [
      js.configs.recommended,
      ...tseslint.configs.strictTypeChecked,
      ...tseslint.configs.stylisticTypeChecked,
      reactHooks.configs.flat.recommended,
    ],
    languageOptions: {
      ecmaVersion: 2022,
      globals: globals.browser,
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { 'react-refresh': reactRefresh, 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.app.json' })],
    },
    rules: {
      // Features depend on each other one way only (e.g. matches -> brands).
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'react-refresh/only-export-components': ['error', { allowConstantExport: true }],
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always'],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['src/components/**', 'src/lib/**', 'src/hooks/**', 'src/config/**'],
    rules: forbid(['app', 'features']),
  },
  {
    files: ['src/features/**'],
    ignores: ['**/*.test.{ts,tsx}', '**/test-fixtures.ts'],
    rules: forbid(['app'], [NO_DEEP_FEATURE_IMPORTS]),
  },
  {
    // Tests may reach into internals (fixtures, stores), but not into the app shell.
    files: ['src/features/**/*.test.{ts,tsx}', 'src/features/**/test-fixtures.ts'],
    rules: forbid(['app']),
  },
  {
    files: ['**/*.test.{ts,tsx}', 'src/testing/**'],
    rules: { 'react-refresh/only-export-components': 'off' },
  },
  {
    files: ['**/*.{js,mjs}'],
    extends: [js.configs.recommended, tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
  },
);
