import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { ExpiryStatus } from '../protocol/types.js';
import { fakeEndpoint } from './test-utils/fake-endpoint.js';
import { flush } from './test-utils/fake-fetch.js';
import { Todo, todoEndpoints } from './test-utils/entities.js';
import { failOnUnhandledRejection, setup } from './test-utils/harness.js';

failOnUnhandledRejection();

/** A GET that is not deduplicated by key (the query differs) but stored on one key. */
// retry: 0 on every endpoint here: these tests order single attempts that fail or succeed; a
// retry would keep a failed request running (its retries are tested in retry.test.ts).
const paged = fakeEndpoint({
  path: '/todos/:id',
  schema: Todo,
  paginationField: 'v',
  retry: 0,
});
const title = (data: unknown) => (data as Todo).title;

describe('late responses', () => {
  it('a response to an older request never overwrites a newer committed one', async () => {
    const { controller, server, clock } = setup();
    const older = controller.fetch(paged, { id: '1', v: 1 });
    clock.advance(10);
    const newer = controller.fetch(paged, { id: '1', v: 2 });
    assert.equal(server.calls.length, 2);
    server.take('GET /todos/1?v=2').respond(200, { id: '1', title: 'new' });
    await newer;
    const committed = controller.getState();
    server.take('GET /todos/1?v=1').respond(200, { id: '1', title: 'old' });
    // The caller of the older request still gets its answer (newer entity values win in it).
    assert.equal(title(await older), 'new');
    assert.equal(controller.getState(), committed, 'nothing was committed');
    assert.equal(title(controller.getResponse(paged, { id: '1' }).data), 'new');
  });

  it('tells events which answer was dropped as outdated, and which was stored', async () => {
    const { controller, server, clock } = setup();
    const settled: [unknown, boolean | undefined][] = [];
    controller.events.subscribe((event) => {
      if (event.type === 'request' && event.phase === 'settle') {
        settled.push([(event.args[0] as { v: number }).v, event.outdated]);
      }
    });
    const older = controller.fetch(paged, { id: '1', v: 1 });
    clock.advance(10);
    const newer = controller.fetch(paged, { id: '1', v: 2 });
    server.take('GET /todos/1?v=2').respond(200, { id: '1', title: 'new' });
    await newer;
    server.take('GET /todos/1?v=1').respond(200, { id: '1', title: 'old' });
    await older;
    assert.deepEqual(settled, [
      [2, undefined],
      [1, true],
    ]);
    // A failure older than stored data is dropped too, and says so.
    const failing = controller.fetch(paged, { id: '1', v: 3 });
    clock.advance(10);
    const newest = controller.fetch(paged, { id: '1', v: 4 });
    server.take('GET /todos/1?v=4').respond(200, { id: '1', title: 'newest' });
    await newest;
    server.take('GET /todos/1?v=3').respond(404, { message: 'gone' });
    await assert.rejects(failing);
    assert.deepEqual(settled.slice(2), [
      [4, undefined],
      [3, true],
    ]);
    assert.equal(controller.getResponse(paged, { id: '1' }).error, undefined);
  });

  it('orders requests started in the same millisecond by when they started', async () => {
    const { controller, server } = setup();
    const older = controller.fetch(paged, { id: '1', v: 1 });
    const newer = controller.fetch(paged, { id: '1', v: 2 });
    server.take('GET /todos/1?v=2').respond(200, { id: '1', title: 'new' });
    await newer;
    server.take('GET /todos/1?v=1').respond(200, { id: '1', title: 'old' });
    await older;
    assert.equal(title(controller.getResponse(paged, { id: '1' }).data), 'new');
  });

  it('an older response arriving first is committed, then replaced by the newer', async () => {
    const { controller, server, clock } = setup();
    const older = controller.fetch(paged, { id: '1', v: 1 });
    clock.advance(1);
    const newer = controller.fetch(paged, { id: '1', v: 2 });
    server.take('GET /todos/1?v=1').respond(200, { id: '1', title: 'old' });
    await older;
    assert.equal(title(controller.getResponse(paged, { id: '1' }).data), 'old');
    server.take('GET /todos/1?v=2').respond(200, { id: '1', title: 'new' });
    await newer;
    assert.equal(title(controller.getResponse(paged, { id: '1' }).data), 'new');
  });

  it('an error of an older request does not replace newer data, and its caller still sees it', async () => {
    const { controller, server } = setup();
    const older = controller.fetch(paged, { id: '1', v: 1 });
    const newer = controller.fetch(paged, { id: '1', v: 2 });
    server.take('GET /todos/1?v=2').respond(200, { id: '1', title: 'new' });
    await newer;
    server.take('GET /todos/1?v=1').respond(500);
    await assert.rejects(older, { status: 500 });
    assert.equal(controller.getError(paged, { id: '1' }), undefined);
    assert.deepEqual(controller.getState().errors, {});
  });

  it('older data arriving after a newer failed attempt is committed, under the newer error', async () => {
    const { controller, server } = setup();
    const older = controller.fetch(paged, { id: '1', v: 1 });
    const newer = controller.fetch(paged, { id: '1', v: 2 });
    server.take('GET /todos/1?v=2').respond(500);
    await assert.rejects(newer);
    server.take('GET /todos/1?v=1').respond(200, { id: '1', title: 'old' });
    await older;
    const info = controller.getResponse(paged, { id: '1' });
    assert.equal(title(info.data), 'old');
    assert.ok(info.error, 'the newest attempt failed, and that stays visible');
  });

  it('two creates to one URL both land (mutations are not ordered by key)', async () => {
    const { controller, server } = setup();
    const { getList, create } = todoEndpoints({ retry: 0 });
    controller.setResponse(getList, {}, []);
    const first = controller.fetch(create, {}, { title: 'a' });
    const second = controller.fetch(create, {}, { title: 'b' });
    server.waiting[1]!.respond(201, { id: '2', title: 'b' });
    await flush();
    server.waiting[0]!.respond(201, { id: '1', title: 'a' });
    await Promise.all([first, second]);
    const ids = (controller.getResponse(getList, {}).data as Todo[]).map((todo) => todo.id);
    assert.deepEqual(ids, ['2', '1']);
  });

  it('a list requested before a create (same millisecond) answered after it keeps the created item', async () => {
    // A list shown while it refreshes (a poll, a revalidation): the user creates a todo, the
    // create answers first, then the list that left before the create arrives without it.
    const { controller, server } = setup();
    const { getList, create } = todoEndpoints({ retry: 0 });
    controller.setResponse(getList, [{ id: '1', title: 'a' }]);
    const refresh = controller.refetch(getList);
    const made = controller.fetch(create, {}, { title: 'b' });
    server.take('POST /todos').respond(201, { id: '2', title: 'b' });
    await made;
    server.take('GET /todos').respond(200, [{ id: '1', title: 'a (refreshed)' }]);
    await refresh;
    const list = controller.getResponse(getList).data as Todo[];
    assert.deepEqual(
      list.map((todo) => todo.id),
      ['1', '2'],
    );
    assert.equal(list[0]!.title, 'a (refreshed)', 'its entity values still land');
    // A list requested after the create replaces the list as usual.
    const later = controller.refetch(getList);
    server.take('GET /todos').respond(200, [{ id: '2', title: 'b' }]);
    await later;
    assert.deepEqual(
      (controller.getResponse(getList).data as Todo[]).map((todo) => todo.id),
      ['2'],
    );
  });
});

