import { readFile } from 'node:fs/promises';
import { tsImport } from 'tsx/esm/api';

// Koa-style middleware serving the server-rendered todo board at /ssr/. The page module is
// TypeScript (demo/ssr/page.ts, with the demo's elements), loaded through tsx on first use; it
// prefetches from the API this same server mounts under /api, at the request's own origin.

/** The demo's page styles (the `<style>` of demo/index.html), so both pages look alike. */
async function demoStyles() {
  const index = await readFile(new URL('../demo/index.html', import.meta.url), 'utf8');
  return index.match(/<style>[\s\S]*?<\/style>/)?.[0] ?? '';
}

export function ssrMiddleware({ path = '/ssr/' } = {}) {
  let loaded;
  return async function serverRender(context, next) {
    if (context.path === path.slice(0, -1)) return context.redirect(path);
    if (context.path !== path) return next();
    loaded ??= Promise.all([tsImport('../demo/ssr/page.ts', import.meta.url), demoStyles()]);
    try {
      const [{ renderTodoPage }, styles] = await loaded;
      context.type = 'text/html';
      context.body = await renderTodoPage(context.origin, styles);
    } catch (error) {
      // A failed load is tried again on the next request, and says why in the page.
      loaded = undefined;
      context.status = 500;
      context.type = 'text/plain';
      context.body = `Server render failed: ${error instanceof Error ? error.stack : error}`;
    }
  };
}
