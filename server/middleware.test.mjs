// The API as the browser meets it: through the dev server's middleware, over real HTTP.
import { describe, it, before, after } from 'node:test';
import { strict as assert } from 'node:assert';
import { performance } from 'node:perf_hooks';
import { startDevServer } from '@web/dev-server';
import { middleware } from './middleware.mjs';

describe('API middleware over HTTP', () => {
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

  it('creates a todo with POST and reads it back', async () => {
    const created = await fetch(`${base}/api/todos`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'Over HTTP', userId: 3 }),
    });
    assert.equal(created.status, 201);
    assert.match(created.headers.get('content-type') ?? '', /application\/json/);
    const todo = await created.json();
    const read = await fetch(`${base}/api/todos/${todo.id}`);
    assert.deepEqual(await read.json(), todo);
  });

  it('answers 204 with an empty body for DELETE, and 400 JSON for bad JSON', async () => {
    const deleted = await fetch(`${base}/api/todos/1`, { method: 'DELETE' });
    assert.equal(deleted.status, 204);
    assert.equal(await deleted.text(), '');
    const bad = await fetch(`${base}/api/todos`, {
      method: 'POST',
      body: '{oops',
      headers: { 'Content-Type': 'application/json' },
    });
    assert.equal(bad.status, 400);
    assert.deepEqual(await bad.json(), { error: 'The body is not valid JSON.' });
  });

  it('waits the latency set with POST /api/__latency before answering', async () => {
    const post = (path, body) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    try {
      assert.equal((await post('/api/__latency', { ms: 150 })).status, 200);
      const start = performance.now();
      assert.equal((await fetch(`${base}/api/users/1`)).status, 200);
      assert.ok(performance.now() - start >= 140, 'the answer waited for the latency');
    } finally {
      await post('/api/__reset');
    }
    const start = performance.now();
    await fetch(`${base}/api/users/1`);
    assert.ok(performance.now() - start < 140, 'a reset restores the latency');
  });

  it('serves msw’s worker from the root', async () => {
    const worker = await fetch(`${base}/mockServiceWorker.js`);
    assert.equal(worker.status, 200);
    assert.match(await worker.text(), /INTEGRITY_CHECKSUM/);
  });
});
