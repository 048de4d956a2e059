import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// src/core must run in Node and in any browser without the DOM or Lit (DESIGN.md, section 1).
const domGlobals = ['window', 'document', 'HTMLElement', 'customElements', 'navigator', 'location'];

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      '.test-results/',
      'docs/',
      'demo/mockServiceWorker.js',
      'test/consumer/out/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        console: 'readonly',
        process: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        fetch: 'readonly',
        URLSearchParams: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-empty-object-type': 'off',
      '@typescript-eslint/no-unsafe-function-type': 'off',
      '@typescript-eslint/no-this-alias': 'off',
    },
  },
  {
    // The consumer fixture is browser code, and the consumer test evaluates functions in the page.
    files: ['test/consumer/**/*.js', 'scripts/test-consumer.mjs'],
    languageOptions: { globals: { document: 'readonly', customElements: 'readonly' } },
  },
  {
    // Type tests declare values only to take their types.
    files: ['**/*.test-d.ts'],
    rules: { '@typescript-eslint/no-unused-vars': 'off' },
  },
  {
    // TypeScript itself reports unknown names in .ts files.
    files: ['**/*.ts'],
    rules: { 'no-undef': 'off' },
  },
  {
    files: ['src/core/**/*.ts'],
    ignores: ['src/core/**/*.test.ts', 'src/core/**/*.browser.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['lit', 'lit/*', '@lit/*'], message: 'src/core is Lit-free.' },
            {
              group: ['**/lit/**', '../lit/*', '../../lit/*'],
              message: 'src/core must not import the Lit layer.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...domGlobals.map((name) => ({
          name,
          message: `src/core is DOM-free: do not use ${name}.`,
        })),
      ],
    },
  },
);
