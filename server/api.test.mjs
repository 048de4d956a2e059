import { describe, it, beforeEach } from 'node:test';
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

  it('fails on demand, then succeeds', () => {
    call('POST', '/unstable/fail', { body: { times: 2 } });
    assert.equal(call('GET', '/unstable').status, 503);
    assert.equal(call('GET', '/unstable').status, 503);
    assert.equal(call('GET', '/unstable').status, 200);
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

  it('logs the requests it answered until a reset, its own test routes left out', () => {
    call('GET', '/todos', { query: { userId: '1', completed: 'false' } });
    call('PATCH', '/todos/2', { body: { completed: true } });
    call('GET', '/nowhere');
    call('POST', '/__latency', { body: { ms: 0 } });
    assert.deepEqual(call('GET', '/__requests').body, [
      'GET /todos?userId=1&completed=false',
      'PATCH /todos/2',
      'GET /nowhere',
    ]);
    call('POST', '/__reset');
    assert.deepEqual(call('GET', '/__requests').body, []);
  });

  it('resets to the seed', () => {
    call('DELETE', '/todos/1');
    call('POST', '/__reset');
    assert.equal(call('GET', '/todos/1').status, 200);
  });
});
