// Server rendering in Node with @lit-labs/ssr: prefetched reads render their data into the HTML
// (also through nested shadow roots and per provider), reads not prefetched render pending and
// send nothing, failures render the error state, and the state script cannot be broken out of.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { render } from '@lit-labs/ssr';
import { collectResult } from '@lit-labs/ssr/lib/render-result.js';
import { LitElement, html } from 'lit';
import {
  Controller,
  Entity,
  ExpiryStatus,
  NetworkError,
  ResourceController,
  createResource,
} from '../index.js';
import { hydrate } from '../hydration/index.js';
import {
  STATE_ATTRIBUTE,
  createServerController,
  prefetch,
  serializeState,
  serverState,
  stateScript,
} from './index.js';

class SsrTodo extends Entity {
  id = '';
  title = '';
  pk() {
    return this.id;
  }
  static key = 'SsrTodo';
}

const TodoResource = createResource({
  path: '/api/todos/:id',
  schema: SsrTodo,
  searchParams: {} as { userId?: number },
});

const ORIGIN = 'http://api.test';

/** A fetch answering from `routes` (absolute URL → status and body), recording every call. */
function fakeApi(routes: Record<string, { status: number; body: unknown }>) {
  const calls: string[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = String(input);
    calls.push(`${init?.method ?? 'GET'} ${url}`);
    const route = routes[url] ?? { status: 404, body: { error: `no route ${url}` } };
    return new Response(JSON.stringify(route.body), {
      status: route.status,
      headers: { 'content-type': 'application/json' },
    });
  };
  return { calls, fetch };
}

class SsrTodoList extends LitElement {
  static override properties = { userId: { type: Number } };
  userId = 1;
  readonly #todos = new ResourceController(this, TodoResource.getList, () => ({
    userId: this.userId,
  }));
  override render() {
    return this.#todos.render({
      pending: () => html`<p>Loading…</p>`,
      complete: (todos) =>
        html`<ul>
          ${todos.map((todo) => html`<li>${todo.title}</li>`)}
        </ul>`,
      error: (error) => html`<p class="error">Failed: ${(error as Error).message}</p>`,
    });
  }
}
customElements.define('ssr-todo-list', SsrTodoList);

class SsrTodoDetail extends LitElement {
  static override properties = { todoId: {} };
  todoId = '';
  readonly #todo = new ResourceController(this, TodoResource.get, () => ({ id: this.todoId }));
  override render() {
    return this.#todo.render({
      pending: () => html`<p>Loading todo…</p>`,
      complete: (todo) => html`<h2>${todo.title}</h2>`,
    });
  }
}
customElements.define('ssr-todo-detail', SsrTodoDetail);

/** Reads only inside its shadow root: the request for the Controller crosses a shadow boundary. */
class SsrBoard extends LitElement {
  override render() {
    return html`<section><ssr-todo-list .userId=${1}></ssr-todo-list></section>`;
  }
}
customElements.define('ssr-board', SsrBoard);

async function renderToString(template: unknown): Promise<string> {
  return collectResult(render(template));
}

/** The HTML without Lit's hydration comments, to look for text. */
function text(markup: string): string {
  return markup.replace(/<!--[^]*?-->/g, '');
}

/** What an HTML parser takes as the state script's text: everything up to the first `</script`. */
function scriptText(markup: string): string {
  const open = `<script type="application/json" ${STATE_ATTRIBUTE}>`;
  const start = markup.indexOf(open);
  assert.ok(start >= 0, 'the page has the state script');
  const from = start + open.length;
  return markup.slice(from, markup.toLowerCase().indexOf('</script', from));
}

const ADA_TODOS = [
  { id: '1', title: 'Write the spec' },
  { id: '2', title: 'Review pull requests' },
];

