// The README's server-rendering example (section "Server rendering"), as one module: `tsc` checks
// it in `npm test`, and test/readme-ssr.test.ts serves it in Node against the demo's API. It runs
// in Node only (the browser half is test/e2e/readme-ssr-client.ts). Keep it in step with the README.
import { createServer } from 'node:http';
import { render } from '@lit-labs/ssr';
import { RenderResultReadable } from '@lit-labs/ssr/lib/render-result-readable.js';
import { html } from 'lit';
import type { Controller } from '../../src/index.js';
import { createServerController, prefetch, stateScript } from '../../src/ssr/index.js';
import { TodoResource } from './readme-examples.js';

// --- Server rendering: the server ---
export async function todoPage(origin: string) {
  // One Controller per request: it holds this request's data.
  const controller = createServerController({ origin });
  await prefetch(controller, TodoResource.getList, { userId: 1 });
  return page(controller);
}

function* page(controller: Controller) {
  yield `<!doctype html>
    <html>
      <head>
        <script type="module" src="/hydrate-support.js"></script>
        <script type="module" src="/client.js"></script>
      </head>
      <body>`;
  yield* render(html`
    <resource-provider .controller=${controller}>
      ${stateScript(controller)}
      <todo-list .userId=${1}></todo-list>
    </resource-provider>
  `);
  yield `</body></html>`;
}

export function serve(port: number, apiOrigin: string) {
  return createServer(async (_request, response) => {
    response.setHeader('Content-Type', 'text/html; charset=utf-8');
    new RenderResultReadable(await todoPage(apiOrigin)).pipe(response);
  }).listen(port);
}
