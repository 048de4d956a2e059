import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { ExpiryStatus } from '../protocol/types.js';
import { fakeEndpoint } from './test-utils/fake-endpoint.js';
import type { PendingRequest } from './test-utils/fake-fetch.js';
import { flush } from './test-utils/fake-fetch.js';
import { Todo, todoEndpoints } from './test-utils/entities.js';
import { failOnUnhandledRejection, setup, withoutErrors } from './test-utils/harness.js';

// Every test here would also fail the file if any rejection went unhandled.
failOnUnhandledRejection();

const failures: [string, (request: PendingRequest) => void, RegExp | object][] = [
  ['a 4xx response', (r) => r.respond(404, { message: 'not found' }), { status: 404 }],
  ['a 5xx response', (r) => r.respond(503, { message: 'down' }), { status: 503 }],
  ['a network error', (r) => r.fail(), /Failed to fetch/],
  ['a body that is not JSON', (r) => r.respondText(200, '<html>oops'), /not JSON/],
  ['a response that does not fit the schema', (r) => r.respond(200, { title: 'no id' }), /pk/],
];

describe('failures leave the store as it was', () => {
  for (const [name, answer, expected] of failures) {
    it(`${name}: data and entities unchanged, error readable, caller rejected`, async () => {
      const { controller, server } = setup();
      const { get, getList } = todoEndpoints();
      controller.setResponse(get, { id: '1' }, { id: '1', title: 'kept' });
      controller.setResponse(getList, {}, [{ id: '1' }, { id: '2', title: 'other' }]);
      const before = controller.getState();
      const shownBefore = controller.getResponse(get, { id: '1' }).data;
      const promise = controller.fetch(get, { id: '1' });
      answer(server.take());
      await assert.rejects(promise, expected);
      const after = controller.getState();
      assert.deepEqual(withoutErrors(after), withoutErrors(before));
      assert.equal(after.entities, before.entities, 'the entity tables are the same objects');
      assert.equal(after.endpoints, before.endpoints);
      const info = controller.getResponse(get, { id: '1' });
      assert.equal(info.data, shownBefore, 'the data shown before is still shown');
      assert.equal(info.expiryStatus, ExpiryStatus.Valid);
      assert.ok(info.error instanceof Error);
      assert.equal(controller.getError(get, { id: '1' }), info.error);
      assert.equal(controller.stats().inFlight, 0);
    });

    it(`${name} on a first fetch: nothing stored but the error`, async () => {
      const { controller, server } = setup();
      const { get } = todoEndpoints();
      const promise = controller.fetch(get, { id: '9' });
      answer(server.take());
      await assert.rejects(promise, expected);
      const { errors, ...rest } = controller.getState();
      assert.deepEqual(rest, { ...withoutErrors(setup().controller.getState()) });
      assert.deepEqual(Object.keys(errors), ['GET /todos/9']);
      const info = controller.getResponse(get, { id: '9' });
      assert.equal(info.expiryStatus, ExpiryStatus.Invalid);
      assert.ok(info.error instanceof Error);
    });
  }

  it('a failing mutation leaves entities and lists exactly as they were', async () => {
    const { controller, server } = setup();
    const { getList, create, update } = todoEndpoints();
    controller.setResponse(getList, {}, [{ id: '1', title: 'a' }]);
    const before = controller.getState();
    const creating = controller.fetch(create, {}, { title: 'b' });
    const updating = controller.fetch(update, { id: '1' }, { title: 'c' });
    server.take('POST /todos').respond(422, { message: 'invalid' });
    server.take('PATCH /todos/1').fail();
    await assert.rejects(creating, { status: 422 });
    await assert.rejects(updating);
    assert.deepEqual(withoutErrors(controller.getState()), withoutErrors(before));
    assert.ok(controller.getError(create, {}, { title: 'b' }));
  });

  it('an endpoint whose run() throws synchronously rejects like any failure', async () => {
    const { controller } = setup();
    const broken = Object.assign(fakeEndpoint({ path: '/x' }), {
      run: () => {
        throw new Error('sync failure');
      },
    });
    await assert.rejects(controller.fetch(broken), /sync failure/);
    assert.ok(controller.getError(broken));
  });
});

describe('background requests never reject unhandled', () => {
  it('fetchIfStale whose promise nobody awaits', async () => {
    const { controller, server } = setup();
    const { get } = todoEndpoints();
    controller.fetchIfStale(get, { id: '1' });
    server.take().respond(500);
    await flush();
    assert.ok(controller.getError(get, { id: '1' }));
  });

  it('polling and revalidation', async () => {
    const { controller, server, clock } = setup({ gcTime: Infinity });
    const polled = fakeEndpoint({ path: '/p', pollFrequency: 100 });
    const stop = controller.subscribe(polled);
    clock.advance(100);
    server.take().fail();
    await flush();
    controller.focus();
    server.take().respond(400);
    await flush();
    controller.offline();
    controller.online();
    server.take().respondText(200, 'nope');
    await flush();
    assert.equal(server.calls.length, 3);
    stop();
    assert.equal(clock.pending, 0);
  });

  it('a fetch whose caller drops the promise rejects only for that caller', async () => {
    const { controller, server } = setup();
    const { get } = todoEndpoints();
    // The caller handles it; identical readers joining the same request get the same promise.
    const promise = controller.fetch(get, { id: '1' });
    const joined = controller.fetch(get, { id: '1' });
    assert.equal(joined, promise);
    server.take().respond(500);
    await assert.rejects(promise);
  });
});

describe('a getOptimisticResponse that throws', () => {
  it('applies nothing, reports once, and the request still runs', async (t) => {
    const { controller, server } = setup();
    const errors: unknown[] = [];
    t.mock.method(console, 'error', (...args: unknown[]) => void errors.push(args));
    const buggy = fakeEndpoint({
      path: '/todos/:id',
      method: 'PATCH',
      schema: Todo,
      getOptimisticResponse: () => {
        throw new Error('bug');
      },
    });
    const before = controller.getState();
    const promise = controller.fetch(buggy, { id: '1' }, {});
    controller.setResponse(todoEndpoints().get, { id: '2' }, { id: '2' }); // replays again
    assert.equal(errors.length, 1);
    assert.deepEqual(controller.getState().entities, {
      Todo: { '2': { id: '2' } },
    });
    server.take().respond(200, { id: '1' });
    await promise;
    assert.notEqual(controller.getState(), before);
  });
});
