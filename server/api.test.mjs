/* global AbortController, TextDecoderStream */
import { describe, it, before, after, beforeEach, afterEach } from 'node:test';
import { strict as assert } from 'node:assert';
import { createApi } from './api.mjs';

let api;
const call = (method, path, { query, body, headers } = {}) =>
  api.handle({
    method,
    path,
    query,
    headers,
    rawBody:
      body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('demo REST API', () => {
  beforeEach(() => {
    api = createApi();
  });

  it('is seeded deterministically', () => {
    assert.deepEqual(call('GET', '/todos'), createApi().handle({ method: 'GET', path: '/todos' }));
    assert.equal(call('GET', '/todos').body.length, 12);
    assert.equal(call('GET', '/users').body.length, 3);
  });

  it('filters todos by userId and completed', () => {
    const todos = call('GET', '/todos', { query: { userId: '2', completed: 'true' } }).body;
    assert.ok(todos.length > 0);
    assert.ok(todos.every((todo) => todo.userId === 2 && todo.completed === true));
  });

  it('creates, reads, replaces, patches and deletes a todo', () => {
    const created = call('POST', '/todos', { body: { title: 'New', userId: 1 } });
    assert.equal(created.status, 201);
    assert.deepEqual(created.body, { id: '13', title: 'New', userId: 1, completed: false });
    assert.deepEqual(call('GET', '/todos/13').body, created.body);
    assert.equal(
      call('PUT', '/todos/13', { body: { title: 'Put', userId: 2, completed: true } }).body.title,
      'Put',
    );
    assert.deepEqual(call('PATCH', '/todos/13', { body: { completed: false } }).body, {
      id: '13',
      title: 'Put',
      userId: 2,
      completed: false,
    });
    assert.equal(call('DELETE', '/todos/13').status, 204);
    assert.equal(call('GET', '/todos/13').status, 404);
  });

  it('answers bad JSON and bad fields with 400 and a JSON error', () => {
    assert.deepEqual(call('POST', '/todos', { body: '{nope' }), {
      status: 400,
      body: { error: 'The body is not valid JSON.' },
    });
    assert.match(
      call('POST', '/todos', { body: { title: 'x' } }).body.error,
      /"userId" is required/,
    );
    assert.match(
      call('PATCH', '/todos/1', { body: { completed: 'yes' } }).body.error,
      /"completed" must be a boolean/,
    );
    assert.match(
      call('PATCH', '/todos/1', { body: { owner: 1 } }).body.error,
      /Unknown field "owner"/,
    );
    assert.match(call('POST', '/todos', { body: [1] }).body.error, /must be a JSON object/);
  });

  it('answers unknown ids and routes with 404, wrong methods with 405', () => {
    assert.deepEqual(call('GET', '/users/99'), {
      status: 404,
      body: { error: 'No user with id "99".' },
    });
    assert.equal(call('GET', '/nothing/here/at/all').status, 404);
    assert.equal(call('DELETE', '/users').status, 405);
  });

  it('pages posts per group, five at a time', () => {
    const first = call('GET', '/news/posts').body;
    const third = call('GET', '/news/posts', { query: { page: '3' } }).body;
    assert.equal(first.length, 5);
    assert.equal(third.length, 2);
    assert.ok(first.every((post) => post.group === 'news'));
    assert.equal(call('GET', '/news/posts', { query: { page: '0' } }).status, 400);
    assert.equal(call('GET', `/news/posts/${first[0].id}`).body.title, first[0].title);
    assert.equal(call('GET', `/tech/posts/${first[0].id}`).status, 404);
    assert.equal(call('GET', '/sports/posts').status, 404);
  });

  it('searches post titles with q, any case, before paging', () => {
    const titles = (query) => call('GET', '/tech/posts', { query }).body.map((post) => post.title);
    assert.deepEqual(titles({ q: 'POST 1' }), [
      'Tech post 1',
      'Tech post 10',
      'Tech post 11',
      'Tech post 12',
    ]);
    assert.deepEqual(titles({ q: '1', page: '2' }), []);
    assert.deepEqual(titles({ q: 'none' }), []);
  });

  it('fails on demand, then succeeds', () => {
    call('POST', '/unstable/fail', { body: { times: 2 } });
    assert.equal(call('GET', '/unstable').status, 503);
    assert.equal(call('GET', '/unstable').status, 503);
    assert.equal(call('GET', '/unstable').status, 200);
  });

  it('fails only the requests of the page that asked (its Demo-Client header)', () => {
    const asking = { 'demo-client': 'page-a' };
    call('POST', '/unstable/fail', { body: { times: 2 }, headers: asking });
    assert.equal(call('GET', '/unstable', { headers: { 'demo-client': 'page-b' } }).status, 200);
    assert.equal(call('GET', '/unstable').status, 200, 'a request that names no page');
    assert.equal(call('GET', '/unstable', { headers: asking }).status, 503);
    assert.deepEqual(call('GET', '/unstable/stats', { headers: asking }).body, {
      hits: 3,
      failNext: 1,
    });
    assert.deepEqual(call('GET', '/unstable/stats').body, { hits: 3, failNext: 0 });
    assert.equal(call('GET', '/unstable', { headers: asking }).status, 503);
    assert.equal(call('GET', '/unstable', { headers: asking }).status, 200);
  });

  it('keeps the failures queued by the latest 100 pages, not by every page ever seen', () => {
    for (let page = 0; page <= 100; page++) {
      call('POST', '/unstable/fail', {
        body: { times: 1 },
        headers: { 'demo-client': `p${page}` },
      });
    }
    assert.equal(call('GET', '/unstable', { headers: { 'demo-client': 'p0' } }).status, 200);
    assert.equal(call('GET', '/unstable', { headers: { 'demo-client': 'p1' } }).status, 503);
    assert.equal(call('GET', '/unstable', { headers: { 'demo-client': 'p100' } }).status, 503);
  });

  it('ticks a clock for polling', () => {
    assert.equal(call('GET', '/clock').body.ticks, 1);
    assert.equal(call('GET', '/clock').body.ticks, 2);
  });

  it('requires an Access-Token header on /me', () => {
    assert.equal(call('GET', '/me').status, 401);
    assert.equal(call('GET', '/me', { headers: { 'access-token': 'abc' } }).body.token, 'abc');
  });

  it('counts /unstable requests and pending failures without counting itself', () => {
    call('POST', '/unstable/fail', { body: { times: 1 } });
    call('GET', '/unstable');
    assert.deepEqual(call('GET', '/unstable/stats').body, { hits: 1, failNext: 0 });
    call('GET', '/unstable');
    assert.deepEqual(call('GET', '/unstable/stats').body, { hits: 2, failNext: 0 });
  });

  it('changes its latency on POST /__latency until a reset', () => {
    api = createApi({ latency: 25 });
    assert.equal(api.latency, 25);
    assert.deepEqual(call('POST', '/__latency', { body: { ms: 200 } }).body, { latency: 200 });
    assert.equal(api.latency, 200);
    assert.equal(call('POST', '/__latency', { body: { ms: -1 } }).status, 400);
    assert.equal(call('POST', '/__latency', { body: {} }).status, 400);
    assert.equal(api.latency, 200);
    call('POST', '/__reset');
    assert.equal(api.latency, 25);
  });

  it('adds many todos for one user on POST /__fill until a reset', () => {
    const { body } = call('POST', '/__fill', { body: { userId: 9, count: 1000 } });
    const listed = call('GET', '/todos', { query: { userId: '9' } }).body;
    assert.equal(listed.length, 1000);
    assert.equal(listed[0].id, body.first);
    assert.equal(listed[999].id, body.last);
    assert.equal(call('POST', '/__fill', { body: { userId: 9, count: 0 } }).status, 400);
    assert.equal(call('POST', '/__fill', { body: { count: 3 } }).status, 400);
    call('POST', '/__reset');
    assert.equal(call('GET', '/todos', { query: { userId: '9' } }).body.length, 0);
  });

  it('logs the requests it answered until a reset, its own test routes left out', () => {
    call('GET', '/todos', { query: { userId: '1', completed: 'false' } });
    call('PATCH', '/todos/2', { body: { completed: true } });
    call('GET', '/nowhere');
    call('POST', '/__latency', { body: { ms: 0 } });
    assert.deepEqual(
      call('GET', '/__requests').body.map((entry) => `${entry.method} ${entry.path}`),
      ['GET /todos?userId=1&completed=false', 'PATCH /todos/2', 'GET /nowhere'],
    );
    call('POST', '/__reset');
    assert.deepEqual(call('GET', '/__requests').body, []);
  });

  it('resets to the seed', () => {
    call('DELETE', '/todos/1');
    call('POST', '/__reset');
    assert.equal(call('GET', '/todos/1').status, 200);
  });
});

describe('demo REST API: GET /api/events over HTTP', () => {
  let server;
  let base;
  let streams;

  before(async () => {
    const { startDevServer } = await import('@web/dev-server');
    const { middleware } = await import('./middleware.mjs');
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

  beforeEach(() => {
    streams = [];
  });

  afterEach(() => {
    for (const stream of streams) stream.abort();
  });

  /** Opens the stream; `next()` resolves with each event's `{ id, data }` in turn. */
  async function open(headers = {}, query = '') {
    const abort = new AbortController();
    streams.push(abort);
    const response = await fetch(`${base}/api/events${query}`, { headers, signal: abort.signal });
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    const next = async () => {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const fields = {};
          for (const line of block.split('\n')) {
            const colon = line.indexOf(':');
            if (colon <= 0) continue;
            fields[line.slice(0, colon)] = line.slice(colon + 1).trimStart();
          }
          if (fields.data === undefined) continue;
          return { id: fields.id, data: JSON.parse(fields.data) };
        }
        const { value, done } = await reader.read();
        if (done) return undefined;
        buffer += value;
      }
    };
    return { response, next };
  }

  const send = (method, path, body) =>
    fetch(`${base}/api${path}`, {
      method,
      headers: { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it('streams every create, update and delete made through the API, each with an id', async () => {
    const stream = await open();
    assert.equal(stream.response.status, 200);
    assert.match(stream.response.headers.get('content-type'), /^text\/event-stream/);
    const created = await (await send('POST', '/todos', { title: 'Pushed', userId: 1 })).json();
    await send('PATCH', `/todos/${created.id}`, { completed: true });
    await send('DELETE', `/todos/${created.id}`);
    const events = [await stream.next(), await stream.next(), await stream.next()];
    assert.deepEqual(
      events.map((event) => event.data.type),
      ['upsert', 'upsert', 'delete'],
    );
    assert.deepEqual(events[0].data.data, created);
    assert.equal(events[1].data.data.completed, true);
    assert.deepEqual(events[2].data, {
      type: 'delete',
      entity: 'Todo',
      pk: created.id,
      id: events[2].id,
    });
    assert.ok(events.every((event) => event.id && event.data.id === event.id));
    assert.equal(new Set(events.map((event) => event.id)).size, 3);
  });

  it('tells nothing private: no header or token of the writer, no read, only the changed todo as GET shows it', async () => {
    const stream = await open({ 'Access-Token': 'reader-secret' });
    assert.equal(stream.response.headers.get('access-control-allow-origin'), null);
    await fetch(`${base}/api/me`, { headers: { 'Access-Token': 'me-secret' } });
    await fetch(`${base}/api/todos/3`, {
      method: 'PATCH',
      headers: {
        'Content-Type': 'application/json',
        'Access-Token': 'writer-secret',
        Authorization: 'Bearer writer-secret',
        Cookie: 'session=writer-secret',
      },
      body: JSON.stringify({ title: 'Edited' }),
    });
    const event = await stream.next();
    const shown = await (await fetch(`${base}/api/todos/3`)).json();
    assert.deepEqual(event.data, { type: 'upsert', entity: 'Todo', data: shown, id: event.id });
    assert.doesNotMatch(JSON.stringify(event), /secret|Bearer|session/);
  });

  it('logs which page sent each request (GET /api/__requests), not its headers; a reset clears it', async () => {
    await send('POST', '/__reset');
    await fetch(`${base}/api/todos/1`, {
      headers: { Referer: `${base}/some/page.html?q=1`, 'Access-Token': 'secret' },
    });
    const log = await (await fetch(`${base}/api/__requests`)).json();
    assert.deepEqual(log, [{ method: 'GET', path: '/todos/1', from: '/some/page.html' }]);
    await send('POST', '/__reset');
    assert.deepEqual(await (await fetch(`${base}/api/__requests`)).json(), []);
  });

  it('replays what followed Last-Event-ID (header or query), and says "gap" when it cannot', async () => {
    const first = await open();
    await send('PATCH', '/todos/2', { title: 'One' });
    const seen = await first.next();
    first.response.body.cancel().catch(() => {});
    await send('PATCH', '/todos/2', { title: 'Two' });
    await send('PATCH', '/todos/2', { title: 'Three' });

    const resumed = await open({ 'Last-Event-ID': seen.id });
    assert.deepEqual(
      [(await resumed.next()).data.data.title, (await resumed.next()).data.data.title],
      ['Two', 'Three'],
    );
    const byQuery = await open({}, `?lastEventId=${encodeURIComponent(seen.id)}`);
    assert.equal((await byQuery.next()).data.data.title, 'Two');

    const stats = await (await fetch(`${base}/api/__events`)).json();
    assert.deepEqual(stats.resumes.slice(-2), [seen.id, seen.id]);

    const unknown = await open({ 'Last-Event-ID': 'another-run-5' });
    assert.deepEqual((await unknown.next()).data, { type: 'gap' });
  });

  it('ends open streams on POST /api/__events/drop and counts none afterwards', async () => {
    const stream = await open();
    assert.equal((await (await fetch(`${base}/api/__events`)).json()).open >= 1, true);
    await send('POST', '/__events/drop');
    assert.equal(await stream.next(), undefined);
    assert.equal((await (await fetch(`${base}/api/__events`)).json()).open, 0);
  });
});

describe('demo REST API: event log', () => {
  it('keeps a bounded history and reports a gap beyond it', async () => {
    const { createEventLog } = await import('./events.mjs');
    const log = createEventLog({ history: 2 });
    const ids = [1, 2, 3].map((n) => log.emit({ type: 'upsert', entity: 'Todo', data: { n } }));
    assert.deepEqual(
      log.since(ids[1]).map((event) => event.id),
      [ids[2]],
    );
    assert.deepEqual(log.since(ids[2]), []);
    assert.equal(log.since(ids[0]).length, 2);
    log.emit({ type: 'reset' });
    assert.equal(log.since(ids[0]), undefined, 'ids[1] fell out of the history');
    assert.equal(log.since('nonsense'), undefined);
  });

  it('counts every resume and keeps only the latest 20 of their ids', async () => {
    const { createEventLog } = await import('./events.mjs');
    const log = createEventLog();
    for (let n = 1; n <= 50; n++) log.resume(`run-${n}`);
    assert.equal(log.resumed, 50);
    assert.equal(log.resumes.length, 20);
    assert.equal(log.resumes.at(-1), 'run-50');
  });
});
