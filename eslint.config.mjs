// Lint configuration (ESLint flat config). TypeScript: typescript-eslint's type-aware recommended rules
// (floating and misused promises, unsafe `any`, ...) over everything tsconfig.json compiles.
// JavaScript (scripts, bench, the bin entry, test fixtures): ESLint's recommended rules with Node globals.
// Prettier wraps code at 140 (printWidth in .prettierrc.json) but cannot break a long string or comment, so max-len
// (160, URLs excepted) catches those: a reader sees every line whole.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['out/**', 'dist/**', 'node_modules/**', '.editor-server/**', 'test-output/**', '.bench-tmp/**', 'demo/workspace/**'],
  },
  {
    files: ['**/*.{js,mjs,cjs,ts}'],
    rules: { 'max-len': ['error', { code: 160, ignoreUrls: true }] },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    extends: [js.configs.recommended],
    languageOptions: { ecmaVersion: 2022, globals: { ...globals.node } },
    // As for the TypeScript: `_`-prefixed names are deliberately unused.
    rules: { 'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }] },
  },
  {
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs' },
  },
  {
    // opencode's plugin (templates/opencode-plugin.js): an ES module, as opencode loads it.
    files: ['templates/**/*.js'],
    languageOptions: { sourceType: 'module' },
  },
  {
    // Code that runs in the editor's test host or a browser page as well as in Node.
    files: ['scripts/editor/**/*.mjs', 'test/integration/**/*.mjs'],
    languageOptions: { globals: { ...globals.node, ...globals.mocha } },
  },
  {
    // The dashboard's page script runs in the webview, a browser page (src/vscode/dashboard/dashboardHtml.ts).
    files: ['media/**/*.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.browser, acquireVsCodeApi: 'readonly' } },
  },
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unsafe-argument': 'error',
      '@typescript-eslint/no-unsafe-assignment': 'error',
      '@typescript-eslint/no-unsafe-call': 'error',
      '@typescript-eslint/no-unsafe-member-access': 'error',
      '@typescript-eslint/no-unsafe-return': 'error',
      // Passing a caught value on (`catch (e) { reject(e) }`) is allowed; new rejections must still be Errors.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      // `_`-prefixed parameters and variables are deliberately unused (interface shapes, destructuring to omit a key).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // `import { z } from 'zod'` hands esbuild zod's whole namespace object, which it cannot trim: one such import
    // adds about 94 KB to each bundle (bench/bundle-size.mjs; dist/extension.js has a 400 KB budget).
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "ImportDeclaration[source.value='zod'][importKind!='type'] > " +
            ":matches(ImportSpecifier[imported.name='z'][importKind!='type'], ImportDefaultSpecifier)",
          message: "Write `import * as z from 'zod'`: esbuild then bundles only the parts of zod that are used.",
        },
      ],
    },
  },
);