describe('server rendering with @lit-labs/ssr', () => {
  it('renders prefetched entities into the HTML, through nested shadow roots, sending nothing more', async () => {
    const api = fakeApi({ [`${ORIGIN}/api/todos?userId=1`]: { status: 200, body: ADA_TODOS } });
    const controller = createServerController({ origin: ORIGIN, fetch: api.fetch });
    const todos = await prefetch(controller, TodoResource.getList, { userId: 1 });
    assert.deepEqual(
      todos?.map((todo) => todo.title),
      ['Write the spec', 'Review pull requests'],
    );

    const page = await renderToString(
      html`<resource-provider .controller=${controller}
        >${stateScript(controller)}<ssr-board></ssr-board
      ></resource-provider>`,
    );

    const shown = text(page);
    assert.match(shown, /<ul>\s*<li>Write the spec<\/li><li>Review pull requests<\/li>\s*<\/ul>/);
    assert.ok(!shown.includes('Loading'), 'nothing renders pending');
    // The render read the store: the one request is the prefetch, and nothing subscribed.
    assert.deepEqual(api.calls, [`GET ${ORIGIN}/api/todos?userId=1`]);
    assert.equal(controller.stats().subscriptions, 0);
  });

  it("emits the store in the provider's light DOM, and it hydrates a browser Controller", async () => {
    const api = fakeApi({ [`${ORIGIN}/api/todos?userId=1`]: { status: 200, body: ADA_TODOS } });
    let now = 1_000_000;
    const controller = createServerController({ origin: ORIGIN, fetch: api.fetch, now: () => now });
    await prefetch(controller, TodoResource.getList, { userId: 1 });
    const page = await renderToString(
      html`<resource-provider .controller=${controller}
        >${stateScript(controller)}<ssr-todo-list></ssr-todo-list
      ></resource-provider>`,
    );
    // The script is a direct child of the provider, before the content.
    assert.match(
      text(page),
      new RegExp(
        `<resource-provider[^>]*><template[^]*?</template><script type="application/json" ${STATE_ATTRIBUTE}>`,
      ),
    );

    now += 30_000;
    const browser = new Controller({ now: () => now });
    hydrate(browser, JSON.parse(scriptText(page)));
    const read = browser.getResponse(TodoResource.getList, { userId: 1 });
    assert.deepEqual(
      read.data?.map((todo) => todo.title),
      ['Write the spec', 'Review pull requests'],
    );
    // Expiry continues from the server's fetch: fresh 30 s later, stale after the default minute.
    assert.equal(read.expiryStatus, ExpiryStatus.Valid);
    now += 31_000;
    assert.equal(
      browser.getResponse(TodoResource.getList, { userId: 1 }).expiryStatus,
      ExpiryStatus.Stale,
    );
  });

  it('renders pending for a read the server did not prefetch, and fetches nothing for it', async () => {
    const api = fakeApi({});
    const controller = createServerController({ origin: ORIGIN, fetch: api.fetch });
    const page = await renderToString(
      html`<resource-provider .controller=${controller}
        >${stateScript(controller)}<ssr-todo-detail todoId="7"></ssr-todo-detail
      ></resource-provider>`,
    );
    assert.ok(text(page).includes('<p>Loading todo…</p>'));
    assert.deepEqual(api.calls, []);
    assert.equal(controller.stats().inFlight, 0);
    assert.deepEqual(JSON.parse(scriptText(page)).endpoints, {});
  });

  it('renders the error state of a failed prefetch, and hands the error on kept for the retry', async () => {
    const api = fakeApi({
      [`${ORIGIN}/api/todos?userId=1`]: { status: 503, body: { error: 'down' } },
    });
    let now = 5_000_000;
    const controller = createServerController({ origin: ORIGIN, fetch: api.fetch, now: () => now });
    assert.equal(await prefetch(controller, TodoResource.getList, { userId: 1 }), undefined);
    // One attempt: the page does not wait for retries; the browser fetches the read again.
    assert.deepEqual(api.calls, [`GET ${ORIGIN}/api/todos?userId=1`]);
    const error = controller.getError(TodoResource.getList, { userId: 1 }) as Error;
    assert.ok(error, 'the failure is stored as the read’s error');

    const page = await renderToString(
      html`<resource-provider .controller=${controller}
        >${stateScript(controller)}<ssr-todo-list></ssr-todo-list
      ></resource-provider>`,
    );
    const escaped = error.message
      .replace(/&/g, '&amp;')
      .replace(/"/g, '&quot;')
      .replace(/</g, '&lt;');
    assert.ok(text(page).includes(`<p class="error">Failed: ${escaped}</p>`), page);

    // A 503 is shown for a second by default; the page may take longer to load, and its first
    // render must still show the error the server rendered.
    const state = JSON.parse(scriptText(page));
    const [key] = Object.keys(state.errors);
    assert.equal(state.errors[key!].expiresAt, Number.MAX_SAFE_INTEGER);
    assert.equal(state.errors[key!].error.message, error.message);
    now += 10_000;
    const browser = new Controller({ now: () => now });
    hydrate(browser, state);
    assert.equal(
      (browser.getError(TodoResource.getList, { userId: 1 }) as Error).message,
      error.message,
    );
  });

  it('escapes the state so that no value closes the script or opens a comment', async () => {
    const evil = '</script><script>window.__x=1</script><!--';
    const separators = 'line\u2028paragraph\u2029& more > less';
    const api = fakeApi({
      [`${ORIGIN}/api/todos?userId=1`]: {
        status: 200,
        body: [
          { id: '1', title: evil },
          { id: '2', title: separators },
        ],
      },
    });
    const controller = createServerController({ origin: ORIGIN, fetch: api.fetch });
    await prefetch(controller, TodoResource.getList, { userId: 1 });

    const json = serializeState(controller);
    assert.doesNotMatch(json, /[<>&\u2028\u2029]/);
    assert.deepEqual(JSON.parse(json), serverState(controller));

    const page = await renderToString(
      html`<resource-provider .controller=${controller}
        >${stateScript(controller)}<ssr-todo-list></ssr-todo-list
      ></resource-provider>`,
    );
    // Our script's own end tag is the only one in the page: the title is escaped text elsewhere.
    assert.equal(page.toLowerCase().split('</script').length - 1, 1);
    assert.ok(!page.includes('<script>window.__x'), 'no script element from the data');
    assert.ok(text(page).includes('<li>&lt;/script&gt;&lt;script&gt;window.__x=1'));

    const titles = JSON.parse(scriptText(page)).entities.SsrTodo;
    assert.equal(titles['1'].title, evil);
    assert.equal(titles['2'].title, separators);
  });

  it('NUL, lone surrogates and keys named __proto__ or constructor come back from the state script as data', () => {
    const titles = [
      'nul\u0000',
      'lone \ud800 high',
      'lone \udfff low',
      '</SCRIPT >',
      ']]>',
      '\r\n',
    ];
    const controller = createServerController({ origin: ORIGIN });
    titles.forEach((title, i) =>
      controller.setResponse(TodoResource.get, { id: String(i) }, { id: String(i), title }),
    );
    const hostile = JSON.parse(
      '{"id":"__proto__","title":"p","__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":2}}}',
    );
    controller.setResponse(TodoResource.get, { id: '__proto__' }, hostile);
    const json = serializeState(controller);
    // Nothing raw that an HTML parser or a JavaScript parser could take differently.
    assert.doesNotMatch(json, /[<>&\u2028\u2029\ud800-\udfff]/);
    assert.ok(!json.includes('\u0000'), 'no raw NUL');
    const browser = new Controller();
    hydrate(browser, JSON.parse(json));
    titles.forEach((title, i) =>
      assert.equal(browser.getResponse(TodoResource.get, { id: String(i) }).data?.title, title),
    );
    const back = browser.getResponse(TodoResource.get, { id: '__proto__' }).data!;
    assert.deepEqual(Object.getOwnPropertyDescriptor(back, '__proto__')?.value, { polluted: 1 });
    assert.equal(Object.getPrototypeOf(back), SsrTodo.prototype);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('gives each element the Controller of its nearest provider, render by render', async () => {
    const make = (title: string) => {
      const api = fakeApi({
        [`${ORIGIN}/api/todos?userId=1`]: { status: 200, body: [{ id: '1', title }] },
      });
      return createServerController({ origin: ORIGIN, fetch: api.fetch });
    };
    const outer = make('Outer todo');
    const inner = make('Inner todo');
    await Promise.all([
      prefetch(outer, TodoResource.getList, { userId: 1 }),
      prefetch(inner, TodoResource.getList, { userId: 1 }),
    ]);
    const page = (controller: Controller, nested: Controller) =>
      html`<resource-provider .controller=${controller}
        ><ssr-todo-list></ssr-todo-list
        ><resource-provider .controller=${nested}><ssr-board></ssr-board></resource-provider
      ></resource-provider>`;
    // Two renders at once, each with its own controllers: nothing is shared between requests.
    const [first, second] = await Promise.all([
      renderToString(page(outer, inner)),
      renderToString(page(inner, outer)),
    ]);
    const order = (markup: string) =>
      [...text(markup).matchAll(/<li>([^<]*)<\/li>/g)].map((m) => m[1]);
    assert.deepEqual(order(first), ['Outer todo', 'Inner todo']);
    assert.deepEqual(order(second), ['Inner todo', 'Outer todo']);
  });

  it('renders pending without a provider, or with a provider given no Controller', async () => {
    const alone = await renderToString(html`<ssr-todo-list></ssr-todo-list>`);
    assert.ok(text(alone).includes('<p>Loading…</p>'));
    const empty = await renderToString(
      html`<resource-provider><ssr-todo-list></ssr-todo-list></resource-provider>`,
    );
    assert.ok(text(empty).includes('<p>Loading…</p>'));
  });

  it('sends relative URLs to the origin, and says what is missing when there is none', async () => {
    const api = fakeApi({
      [`${ORIGIN}/api/todos/3`]: { status: 200, body: { id: '3', title: 'x' } },
    });
    const withOrigin = createServerController({ origin: ORIGIN, fetch: api.fetch });
    assert.deepEqual(
      await prefetch(withOrigin, TodoResource.get, { id: '3' }),
      SsrTodo.fromJS({ id: '3', title: 'x' }),
    );
    assert.deepEqual(api.calls, [`GET ${ORIGIN}/api/todos/3`]);

    const without = createServerController({ fetch: api.fetch });
    assert.equal(await prefetch(without, TodoResource.get, { id: '3' }), undefined);
    const error = without.getError(TodoResource.get, { id: '3' }) as Error;
    assert.match(error.message, /\/api\/todos\/3/);
    assert.match(error.message, /createServerController\(\{ origin/);
    assert.equal(api.calls.length, 1, 'nothing was sent');
  });

  it("keeps why a read failed (the API's body, the network's reason) out of the page and its state", async () => {
    const secret = 'db password rejected for admin@10.0.0.5';
    const down = new TypeError('fetch failed', {
      cause: new Error('connect ECONNREFUSED 10.0.0.5:8000'),
    });
    const fetch: typeof globalThis.fetch = async (input) => {
      if (String(input).endsWith('/api/todos?userId=1')) throw down;
      return new Response(JSON.stringify({ message: secret }), {
        status: 500,
        statusText: `Failed at ${secret}`,
        headers: { 'content-type': 'application/json', 'retry-after': '30' },
      });
    };
    const serve = async (options: { exposeErrors?: boolean }) => {
      const reported: unknown[] = [];
      const onError = (error: unknown) => reported.push(error);
      const controller = createServerController({ origin: ORIGIN, fetch, onError, ...options });
      await prefetch(controller, TodoResource.getList, { userId: 1 });
      await prefetch(controller, TodoResource.get, { id: '5' });
      const page = await renderToString(
        html`<resource-provider .controller=${controller}
          >${stateScript(controller)}<ssr-todo-list></ssr-todo-list
          ><ssr-todo-detail todoId="5"></ssr-todo-detail
        ></resource-provider>`,
      );
      return { controller, page, reported };
    };

    const { controller, page, reported } = await serve({});
    // Before: both reasons were in the rendered error and in the state script, for anyone to read.
    assert.ok(!page.includes('10.0.0.5'), page);
    assert.ok(!page.includes('ECONNREFUSED'), page);
    const listError = controller.getError(TodoResource.getList, { userId: 1 }) as Error;
    assert.equal(
      listError.message,
      'GET /api/todos?userId=1 failed before a response arrived: fetch failed',
    );
    const detailError = controller.getError(TodoResource.get, { id: '5' }) as NetworkError;
    assert.equal(detailError.message, 'GET /api/todos/5 failed: 500');
    assert.equal(detailError.status, 500, 'the status stays: a page may show "not found" by it');
    assert.ok(text(page).includes('Failed: GET /api/todos?userId=1 failed before a response'));
    const state = JSON.parse(scriptText(page));
    assert.deepEqual(
      Object.values(state.errors).map((error) => (error as { error: unknown }).error),
      [
        { name: 'TypeError', message: listError.message },
        { name: 'NetworkError', message: detailError.message, status: 500 },
      ],
    );
    // The server's log gets it all.
    assert.equal(reported.length, 2);
    assert.equal(reported[0], down);
    assert.ok(reported[1] instanceof NetworkError);
    assert.equal(reported[1].url, `${ORIGIN}/api/todos/5`);
    assert.match(reported[1].message, /db password rejected/);

    const exposed = await serve({ exposeErrors: true });
    assert.ok(exposed.page.includes('10.0.0.5'), 'exposeErrors keeps the reasons');
    assert.deepEqual(exposed.reported, []);
  });
});
