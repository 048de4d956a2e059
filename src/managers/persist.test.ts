// PersistManager against an in-memory storage (IndexedDB itself is covered by the browser tests).
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { PersistManager } from './persist.js';
import type { PersistedRecord } from './persist.js';
import type { PersistStorage } from './storage.js';
import {
  Item,
  ItemResource,
  consoleErrors,
  flush,
  loaded,
  memoryStorage,
  names,
  prefix,
} from './test-utils/harness.js';
import { failOnUnhandledRejection, setup } from '../core/controller/test-utils/harness.js';
import { FakeClock } from '../core/controller/test-utils/fake-clock.js';
import { FakeServer } from '../core/controller/test-utils/fake-fetch.js';
import { createResource } from '../core/index.js';
import { INVALID } from '../core/index.js';
import type { Controller } from '../core/index.js';

failOnUnhandledRejection();

const Optimistic = createResource({
  urlPrefix: prefix,
  path: '/items/:id',
  schema: Item,
  optimistic: true,
});

/** A persist manager on its own fake clock (throttle and restore timeout). */
function persistOn(storage: PersistStorage, options: { buster?: string; maxAge?: number } = {}) {
  // The controllers' fake clocks start at the same time, so saved dates compare as real ones would.
  const clock = new FakeClock();
  const persist = new PersistManager({
    storage,
    throttle: 500,
    timers: clock.timeoutsOnly,
    now: clock.now,
    ...options,
  });
  return { clock, persist };
}

/** A first session: items loaded, then saved (the throttle elapsed). */
async function savedSession(storage: ReturnType<typeof memoryStorage>, buster = 'v1') {
  const { clock, persist } = persistOn(storage, { buster });
  const first = await loaded({ managers: [persist] });
  await persist.restored;
  clock.advance(500);
  await flush();
  first.controller.dispose();
  assert.ok(storage.data.has('default'), 'the first session saved its store');
  return first;
}

function record(storage: ReturnType<typeof memoryStorage>): PersistedRecord {
  return storage.data.get('default') as PersistedRecord;
}

