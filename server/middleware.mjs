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

/** Every middleware, in order. Later issues add the demo API here. */
export function middleware() {
  return [mswWorker()];
}
