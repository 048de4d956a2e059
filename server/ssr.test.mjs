// The server-rendered page as the browser gets it: over HTTP from the dev server's middleware,
// with the todo board's data in the HTML and the store in the provider's script, prefetched from
// the API the same server mounts (four reads, no more).
import { describe, it, before, after } from 'node:test';
import { strict as assert } from 'node:assert';
import { startDevServer } from '@web/dev-server';
import { middleware } from './middleware.mjs';

describe('server-rendered page at /ssr/', () => {
  let server;
  let base;

  before(async () => {
    server = await startDevServer({
      config: { rootDir: process.cwd(), hostname: '127.0.0.1', port: 0, middleware: middleware() },
      readCliArgs: false,
      readFileConfig: false,
      logStartMessage: false,
    });
    base = `http://127.0.0.1:${server.server.address().port}`;
  });

  after(async () => {
    await server?.stop();
  });

  it('renders the todo board with its data, prefetched from the API, and the clock pending', async () => {
    await fetch(`${base}/api/__reset`, { method: 'POST' });
    const response = await fetch(`${base}/ssr/`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /text\/html/);
    const page = await response.text();
    const shown = page.replace(/<!--[^]*?-->/g, '');
    for (const title of ['Write the spec', 'Review pull requests', 'Plan the release']) {
      assert.ok(shown.includes(title), `the page shows "${title}"`);
    }
    assert.ok(shown.includes('Ada'), 'the users are rendered');
    assert.ok(!shown.includes('Loading'), 'nothing renders pending');
    assert.match(page, /<script type="application\/json" data-resource-state>\{"entities"/);
    assert.match(page, /<template shadowroot="open" shadowrootmode="open">/);
    const log = await (await fetch(`${base}/api/__requests`)).json();
    const requests = log.map((entry) => `${entry.method} ${entry.path}`);
    assert.deepEqual(requests.sort(), [
      'GET /todos?userId=1',
      'GET /todos?userId=1&completed=false',
      'GET /todos?userId=1&completed=true',
      'GET /unstable',
      'GET /users',
    ]);
    // The clock is left to the browser: pending in the HTML.
    assert.ok(shown.includes('Asking the server for the time…'));
  });

  it('checks the checkbox of each todo that is done, and only those, in the HTML itself', async () => {
    // With JavaScript off, or before hydration, the checkbox is what the HTML says: an attribute
    // `checked`, whatever its value, checks it.
    await fetch(`${base}/api/__reset`, { method: 'POST' });
    const todos = await (await fetch(`${base}/api/todos?userId=1`)).json();
    const done = new Map(todos.map((todo) => [todo.title, todo.completed]));
    assert.ok([...done.values()].includes(true) && [...done.values()].includes(false));
    const page = await (await fetch(`${base}/ssr/`)).text();
    const items = [
      ...page.matchAll(
        /(<input[^>]*type="checkbox"[^>]*>)[^]*?<button[^>]*class="title[^"]*"[^>]*>([^]*?)<\/button>/g,
      ),
    ].map(([, input, title]) => ({ input, title: title.replace(/<!--[^]*?-->/g, '').trim() }));
    // The All, Open and Done lists: every todo once in All, and once in Open or Done.
    assert.equal(items.length, 2 * done.size);
    for (const { input, title } of items) {
      assert.ok(done.has(title), `"${title}" is one of user 1's todos`);
      const checked = /\schecked(=|\s|\/?>)/.test(input);
      assert.equal(checked, done.get(title), `"${title}": ${input}`);
      assert.doesNotMatch(input, /checked="false"/);
    }
  });

  it('redirects /ssr to /ssr/', async () => {
    const response = await fetch(`${base}/ssr`, { redirect: 'manual' });
    assert.equal(response.status, 302);
    assert.equal(new URL(response.headers.get('location'), base).pathname, '/ssr/');
  });
});
