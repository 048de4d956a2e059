// The server-rendered todo board (`npm start` serves it at /ssr/): one Controller per request,
// the board's four reads prefetched, the page rendered with @lit-labs/ssr. Runs in Node only.
import { render } from '@lit-labs/ssr';
import { collectResult } from '@lit-labs/ssr/lib/render-result.js';
import { html } from 'lit';
import { createServerController, prefetch, stateScript } from '../../src/ssr/index.js';
import { TodoResource, UserResource } from '../resources.js';
import '../todo-board.js';

/** The reads the board makes for user 1: the users, and the All, Open and Done lists. */
async function prefetchBoard(controller: ReturnType<typeof createServerController>) {
  await Promise.all([
    prefetch(controller, UserResource.getList),
    ...[undefined, false, true].map((completed) =>
      prefetch(controller, TodoResource.getList, { userId: 1, completed }),
    ),
  ]);
}

/**
 * The page's body: the provider with the store's script, and the board under it.
 * `origin` is where the API is (this server); `head` holds the page's styles.
 */
export async function renderTodoPage(origin: string, head = ''): Promise<string> {
  const controller = createServerController({ origin });
  await prefetchBoard(controller);
  const body = await collectResult(
    render(html`
      <resource-provider .controller=${controller}>
        ${stateScript(controller)}
        <demo-todo-board></demo-todo-board>
      </resource-provider>
    `),
  );
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>resource-elements: server-rendered todo board</title>
    <link rel="icon" href="data:," />
    ${head}
    <style>
      main {
        max-width: 1180px;
        margin: 0 auto;
        padding: 1.5rem 1.25rem 3rem;
      }
      h1 {
        font-size: 1.4rem;
        margin: 0 0 0.25rem;
      }
      main > p {
        color: var(--muted);
        margin: 0 0 1.25rem;
      }
    </style>
    <!-- Lit's hydration support must load before Lit itself: its own module script, first. -->
    <script type="module" src="/demo/ssr/hydrate-support.ts"></script>
    <script type="module" src="/demo/ssr/client.ts"></script>
  </head>
  <body>
    <main>
      <h1>Server-rendered todo board</h1>
      <p>The HTML below came with its data; the browser hydrates it without asking the API again.</p>
      ${body}
    </main>
  </body>
</html>
`;
}
