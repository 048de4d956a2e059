import { apiMiddleware, createApi } from './api.mjs';
import { ssrMiddleware } from './ssr.mjs';

// Koa-style middleware shared by the dev server (`npm start`) and the test runner.
// The demo's REST API mounts here (under /api/), apart from any path that tests mock with msw.

/** Serves msw's worker from the site root, where it must live to control the test page. */
export function mswWorker() {
  return function serveMswWorker(context, next) {
    if (context.path === '/mockServiceWorker.js') {
      context.path = '/node_modules/msw/lib/mockServiceWorker.js';
    }
    return next();
  };
}

/**
 * The demo's icon (demo/favicon.svg, which its pages link) also at `/favicon.ico`, where browsers
 * and tools look for one: not a 404 on every page.
 */
export function favicon() {
  return function serveFavicon(context, next) {
    if (context.path === '/favicon.ico') context.path = '/demo/favicon.svg';
    return next();
  };
}

/** `/` leads to the demo: a redirect to `/demo/`. */
export function demoIndex() {
  return function redirectToDemo(context, next) {
    if (context.path === '/' && (context.method === 'GET' || context.method === 'HEAD')) {
      context.redirect('/demo/');
      return undefined;
    }
    return next();
  };
}

/**
 * Every middleware, in order: msw's worker, the demo's icon at /favicon.ico, the demo's REST API
 * under /api/, and the server-rendered todo board at /ssr/ (which prefetches from that API).
 * `latency` (ms) slows the API down so that pending states can be seen in the demo.
 */
export function middleware({ latency = 0 } = {}) {
  return [mswWorker(), favicon(), apiMiddleware(createApi({ latency })), ssrMiddleware()];
}