describe('PersistManager', () => {
  it('restores the saved store before the first request goes out, then refreshes it', async () => {
    const storage = memoryStorage();
    await savedSession(storage);
    const { persist } = persistOn(storage, { buster: 'v1' });
    const server = new FakeServer();
    const next = setup({ managers: [persist], fetch: persist.gateFetch(server.fetch) });
    const { controller } = next;
    next.clock.advance(60_000); // a later session: its requests are newer than what was saved
    const list = controller.fetch(ItemResource.getList, {});
    assert.equal(server.calls.length, 0, 'nothing is sent before the restore');
    await persist.restored;
    assert.deepEqual(names(controller), ['one', 'two'], 'the saved list is shown at once');
    await flush();
    assert.equal(server.calls.length, 1, 'the read still goes out, to refresh');
    server.take(`GET ${prefix}/items`).respond(200, [{ id: '1', name: 'fresh' }]);
    await list;
    assert.deepEqual(names(controller), ['fresh']);
    controller.dispose();
  });

  it('a cache with another buster is discarded, not restored', async () => {
    const storage = memoryStorage();
    await savedSession(storage, 'v1');
    const { persist } = persistOn(storage, { buster: 'v2' });
    const { controller } = setup({ managers: [persist] });
    await persist.restored;
    assert.deepEqual(names(controller), []);
    assert.equal(storage.data.has('default'), false, 'the old cache is deleted');
    controller.dispose();
  });

  it('maxAge: a cache written too long ago is discarded; older responses in a kept one are not restored', async () => {
    const storage = memoryStorage();
    await savedSession(storage);
    const saved = record(storage);
    storage.data.set('default', { ...saved, savedAt: saved.savedAt - 2 * 3600_000 });
    let { persist } = persistOn(storage, { buster: 'v1', maxAge: 3600_000 });
    let { controller } = setup({ managers: [persist] });
    await persist.restored;
    assert.deepEqual(names(controller), [], 'a cache older than maxAge is not restored');
    assert.equal(storage.data.has('default'), false);
    controller.dispose();

    // A fresh cache whose list response is old but whose single-item response is recent.
    const listKey = Object.keys(saved.state.meta!).find((key) => key.endsWith('/items'))!;
    const meta = { ...saved.state.meta! };
    meta[listKey] = { ...meta[listKey]!, date: meta[listKey]!.date - 2 * 3600_000 };
    storage.data.set('default', { ...saved, state: { ...saved.state, meta } });
    ({ persist } = persistOn(storage, { buster: 'v1', maxAge: 3600_000 }));
    ({ controller } = setup({ managers: [persist] }));
    await persist.restored;
    assert.equal(controller.getResponse(ItemResource.getList, {}).data, undefined);
    const one = controller.getResponse(ItemResource.get, { id: '1' }).data as { name: string };
    assert.equal(one.name, 'one');
    controller.dispose();
  });

  it('writes at most once per throttle, and only committed changes', async () => {
    const storage = memoryStorage();
    const { clock, persist } = persistOn(storage, { buster: 'v1' });
    const { controller, server } = await loaded({ managers: [persist] });
    await persist.restored;
    clock.advance(500);
    await flush();
    const sets = storage.sets;
    controller.set(ItemResource.get.schema, { id: '1', name: 'a' });
    controller.set(ItemResource.get.schema, { id: '1', name: 'b' });
    controller.set(ItemResource.get.schema, { id: '2', name: 'c' });
    clock.advance(499);
    await flush();
    assert.equal(storage.sets, sets, 'nothing written within the throttle');
    clock.advance(1);
    await flush();
    assert.equal(storage.sets, sets + 1, 'three changes, one write');
    assert.deepEqual(
      Object.values(record(storage).state.entities!.Item!).map(
        (item) => (item as { name: string }).name,
      ),
      ['b', 'c'],
    );

    // An optimistic update is not a reason to write, and is not what gets written.
    const pending = controller.fetch(Optimistic.partialUpdate, { id: '1' }, { name: 'optimistic' });
    assert.deepEqual(names(controller), ['optimistic', 'c'], 'shown optimistically');
    clock.advance(1000);
    await flush();
    assert.equal(storage.sets, sets + 1, 'a pending request wrote nothing');
    server.take(`PATCH ${prefix}/items/1`).respond(200, { id: '1', name: 'committed' });
    await pending;
    clock.advance(500);
    await flush();
    assert.equal(storage.sets, sets + 2);
    const item = record(storage).state.entities!.Item!['1'] as { name: string };
    assert.equal(item.name, 'committed');
    controller.dispose();
  });

  it('follows garbage collection: what the store dropped is gone from storage at the next write', async () => {
    const storage = memoryStorage();
    const { clock, persist } = persistOn(storage, { buster: 'v1' });
    const { controller } = await loaded({ managers: [persist] });
    await persist.restored;
    const listKey = Object.keys(controller.getState().meta).find((key) => key.endsWith('/items'))!;
    controller.dispatch({ type: 'gc', keys: [listKey], entities: [['Item', '2']] });
    clock.advance(500);
    await flush();
    const saved = record(storage).state;
    assert.equal(Object.hasOwn(saved.meta!, listKey), false, 'the dropped response');
    assert.deepEqual(Object.keys(saved.entities!.Item!), ['1'], 'the dropped entity');
    controller.dispose();
  });

  it('a deleted (INVALID) entity is saved and restored as INVALID', async () => {
    const storage = memoryStorage();
    const { clock, persist } = persistOn(storage, { buster: 'v1' });
    const { controller } = await loaded({ managers: [persist] });
    controller.invalidate(ItemResource.get.schema as never, '2');
    await persist.restored;
    clock.advance(500);
    await flush();
    controller.dispose();
    const next = persistOn(storage, { buster: 'v1' });
    const restored = setup({ managers: [next.persist] }).controller;
    await next.persist.restored;
    assert.equal(restored.getState().entities.Item!['2'], INVALID);
    assert.deepEqual(names(restored), ['one'], 'the restored list leaves it out');
    restored.dispose();
  });

  it('leaving with an unsaved change saves it at once', async () => {
    const storage = memoryStorage();
    const { persist } = persistOn(storage, { buster: 'v1' });
    const { controller } = await loaded({ managers: [persist] });
    await persist.restored;
    controller.set(ItemResource.get.schema, { id: '1', name: 'last' });
    controller.dispose();
    await flush();
    assert.equal((record(storage).state.entities!.Item!['1'] as { name: string }).name, 'last');
  });

  it('a reset (a logout) clears the saved store at once, not a throttle later', async () => {
    const storage = memoryStorage();
    const { clock, persist } = persistOn(storage, { buster: 'v1' });
    const { controller } = await loaded({ managers: [persist] });
    await persist.restored;
    clock.advance(500);
    await flush();
    assert.ok(storage.data.has('default'), 'the first user’s data was saved');
    controller.resetEntireStore();
    await flush();
    // A logout usually leaves the page at once (to the login page): no timer runs after this.
    assert.equal(storage.data.has('default'), false, 'nothing of it is left for the next session');
    controller.set(Item, { id: '3', name: 'next user' });
    clock.advance(500);
    await flush();
    assert.deepEqual(Object.keys(record(storage).state.entities!.Item!), ['3'], 'saved as usual');
    controller.dispose();
  });

  it('a reset while the saved store is read: what was saved before it is not merged', async () => {
    const storage = memoryStorage();
    await savedSession(storage);
    let release!: () => void;
    const slow: PersistStorage = {
      ...storage,
      get: (name) => new Promise((resolve) => (release = () => resolve(storage.get(name)))),
    };
    const { persist } = persistOn(slow, { buster: 'v1' });
    const { controller, clock } = setup({ managers: [persist] });
    clock.advance(60_000);
    controller.resetEntireStore(); // a logout (here or in another tab) before IndexedDB answered
    release();
    await persist.restored;
    assert.deepEqual(controller.getState().meta, {}, 'the store stays empty');
    assert.deepEqual(controller.getState().entities, {});
    assert.equal(storage.data.has('default'), false);
    controller.dispose();
  });

  it('storage full: one clear console error, the page works on, nothing more is written', async () => {
    const storage = memoryStorage();
    const { clock, persist } = persistOn(storage, { buster: 'v1' });
    let controller!: Controller;
    const errors = await consoleErrors(async () => {
      ({ controller } = await loaded({ managers: [persist] }));
      await persist.restored;
      storage.fail = new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      clock.advance(500);
      await flush();
      controller.set(ItemResource.get.schema, { id: '1', name: 'again' });
      clock.advance(500);
      await flush();
    });
    assert.equal(errors.length, 1);
    assert.match(
      String(errors[0]![0]),
      /PersistManager "default" could not save the store \(QuotaExceededError: The quota has been exceeded\.\)\. The page works on without a saved cache/,
    );
    assert.equal(storage.sets, 1, 'no write after the failure');
    assert.deepEqual(names(controller), ['again', 'two'], 'the store works on');
    controller.dispose();
  });

  it('a storage that throws instead of rejecting (a localStorage adapter when full) is reported the same way', async () => {
    const storage = memoryStorage();
    const full = () => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
    // Written without async, as a wrapper of a synchronous API is.
    const throwing: PersistStorage = { get: (name) => storage.get(name), set: full, delete: full };
    const { clock, persist } = persistOn(throwing, { buster: 'v1' });
    let controller!: Controller;
    let detached = false;
    const after = { attach: () => () => void (detached = true) };
    const errors = await consoleErrors(async () => {
      ({ controller } = await loaded({ managers: [persist, after] }));
      await persist.restored;
      clock.advance(500);
      await flush();
      controller.set(Item, { id: '1', name: 'unsaved' });
      controller.dispose();
      await flush();
    });
    assert.equal(errors.length, 1, errors.map(String).join('\n'));
    assert.match(String(errors[0]![0]), /could not save the store \(QuotaExceededError: The quota/);
    assert.ok(detached, 'dispose() detached the managers after it');
    assert.deepEqual(names(controller), ['unsaved', 'two']);
  });

  it('a store that structured clone refuses (a field nested 10,000 deep): reported once, the saved copy goes, the next change is saved', async () => {
    const storage = memoryStorage();
    const { clock, persist } = persistOn(storage, { buster: 'v1' });
    let controller!: Controller;
    const deep: Record<string, unknown> = {};
    let level = deep;
    for (let i = 0; i < 10_000; i++) level = level.next = {};
    const errors = await consoleErrors(async () => {
      ({ controller } = await loaded({ managers: [persist] }));
      await persist.restored;
      clock.advance(500);
      await flush();
      assert.ok(storage.data.has('default'), 'saved before');
      controller.set(Item, { id: '3', name: deep as never });
      clock.advance(500);
      await flush();
      assert.equal(storage.data.has('default'), false, 'the older copy is not left to restore');
      controller.set(Item, { id: '4', name: 'also deep' });
      clock.advance(500);
      await flush();
    });
    assert.equal(errors.length, 1, errors.map(String).join('\n'));
    assert.match(
      String(errors[0]![0]),
      /PersistManager "default" could not save the store: the storage refused what it holds \(RangeError: Maximum call stack size exceeded\)\. The saved copy was removed; the next change is saved again\./,
    );
    // The deep value goes: the next save works. Before: nothing was written for the session.
    controller.set(Item, { id: '3', name: 'flat again' });
    clock.advance(500);
    await flush();
    const saved = record(storage).state.entities!.Item! as Record<string, { name: string }>;
    assert.equal(saved['3']!.name, 'flat again');
    assert.equal(saved['4']!.name, 'also deep');
    controller.dispose();
  });

  it('two managers with one name on one storage: the second restores and saves nothing; the name is free once the first leaves', async () => {
    const storage = memoryStorage();
    await savedSession(storage);
    const first = persistOn(storage, { buster: 'v1' });
    const second = persistOn(storage, { buster: 'v1' });
    const other = persistOn(memoryStorage(), { buster: 'v1' });
    let a!: Controller;
    let b!: Controller;
    const errors = await consoleErrors(async () => {
      ({ controller: a } = await loaded({ managers: [first.persist] }));
      const harness = setup({ managers: [second.persist, other.persist] });
      b = harness.controller;
      await second.persist.restored;
      await other.persist.restored;
    });
    assert.equal(errors.length, 1, errors.map(String).join('\n'));
    assert.match(
      String(errors[0]![0]),
      /PersistManager "default": another store on this page is saved under that name, so this one restores and saves nothing .*persist-name attribute or an id\./,
    );
    // Before: the second store took the first one's saved data, and each overwrote the other's.
    assert.deepEqual(names(b), [], 'nothing of the first store restored into the second');
    b.set(Item, { id: '9', name: 'second store' });
    second.clock.advance(500);
    await flush();
    const savedNames = () =>
      Object.values(record(storage).state.entities!.Item!).map(
        (item) => (item as { name: string }).name,
      );
    assert.ok(!savedNames().includes('second store'), 'the second store did not overwrite');
    b.dispose();
    a.dispose();
    // The first left: a new manager may take the name.
    const third = persistOn(storage, { buster: 'v1' });
    const errorsAfter = await consoleErrors(async () => {
      const { controller } = await loaded({ managers: [third.persist] });
      await third.persist.restored;
      controller.dispose();
    });
    assert.deepEqual(errorsAfter, []);
  });

  it('storage unavailable: restored resolves, reads go out, one console error', async () => {
    const storage = memoryStorage();
    storage.fail = new Error('IndexedDB is not available here');
    const { persist } = persistOn(storage, { buster: 'v1' });
    const errors = await consoleErrors(async () => {
      const { controller } = await loaded({ managers: [persist] });
      await persist.restored;
      assert.deepEqual(names(controller), ['one', 'two']);
      controller.dispose();
    });
    assert.equal(errors.length, 1);
    assert.match(
      String(errors[0]![0]),
      /could not read the saved store \(Error: IndexedDB is not available here\)/,
    );
  });

  it('a page where touching indexedDB throws (a sandboxed frame): one console error, the page works', async () => {
    // Some browsers throw a SecurityError from the indexedDB getter itself (opaque origins).
    Object.defineProperty(globalThis, 'indexedDB', {
      configurable: true,
      get() {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      },
    });
    try {
      const errors = await consoleErrors(async () => {
        const persist = new PersistManager({ buster: 'v1' });
        const { controller } = await loaded({ managers: [persist] });
        await persist.restored;
        assert.deepEqual(names(controller), ['one', 'two']);
        controller.dispose();
      });
      assert.equal(errors.length, 1);
      assert.match(
        String(errors[0]![0]),
        /PersistManager "default" could not read the saved store \(SecurityError: The operation is insecure\.\)/,
      );
    } finally {
      delete (globalThis as { indexedDB?: unknown }).indexedDB;
    }
  });

  it('a saved record that is not an object, or holds a null entity, is reported once and discarded', async () => {
    const saved = new FakeClock().now();
    for (const bad of [
      'garbage',
      42,
      {
        buster: 'v1',
        savedAt: saved,
        state: {
          entities: { Item: { '1': null } },
          entitiesMeta: { Item: { '1': { date: saved, fetchedAt: saved } } },
        },
      },
    ]) {
      const storage = memoryStorage();
      storage.data.set('default', bad);
      const { persist } = persistOn(storage, { buster: 'v1' });
      const errors = await consoleErrors(async () => {
        const { controller } = await loaded({ managers: [persist] });
        await persist.restored;
        await flush();
        assert.deepEqual(names(controller), ['one', 'two']);
        controller.dispose();
      });
      assert.equal(errors.length, 1, `${JSON.stringify(bad)}: one error`);
      assert.match(
        String(errors[0]![0]),
        /PersistManager "default" could not restore the saved store, which does not fit; it was discarded \(TypeError: The (saved record|state at entities\["Item"\]\["1"\]) is not an object/,
      );
      assert.ok(record(storage).state.entities!.Item, 'the bad record was replaced by a good one');
    }
  });

  it('a saved record that does not fit is reported, discarded, and the store keeps working', async () => {
    const storage = memoryStorage();
    storage.data.set('default', {
      buster: 'v1',
      savedAt: new FakeClock().now(),
      state: { entities: 'not a table', meta: 5 },
    });
    const { persist } = persistOn(storage, { buster: 'v1' });
    const errors = await consoleErrors(async () => {
      const { controller } = await loaded({ managers: [persist] });
      await persist.restored;
      await flush();
      assert.deepEqual(names(controller), ['one', 'two']);
      controller.dispose();
    });
    assert.equal(errors.length, 1);
    assert.match(String(errors[0]![0]), /could not restore the saved store, which does not fit/);
    assert.ok(record(storage).state.entities!.Item, 'the bad record was replaced by a good one');
  });
});
