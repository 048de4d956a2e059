import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// src/core must run in Node and in any browser without the DOM or Lit (DESIGN.md, section 1).
// Imports point one way (DESIGN.md, section 1): each core folder may not reach the folders above
// it. Managers sit below the Controller at run time (it attaches the built-in ones) and know it
// by type only.
const above = {
  util: ['env', 'protocol', 'schema', 'normalize', 'store', 'controller', 'managers', 'rest'],
  env: ['protocol', 'schema', 'normalize', 'store', 'controller', 'managers', 'rest'],
  protocol: ['normalize', 'store', 'controller', 'managers', 'rest'],
  schema: ['store', 'controller', 'managers', 'rest'],
  normalize: ['store', 'controller', 'managers', 'rest'],
  store: ['controller', 'managers', 'rest'],
  managers: ['controller', 'rest'],
  controller: ['rest'],
  rest: ['store', 'controller', 'managers'],
};
const directionRules = Object.entries(above).map(([folder, forbidden]) => ({
  files: [`src/core/${folder}/**/*.ts`],
  ignores: ['src/core/**/*.test.ts', 'src/core/**/*.test-d.ts', 'src/core/**/test-utils/**'],
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        patterns: forbidden.map((name) => ({
          group: [`../${name}/*`, `../../${name}/*`],
          message: `src/core/${folder} may not import src/core/${name} (DESIGN.md: imports point one way).`,
          // Types cross no module boundary at run time: a manager may name the Controller's type.
          allowTypeImports: folder === 'managers' && name === 'controller',
        })),
      },
    ],
  },
}));
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
  {
    // The NODE_ENV test is written once per module, in its development flag; the build writes it
    // out at each call (scripts/dev-flag.mjs, which refuses a flag of any other shape).
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.test.ts', 'src/**/*.test-d.ts', 'src/**/test-utils/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "MemberExpression[object.name='process'][property.name='env']:not(Program > FunctionDeclaration[id.name='DEV'] *)",
          message:
            'Read process.env in the module\'s one development flag, `function DEV(): boolean`, and call DEV() (docs/design.md, "Errors: facts always, prose in development").',
        },
      ],
    },
  },
  ...directionRules,
  {
    // The Lit layer sees the core through its public index only.
    files: ['src/lit/**/*.ts'],
    ignores: ['src/lit/**/*.test.ts', 'src/lit/**/*.test-d.ts', 'src/lit/test-utils/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../core/*/**'],
              message: 'src/lit imports the core through ../core/index.js only.',
            },
          ],
        },
      ],
    },
  },
  {
    // So do the optional entries. Five load a core module for what it plugs in (the hydrate
    // reducer, the field types' steps, the step that re-files followed lists, the views that use
    // the core's deep equality, the queries that read the store through its memo), which keeps
    // that code out of the main bundle.
    files: [
      'src/{boundary,devtools,elements,fast,fields,follow,forms,html,hydration,infinite,managers,provider,query,signals,ssr,views}/**/*.ts',
    ],
    ignores: ['src/**/*.test.ts', 'src/**/*.test-d.ts', 'src/**/test-utils/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '../core/*',
                '!../core/index.js',
                '!../core/hydration.js',
                '!../core/field-types.js',
                '!../core/follow.js',
                '!../core/views.js',
                '!../core/query.js',
              ],
              message: 'An entry imports the core through ../core/index.js only.',
            },
          ],
        },
      ],
    },
  },
  {
    // The provider's hooks serve entries with and without Lit: they import none of it.
    files: ['src/provider/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['lit', 'lit/*', '@lit/*', '@lit-labs/*'],
              message: 'src/provider is Lit-free.',
            },
            { group: ['../lit/*'], message: 'src/provider must not import the Lit layer.' },
          ],
        },
      ],
    },
  },
);
