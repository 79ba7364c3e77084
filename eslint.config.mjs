// eslint.config.mjs -- ESLint's flat config for the JavaScript we write:
// the web front end (web/js: ES modules in the browser) and the node test
// suites (tests/web, tests/contract: ES modules under node's test runner).
// `make lint` runs it and `make test` runs `make lint`; a warning fails.
//
// The rules are ESLint's recommended set plus a few that catch what review
// kept finding by hand: == instead of ===, a variable that could be const,
// shadowed names in long closures, and stray console calls in the page.

import js from '@eslint/js';
import globals from 'globals';

const common = {
  eqeqeq: ['error', 'always', { null: 'ignore' }],
  'prefer-const': ['error', { destructuring: 'all' }],
  'no-var': 'error',
  'no-shadow': ['error', { builtinGlobals: false, hoist: 'functions' }],
  'no-unused-vars': ['error', { args: 'after-used', argsIgnorePattern: '^_', caughtErrors: 'none' }],
  'no-implicit-coercion': ['error', { boolean: false, number: false }],
  'object-shorthand': ['error', 'properties'],
  'no-throw-literal': 'error',
};

export default [
  { ignores: ['build/**', 'node_modules/**'] },
  js.configs.recommended,
  {
    files: ['web/**/*.js'],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.browser },
    },
    rules: {
      ...common,
      'no-console': 'error',
    },
  },
  {
    files: ['tests/**/*.mjs', 'eslint.config.mjs'],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node },
    },
    rules: {
      ...common,
      // node:test's hooks have everyday names a test may use for its own values
      'no-shadow': ['error', { builtinGlobals: false, hoist: 'functions', allow: ['before', 'after', 'test'] }],
    },
  },
  {
    // Functions the tests run inside the page (page.evaluate and friends)
    // see the browser's globals.
    files: ['tests/web/**/*.mjs'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
];
