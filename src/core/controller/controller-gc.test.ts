import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Controller } from './controller.js';
import { ExpiryStatus } from '../protocol/types.js';
import { flush } from './test-utils/fake-fetch.js';
import { fakeEndpoint } from './test-utils/fake-endpoint.js';
import { FakeClock } from './test-utils/fake-clock.js';
import { Todo, todoEndpoints } from './test-utils/entities.js';
import { failOnUnhandledRejection, setup } from './test-utils/harness.js';

failOnUnhandledRejection();

const todoIds = (controller: Controller) =>
  Object.keys(controller.getState().entities.Todo ?? {}).sort();

describe('garbage collection', () => {
  it('is on by default (5 minutes) and drops a result nobody subscribes to', () => {
    const { controller, clock } = setup();
    const { get } = todoEndpoints();
    controller.setResponse(get, { id: '1' }, { id: '1' });
    clock.advance(5 * 60_000 - 1);
    assert.deepEqual(Object.keys(controller.getState().endpoints), ['GET /todos/1']);
    clock.advance(1);
    assert.deepEqual(controller.getState().endpoints, {});
    assert.deepEqual(controller.getState().meta, {});
    assert.deepEqual(controller.getState().entities, {}, 'then its entities');
    assert.deepEqual(controller.getState().entitiesMeta, {});
    assert.equal(clock.pending, 0, 'nothing left to collect: no timer');
    assert.equal(controller.stats().timers, 0);
  });

  it('drops the tables it empties, also those the store updates in place', () => {
    const { controller, clock } = setup({ gcTime: 1_000 });
    const { get } = todoEndpoints();
    // No getState() before the pass: the store still owns its tables and empties them in place.
    for (const id of ['1', '2', '3']) {
      controller.setResponse(get, { id }, { id, author: { id: `a${id}`, name: id } });
    }
    clock.advance(1_000);
    const state = controller.getState();
    assert.deepEqual(state.endpoints, {});
    assert.deepEqual(state.entities, {}, 'no empty Todo or Author table left behind');
    assert.deepEqual(state.entitiesMeta, {});
  });

  it('keeps subscribed results, and counts gcTime from when the last subscriber left', () => {
    const { controller, clock } = setup({ gcTime: 1_000 });
    const { get } = todoEndpoints();
    const stop = controller.subscribe(get, { id: '1' });
    controller.setResponse(get, { id: '1' }, { id: '1' });
    clock.advance(10_000);
    assert.deepEqual(todoIds(controller), ['1']);
    assert.equal(clock.pending, 0, 'nothing collectable: the timer is off');
    stop();
    clock.advance(999);
    assert.deepEqual(todoIds(controller), ['1']);
    clock.advance(1);
    assert.deepEqual(todoIds(controller), []);
  });

  it('keeps entities another result still references, and drops the rest', () => {
    const { controller, clock } = setup({ gcTime: 1_000 });
    const { get, getList } = todoEndpoints();
    const stop = controller.subscribe(get, { id: '1' });
    controller.setResponse(get, { id: '1' }, { id: '1', author: { id: 'a', name: 'A' } });
    controller.setResponse(getList, {}, [
      { id: '1', author: { id: 'a', name: 'A' } },
      { id: '2', author: { id: 'b', name: 'B' } },
    ]);
    const info = controller.getResponse(get, { id: '1' });
    clock.advance(1_000);
    assert.deepEqual(Object.keys(controller.getState().endpoints), ['GET /todos/1']);
    assert.deepEqual(todoIds(controller), ['1']);
    assert.deepEqual(Object.keys(controller.getState().entities.Author!), ['a']);
    assert.deepEqual(Object.keys(controller.getState().entitiesMeta.Todo!), ['1']);
    assert.equal(controller.getResponse(get, { id: '1' }), info, 'the kept read is untouched');
    stop();
  });

  it('collects entities a subscribed list no longer references', () => {
    const { controller, clock } = setup({ gcTime: 1_000 });
    const { getList } = todoEndpoints();
    const stop = controller.subscribe(getList, {});
    controller.setResponse(getList, {}, [{ id: '1' }, { id: '2' }]);
    controller.setResponse(getList, {}, [{ id: '2' }, { id: '3' }]);
    clock.advance(1_000);
    assert.deepEqual(todoIds(controller), ['2', '3']);
    stop();
  });

  it('never collects a result while its request is in flight', async () => {
    const { controller, clock, server } = setup({ gcTime: 1_000 });
    const { get } = todoEndpoints();
    controller.setResponse(get, { id: '1' }, { id: '1', title: 'a' });
    const refetch = controller.fetch(get, { id: '1' });
    clock.advance(5_000);
    assert.deepEqual(todoIds(controller), ['1']);
    server.take().respond(200, { id: '1', title: 'b' });
    await refetch;
    clock.advance(999);
    assert.deepEqual(todoIds(controller), ['1']);
    clock.advance(1);
    assert.deepEqual(todoIds(controller), []);
  });

  it('keeps what a pending optimistic update reads', async () => {
    const { controller, clock, server } = setup({ gcTime: 1_000 });
    const { get, update } = todoEndpoints({ optimistic: true });
    controller.setResponse(get, { id: '1' }, { id: '1', title: 'a' });
    const promise = controller.fetch(update, { id: '1' }, { title: 'b' });
    clock.advance(1_000);
    assert.deepEqual(controller.getState().endpoints, {}, 'the unused read is gone');
    assert.deepEqual(todoIds(controller), ['1'], 'the entity the update reads stays');
    server.take().fail();
    await assert.rejects(promise);
    clock.advance(1_000);
    assert.deepEqual(todoIds(controller), []);
    assert.equal(clock.pending, 0);
  });

  it('arms no timer for an empty store', () => {
    const { clock, controller } = setup();
    assert.equal(clock.pending, 0);
    assert.equal(controller.stats().timers, 0);
  });

  it('gcTime: Infinity keeps everything and never arms a timer', () => {
    const { controller, clock } = setup({ gcTime: Infinity });
    controller.setResponse(todoEndpoints().get, { id: '1' }, { id: '1' });
    assert.equal(clock.pending, 0);
  });

  it('keeps a long-running page bounded', async () => {
    const { controller, clock, server } = setup({ gcTime: 1_000 });
    const feed = fakeEndpoint({ path: '/feed', schema: [Todo], pollFrequency: 100 });
    const stop = controller.subscribe(feed);
    let sizes = 0;
    for (let i = 0; i < 500; i++) {
      clock.advance(100);
      // Each poll brings new entities and drops the old ones; the mutations add results.
      server.take().respond(200, [{ id: `a${i}` }, { id: `b${i}` }]);
      const mutation = controller.fetch(todoEndpoints().update, { id: `a${i}` }, {});
      server.take().respond(200, { id: `a${i}`, title: 'x' });
      await mutation;
      sizes = Math.max(sizes, todoIds(controller).length);
    }
    assert.ok(sizes <= 2 * 11 + 2, `at most ~gcTime worth of entities, got ${sizes}`);
    assert.ok(Object.keys(controller.getState().endpoints).length <= 12);
    stop();
    clock.advance(1_000);
    await flush();
    assert.deepEqual(controller.getState().endpoints, {});
    assert.deepEqual(todoIds(controller), []);
    assert.equal(clock.pending, 0);
  });
});

describe('garbage collection of a restored state', () => {
  it('keeps entities of results it cannot read yet, then collects normally', () => {
    const { controller: first } = setup();
    const { get, getList } = todoEndpoints();
    first.setResponse(get, { id: '1' }, { id: '1' });
    first.setResponse(getList, {}, [{ id: '1' }, { id: '2' }]);
    const clock = new FakeClock();
    const controller = new Controller({
      initialState: JSON.parse(JSON.stringify(first.getState())),
      now: clock.now,
      timers: clock.timers,
      gcTime: 1_000,
    });
    // One read is claimed: its schema is now known. The other (the list) is not.
    const stop = controller.subscribe(get, { id: '1' });
    clock.advance(999);
    assert.deepEqual(todoIds(controller), ['1', '2']);
    clock.advance(1);
    // The list was never claimed: dropped after gcTime; now every remaining result is readable.
    assert.deepEqual(Object.keys(controller.getState().endpoints), ['GET /todos/1']);
    assert.deepEqual(todoIds(controller), ['1']);
    assert.equal(controller.getResponse(get, { id: '1' }).expiryStatus, ExpiryStatus.Valid);
    stop();
  });
});