describe('invalidate and requests in flight', () => {
  it('an answer to a request started before invalidate() does not make the read valid again', async () => {
    // A mutation elsewhere invalidates a list while a reload of it is on its way: that reload
    // left before the change and must not be shown as the list after it.
    const { controller, server } = setup();
    const { getList } = todoEndpoints({ retry: 0 });
    controller.setResponse(getList, [{ id: '1', title: 'before' }]);
    const reader = controller.observe(getList);
    const stop = reader.subscribe(() => {});
    const reload = controller.refetch(getList);
    controller.invalidate(getList);
    await flush();
    assert.equal(server.calls.length, 2, 'the reader asks again at once');
    server.take().respond(200, [{ id: '1', title: 'before' }]);
    assert.equal(
      title(((await reload) as Todo[])[0]),
      'before',
      'its caller still gets its answer',
    );
    assert.equal(reader.result.status, 'pending');
    assert.equal(controller.getResponse(getList).expiryStatus, ExpiryStatus.Invalid);
    server.take().respond(200, [{ id: '1', title: 'after' }]);
    await flush();
    assert.equal(reader.result.status, 'complete');
    assert.equal(title((reader.result.data as Todo[])[0]), 'after');
    stop();
  });

  it('a background read in flight at invalidateAll() is aborted and sent again', async () => {
    const { controller, server, clock } = setup();
    const { getList } = todoEndpoints({ retry: 0 });
    controller.setResponse(getList, [{ id: '1', title: 'before' }]);
    clock.advance(120_000);
    const reader = controller.observe(getList);
    const stop = reader.subscribe(() => {});
    assert.equal(server.calls.length, 1, 'stale: fetched again in the background');
    controller.invalidateAll((key) => key.startsWith('GET /todos'));
    await flush();
    assert.equal(server.calls[0]!.signal!.aborted, true);
    assert.equal(server.calls.length, 2);
    server.take().respond(200, [{ id: '1', title: 'after' }]);
    await flush();
    assert.equal(title((reader.result.data as Todo[])[0]), 'after');
    assert.equal(reader.result.error, undefined);
    stop();
  });
});

