// The server-rendered page (`npm start` serves it at /ssr/): one Controller per request, the
// board's reads and /api/unstable prefetched, the clock left to the browser, everything rendered
// with @lit-labs/ssr. Runs in Node only (server/ssr.mjs loads it).
import { render } from '@lit-labs/ssr';
import { collectResult } from '@lit-labs/ssr/lib/render-result.js';
import { html } from 'lit';
import { createServerController, prefetch, stateScript } from '../../src/ssr/index.js';
import { TodoResource, UserResource, unstableEndpoint } from '../resources.js';
import '../todo-board.js';
import '../error-panel.js';
import '../clock-widget.js';

/**
 * The whole page for one request. `origin` is where the API is (this same server); `head` holds
 * the page's shared styles.
 */
export async function renderTodoPage(origin: string, head = ''): Promise<string> {
  // In development the page shows why a server read failed (the demo API's own words); a
  // production build shows only what failed, and the reason goes to the server's console.
  const controller = createServerController({
    origin,
    exposeErrors: process.env.NODE_ENV !== 'production',
  });
  // What the board reads for user 1 (users; the All, Open and Done lists), and the unstable
  // endpoint, which fails when told to: its error is rendered here and retried in the browser.
  await Promise.all([
    prefetch(controller, UserResource.getList),
    ...[undefined, false, true].map((completed) =>
      prefetch(controller, TodoResource.getList, { userId: 1, completed }),
    ),
    prefetch(controller, unstableEndpoint),
  ]);
  const body = await collectResult(
    render(html`
      <resource-provider .controller=${controller}>
        ${stateScript(controller)}
        <section id="todos">
          <h2>Todos, prefetched</h2>
          <demo-todo-board></demo-todo-board>
        </section>
        <div class="pair">
          <section id="errors">
            <h2>Prefetched, and it may fail</h2>
            <p>A failure on the server renders as an error here; the browser retries it.</p>
            <demo-error-panel></demo-error-panel>
          </section>
          <section id="polling">
            <h2>Not prefetched</h2>
            <p>The server renders it pending; the browser fetches it, then polls.</p>
            <demo-clock></demo-clock>
          </section>
        </div>
      </resource-provider>
    `),
  );
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>resource-elements: server-rendered page</title>
    <link rel="icon" href="/demo/favicon.svg" type="image/svg+xml" />
    ${head}
    <style>
      main {
        max-width: 1120px;
        margin: 0 auto;
        padding: 2rem 1.5rem 3rem;
      }
      h1 {
        margin: 0;
        font-size: 1.75rem;
        letter-spacing: -0.02em;
      }
      header p {
        margin: 0.35rem 0 1.5rem;
        color: var(--muted);
        max-width: 70ch;
      }
      section {
        background: var(--surface);
        border: 1px solid var(--line);
        border-radius: 14px;
        padding: 1.1rem 1.25rem 1.25rem;
        margin-bottom: 1.25rem;
      }
      section h2 {
        margin: 0 0 0.75rem;
        font-size: 1.05rem;
      }
      section p {
        margin: -0.4rem 0 0.75rem;
        color: var(--muted);
        font-size: 0.9rem;
      }
      .pair {
        display: grid;
        grid-template-columns: repeat(2, minmax(0, 1fr));
        gap: 1.25rem;
      }
      @media (max-width: 900px) {
        .pair {
          grid-template-columns: minmax(0, 1fr);
        }
      }
    </style>
    <!-- Lit's hydration support must load before Lit itself: its own module script, first. -->
    <script type="module" src="/demo/ssr/hydrate-support.ts"></script>
    <script type="module" src="/demo/ssr/client.ts"></script>
  </head>
  <body>
    <main>
      <header>
        <h1>Server-rendered page</h1>
        <p>
          This HTML came from the server with its data and the store in it. The browser hydrates
          it without asking the API again for what the server fetched.
          <a href="/demo/">The client-rendered demo</a>.
        </p>
      </header>
      ${body}
    </main>
  </body>
</html>
`;
}
