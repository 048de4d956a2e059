import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Controller } from './controller.js';
import { ExpiryStatus } from '../protocol/types.js';
import { fakeEndpoint } from './test-utils/fake-endpoint.js';
import { flush } from './test-utils/fake-fetch.js';
import { Todo, todoEndpoints } from './test-utils/entities.js';
import { failOnUnhandledRejection, setup } from './test-utils/harness.js';

failOnUnhandledRejection();

describe('Controller.fetch', () => {
  it('commits the normalized response and resolves with Entity instances', async () => {
    const { controller, server } = setup();
    const { get } = todoEndpoints();
    const promise = controller.fetch(get, { id: '1' });
    server
      .take('GET /todos/1')
      .respond(200, { id: '1', title: 'a', author: { id: 'u', name: 'U' } });
    const todo = (await promise) as Todo;
    assert.ok(todo instanceof Todo);
    assert.equal(todo.title, 'a');
    assert.equal(todo.author?.name, 'U');
    assert.deepEqual(controller.getState().endpoints, { 'GET /todos/1': '1' });
    assert.deepEqual(controller.getState().entities.Author, { u: { id: 'u', name: 'U' } });
    const info = controller.getResponse(get, { id: '1' });
    assert.equal(info.data, todo, 'the read is the object fetch resolved with');
    assert.equal(info.expiryStatus, ExpiryStatus.Valid);
    assert.equal(info.error, undefined);
  });

  it('sends one request for N identical concurrent GETs', async () => {
    const { controller, server } = setup();
    const { get } = todoEndpoints();
    // Same key: key order and 1 vs '1' do not matter.
    const promises = [
      controller.fetch(get, { id: '1', a: 1, b: 2 }),
      controller.fetch(get, { id: 1, b: '2', a: '1' }),
      controller.fetch(get, { id: '1', a: 1, b: 2 }),
      controller.fetchIfStale(get, { id: '1', a: 1, b: 2 }),
    ];
    assert.equal(promises[3], undefined, 'fetchIfStale does nothing while it is in flight');
    assert.equal(server.calls.length, 1);
    assert.equal(controller.stats().inFlight, 1);
    server.take().respond(200, { id: '1', title: 'a' });
    const values = await Promise.all(promises.slice(0, 3));
    assert.equal(values[0], values[1]);
    assert.equal(values[1], values[2]);
    assert.equal(controller.stats().inFlight, 0);
    // Settled: the next fetch is a new request.
    const again = controller.fetch(get, { id: '1', a: 1, b: 2 });
    assert.equal(server.calls.length, 2);
    server.take().respond(200, { id: '1', title: 'a' });
    await again;
  });

  it('never merges mutations, even identical ones', async () => {
    const { controller, server } = setup();
    const { create } = todoEndpoints();
    const first = controller.fetch(create, {}, { title: 'x' });
    const second = controller.fetch(create, {}, { title: 'x' });
    assert.notEqual(first, second);
    assert.equal(server.waiting.length, 2);
    server.take().respond(201, { id: '1', title: 'x' });
    server.take().respond(201, { id: '2', title: 'x' });
    const [a, b] = (await Promise.all([first, second])) as Todo[];
    assert.deepEqual([a!.id, b!.id], ['1', '2']);
    assert.deepEqual(Object.keys(controller.getState().entities.Todo!).sort(), ['1', '2']);
  });

  it('adds a created entity to the stored list (Collection push) and reads it back', async () => {
    const { controller, server } = setup();
    const { getList, create } = todoEndpoints();
    const list = controller.fetch(getList, {});
    server.take('GET /todos').respond(200, [{ id: '1', title: 'a' }]);
    await list;
    const created = controller.fetch(create, {}, { title: 'b' });
    server.take('POST /todos').respond(201, { id: '2', title: 'b' });
    assert.equal(((await created) as Todo).id, '2');
    const todos = controller.getResponse(getList, {}).data as Todo[];
    assert.deepEqual(
      todos.map((todo) => todo.id),
      ['1', '2'],
    );
  });

  it('stores pages of a paginated endpoint on the list they page', async () => {
    const { controller, server } = setup();
    const { getList, getPage } = todoEndpoints();
    const first = controller.fetch(getList, { userId: 1 });
    server.take('GET /todos?userId=1').respond(200, [{ id: '1' }]);
    await first;
    const second = controller.fetch(getPage, { userId: 1, page: 2 });
    server.take('GET /todos?userId=1&page=2').respond(200, [{ id: '2' }]);
    await second;
    assert.deepEqual(Object.keys(controller.getState().endpoints), ['GET /todos?userId=1']);
    const ids = (controller.getResponse(getList, { userId: 1 }).data as Todo[]).map((t) => t.id);
    assert.deepEqual(ids, ['1', '2']);
    // Reading the page endpoint reads the same list.
    assert.equal(
      controller.getResponse(getPage, { userId: 1, page: 2 }).data,
      controller.getResponse(getList, { userId: 1 }).data,
    );
  });

  it('stores a schema-less response as it is and passes its own fetch to run()', async () => {
    const calls: string[] = [];
    const controller = new Controller({
      fetch: async (input) => {
        calls.push(String(input));
        return new Response(JSON.stringify({ ok: true }), { status: 200 });
      },
    });
    const health = fakeEndpoint({ path: '/health' });
    assert.deepEqual(await controller.fetch(health), { ok: true });
    assert.deepEqual(calls, ['/health']);
    assert.deepEqual(controller.getResponse(health).data, { ok: true });
  });

  it('rejects (without throwing synchronously) when the endpoint cannot build its key', async () => {
    const { controller } = setup();
    const broken = Object.assign(fakeEndpoint({ path: '/x' }), {
      key: () => {
        throw new Error('missing id');
      },
    });
    await assert.rejects(controller.fetch(broken), /missing id/);
    assert.equal(controller.fetchIfStale(broken)?.constructor, Promise);
    await flush();
  });
});

