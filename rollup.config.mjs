// Builds every public entry point to ESM in dist/, keeping one file per source module so that
// `resource-elements/core` and `resource-elements` share code instead of duplicating it.
import typescript from '@rollup/plugin-typescript';
import { devFlagRollup } from './scripts/dev-flag.mjs';

const isExternal = (id) =>
  id === 'lit' ||
  id === 'signal-polyfill' ||
  id === '@microsoft/fast-element' ||
  id.startsWith('@microsoft/fast-element/') ||
  id.startsWith('lit/') ||
  id.startsWith('@lit/') ||
  id.startsWith('@lit-labs/');

export default {
  input: {
    index: 'src/index.ts',
    'core/index': 'src/core/index.ts',
    'boundary/index': 'src/boundary/index.ts',
    'devtools/index': 'src/devtools/index.ts',
    'ssr/index': 'src/ssr/index.ts',
    'infinite/index': 'src/infinite/index.ts',
    'forms/index': 'src/forms/index.ts',
    'fields/index': 'src/fields/index.ts',
    'follow/index': 'src/follow/index.ts',
    'elements/index': 'src/elements/index.ts',
    'fast/index': 'src/fast/index.ts',
    'html/index': 'src/html/index.ts',
    'views/index': 'src/views/index.ts',
    'query/index': 'src/query/index.ts',
    'managers/index': 'src/managers/index.ts',
    'hydration/index': 'src/hydration/index.ts',
    'signals/index': 'src/signals/index.ts',
  },
  external: isExternal,
  output: {
    dir: 'dist',
    format: 'es',
    preserveModules: true,
    preserveModulesRoot: 'src',
  },
  // TypeScript compiles each module from disk (its load hook, which also emits the declaration
  // files); the dev-flag transform then writes the inline NODE_ENV test in place of each `DEV()`.
  plugins: [
    typescript({ tsconfig: './tsconfig.build.json', outputToFilesystem: true }),
    devFlagRollup(),
  ],
};