describe('resetEntireStore and requests in flight', () => {
  it('drops a response to a request started before the reset; the caller still gets it', async () => {
    const { controller, server } = setup();
    const { get } = todoEndpoints({ retry: 0 });
    const before = controller.fetch(get, { id: '1' });
    controller.resetEntireStore();
    const empty = controller.getState();
    server.take().respond(200, { id: '1', title: 'stale session' });
    assert.equal(title(await before), 'stale session');
    assert.equal(controller.getState(), empty);
    assert.equal(controller.getResponse(get, { id: '1' }).expiryStatus, ExpiryStatus.Invalid);
  });

  it('a fetch after the reset does not join the request from before it', async () => {
    const { controller, server } = setup();
    const { get } = todoEndpoints({ retry: 0 });
    const before = controller.fetch(get, { id: '1' });
    controller.resetEntireStore();
    const after = controller.fetch(get, { id: '1' });
    assert.notEqual(after, before);
    assert.equal(server.calls.length, 2);
    // The new request answers first, then the old one: the old one must not win.
    server.waiting[1]!.respond(200, { id: '1', title: 'new session' });
    await after;
    server.waiting[0]!.respond(200, { id: '1', title: 'old session' });
    await before;
    assert.equal(title(controller.getResponse(get, { id: '1' }).data), 'new session');
    assert.equal(controller.stats().inFlight, 0);
  });

  it('drops errors of requests from before the reset', async () => {
    const { controller, server } = setup();
    const { get } = todoEndpoints({ retry: 0 });
    const before = controller.fetch(get, { id: '1' });
    controller.resetEntireStore();
    server.take().respond(500);
    await assert.rejects(before);
    assert.deepEqual(controller.getState().errors, {});
  });

  it('drops mutations from before the reset too', async () => {
    const { controller, server } = setup();
    const { update } = todoEndpoints({ retry: 0 });
    const before = controller.fetch(update, { id: '1' }, { title: 'x' });
    controller.resetEntireStore();
    const empty = controller.getState();
    server.take().respond(200, { id: '1', title: 'x' });
    await before;
    assert.equal(controller.getState(), empty);
  });
});