describe('Controller.getResponse', () => {
  it('is invalid with no data before the first fetch', () => {
    const { controller } = setup();
    const info = controller.getResponse(todoEndpoints().get, { id: '1' });
    assert.deepEqual(info, {
      data: undefined,
      expiryStatus: ExpiryStatus.Invalid,
      expiresAt: 0,
      error: undefined,
    });
  });

  it('returns the same object while the read is unchanged, a new one when it changes', async () => {
    const { controller, server } = setup();
    const { get } = todoEndpoints();
    const one = controller.fetch(get, { id: '1' });
    const two = controller.fetch(get, { id: '2' });
    server.take('GET /todos/1').respond(200, { id: '1', title: 'a' });
    await one;
    const first = controller.getResponse(get, { id: '1' });
    assert.equal(controller.getResponse(get, { id: '1' }), first);
    // Another key's commit does not change this read.
    server.take('GET /todos/2').respond(200, { id: '2', title: 'b' });
    await two;
    assert.equal(controller.getResponse(get, { id: '1' }), first);
    // Its own entity changing does.
    controller.setResponse(get, { id: '1' }, { id: '1', title: 'changed' });
    const changed = controller.getResponse(get, { id: '1' });
    assert.notEqual(changed, first);
    assert.equal((changed.data as Todo).title, 'changed');
  });

  it('keeps data keyed by __proto__ and constructor as data', () => {
    const { controller } = setup();
    const odd = fakeEndpoint({ path: '/x' });
    for (const key of ['__proto__', 'constructor', 'hasOwnProperty']) {
      const endpoint = Object.assign(fakeEndpoint({ path: '/x' }), { key: () => key });
      assert.equal(controller.getResponse(endpoint).expiryStatus, ExpiryStatus.Invalid);
      controller.setResponse(endpoint, { value: key });
      assert.deepEqual(controller.getResponse(endpoint).data, { value: key });
    }
    assert.equal(Object.getPrototypeOf(controller.getState().endpoints), Object.prototype);
    assert.deepEqual(Object.keys(controller.getState().endpoints).sort(), [
      '__proto__',
      'constructor',
      'hasOwnProperty',
    ]);
    assert.equal(controller.getResponse(odd).expiryStatus, ExpiryStatus.Invalid);
  });
});

