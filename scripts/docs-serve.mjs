// Serves the docs' pages as printed: the README's first app at /first-app/ and the guide's named
// code blocks at /guide/ (vanilla-todos.html, fast-todos.ts, resources.ts…), read from the Markdown
// at each request. The test runner loads them (test/e2e/todo-pages.browser.test.ts) and `npm start`
// serves them beside the demo.
import { firstApp, guideFiles } from './docs-blocks.mjs';

/**
 * A dev-server plugin for the blocks `files()` names, under `prefix`. Their imports of
 * `resource-elements` (and its entries) go to src/, and a block's `./resources.js` is its
 * sibling block `resources.ts` (a page's blocks share one folder).
 */
function blocksPlugin(prefix, files) {
  return {
    name: `docs ${prefix}`,
    serve(context) {
      if (!context.path.startsWith(prefix)) return undefined;
      const name = context.path.slice(prefix.length);
      const code = /^[\w.-]+$/.test(name) && files()[name];
      if (!code) return undefined;
      return { body: code, type: name.endsWith('.html') ? 'html' : 'js' };
    },
    resolveImport({ source, context }) {
      if (!context.path.startsWith(prefix)) return undefined;
      const entry = /^resource-elements(?:\/(\w+))?$/.exec(source);
      if (entry) return entry[1] ? `/src/${entry[1]}/index.ts` : '/src/index.ts';
      // The compiled name of a TypeScript block: `./resources.js` is the block `resources.ts`.
      const sibling = /^\.\/([\w-]+)\.js$/.exec(source)?.[1];
      if (sibling && files()[`${sibling}.ts`]) return `${prefix}${sibling}.ts`;
      return undefined;
    },
  };
}

/** The plugins that serve the README's first app and the guide's pages. */
export const docsPlugins = () => [
  blocksPlugin('/first-app/', firstApp),
  blocksPlugin('/guide/', guideFiles),
];