describe('Controller listeners', () => {
  it('notifies once per committed change, never for a change that changes nothing', async () => {
    const { controller, server } = setup();
    const { get } = todoEndpoints();
    let calls = 0;
    const remove = controller.addListener(() => calls++);
    assert.equal(controller.stats().listeners, 1);
    const promise = controller.fetch(get, { id: '1' });
    assert.equal(calls, 0, 'starting a request commits nothing');
    server.take().respond(200, { id: '1', title: 'a' });
    await promise;
    assert.equal(calls, 1);
    controller.invalidate(get, { id: '1' });
    assert.equal(calls, 2);
    controller.invalidate(get, { id: '1' });
    controller.invalidate(get, { id: 'never-fetched' });
    assert.equal(calls, 2, 'invalidating what is already invalid changes nothing');
    remove();
    remove();
    controller.setResponse(get, { id: '1' }, { id: '1' });
    assert.equal(calls, 2);
    assert.equal(controller.stats().listeners, 0);
  });

  it('lets a listener commit without others seeing a half-announced change', () => {
    const { controller } = setup();
    const health = fakeEndpoint({ path: '/health' });
    const seen: unknown[] = [];
    controller.addListener(() => {
      if (controller.getResponse(health).data === 1) controller.setResponse(health, 2);
    });
    controller.addListener(() => seen.push(controller.getResponse(health).data));
    controller.setResponse(health, 1);
    // The second listener ran after the nested change: it saw 2, then was told again.
    assert.deepEqual(seen, [2, 2]);
  });
});

describe('Controller writes', () => {
  it('invalidate makes a read unshowable at once; a fetch makes it valid again', async () => {
    const { controller, server } = setup();
    const { get } = todoEndpoints();
    controller.setResponse(get, { id: '1' }, { id: '1', title: 'a' });
    controller.invalidate(get, { id: '1' });
    const info = controller.getResponse(get, { id: '1' });
    assert.equal(info.expiryStatus, ExpiryStatus.Invalid);
    assert.equal(info.data, undefined);
    const refetch = controller.fetchIfStale(get, { id: '1' });
    assert.ok(refetch);
    server.take().respond(200, { id: '1', title: 'b' });
    await refetch;
    assert.equal(controller.getResponse(get, { id: '1' }).expiryStatus, ExpiryStatus.Valid);
  });

  it('invalidateAll invalidates the keys its test accepts', () => {
    const { controller } = setup();
    const { get, getList } = todoEndpoints();
    controller.setResponse(get, { id: '1' }, { id: '1' });
    controller.setResponse(getList, {}, [{ id: '1' }]);
    controller.invalidateAll((key) => key.startsWith('GET /todos/'));
    assert.equal(controller.getResponse(get, { id: '1' }).expiryStatus, ExpiryStatus.Invalid);
    assert.equal(controller.getResponse(getList, {}).expiryStatus, ExpiryStatus.Valid);
  });

  it('setResponse normalizes like a fetch and throws, changing nothing, on a bad response', () => {
    const { controller } = setup();
    const { get } = todoEndpoints();
    controller.setResponse(get, { id: '1' }, { id: '1', title: 'a' });
    const before = controller.getState();
    assert.throws(() => controller.setResponse(get, { id: '2' }, { title: 'no id' }), /pk/);
    assert.equal(controller.getState(), before);
  });

  it('resetEntireStore empties the store', () => {
    const { controller, clock } = setup();
    const { get } = todoEndpoints();
    controller.setResponse(get, { id: '1' }, { id: '1' });
    clock.advance(5);
    controller.resetEntireStore();
    assert.deepEqual(controller.getState(), {
      entities: {},
      entitiesMeta: {},
      endpoints: {},
      meta: {},
      errors: {},
      optimistic: [],
      lastReset: clock.now(),
    });
    assert.equal(controller.getResponse(get, { id: '1' }).expiryStatus, ExpiryStatus.Invalid);
  });
});
