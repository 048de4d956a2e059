// Optimistic updates under hostile random traffic: gc, hydrate, reset, invalidateAll, entity
// writes, batches, pushes to collections, entity types only the optimistic response creates, and
// updates that throw. What readers see must be the committed state with the pending updates
// replayed afresh (the same object while nothing changed), and every state getState() handed out
// must stay as it was.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Author, Todo, todoEndpoints, todoList } from './test-utils/entities.js';
import { fakeEndpoint } from './test-utils/fake-endpoint.js';
import { flush } from './test-utils/fake-fetch.js';
import { failOnUnhandledRejection, setup } from './test-utils/harness.js';
import { random } from './test-utils/random.js';
import { Controller } from './controller.js';
import { hydrate } from '../hydration.js';
import { MemoCache } from '../normalize/memo-cache.js';
import { readResponse } from '../store/read-response.js';
import { replay } from '../store/optimistic.js';
import { storeKey } from '../protocol/store-key.js';
import { ValuesSchema } from '../schema/values.js';
import type { StoreState } from '../store/state.js';

failOnUnhandledRejection();

const api = todoEndpoints({ optimistic: true });
const pushOpt = fakeEndpoint({
  path: '/todos',
  method: 'POST',
  schema: todoList.push,
  getOptimisticResponse: (_s, _p: object, body: object) => body,
});
const unshiftOpt = fakeEndpoint({
  path: '/todos',
  method: 'POST',
  name: 'unshift',
  schema: todoList.unshift,
  getOptimisticResponse: (_s, _p: object, body: object) => body,
});
const assign = fakeEndpoint({
  path: '/todos/:id/author',
  method: 'PUT',
  schema: Todo,
  getOptimisticResponse: (snapshot, params: { id: string }, body: { author: string }) => {
    const stored = snapshot.get(Todo, params);
    if (!stored) throw snapshot.abort;
    return { ...stored, author: { id: body.author, name: `author ${body.author}` } };
  },
});
let boomArmed = false;
const boom = fakeEndpoint({
  path: '/boom/:id',
  method: 'PATCH',
  schema: Todo,
  getOptimisticResponse: (_s, params: { id: string }) => {
    if (boomArmed) throw new Error('boom');
    return { id: params.id, title: 'boom' };
  },
});
const byId = new ValuesSchema(Todo);
const getMap = fakeEndpoint({ path: '/map', schema: byId });
const patchMap = fakeEndpoint({
  path: '/map',
  method: 'PATCH',
  schema: byId,
  getOptimisticResponse: (snapshot, _p: object, body: { ids: string[] }) => {
    const out: Record<string, unknown> = {};
    for (const id of body.ids) {
      const stored = snapshot.get(Todo, { id });
      out[id] = stored ? { ...stored, completed: !stored.completed } : { id, title: 'made' };
    }
    return out;
  },
});

/** The first path where two values differ. */
function diff(a: unknown, b: unknown, path = ''): string | undefined {
  if (a === b) return undefined;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null)
    return `${path}: ${String(a)} vs ${String(b)}`;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    const d = diff(
      (a as Record<string, unknown>)[key],
      (b as Record<string, unknown>)[key],
      `${path}.${key}`,
    );
    if (d) return d;
  }
  return undefined;
}

/** A deep copy of plain data (other objects kept as they are). */
function clone(value: unknown, noTimes = false): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => clone(item, noTimes));
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const times = noTimes && (key === 'date' || key === 'expiresAt');
    Object.defineProperty(out, key, {
      value: times ? 0 : clone((value as Record<string, unknown>)[key], noTimes),
      enumerable: true,
    });
  }
  return out;
}

describe('optimistic updates under hostile random traffic', () => {
  for (const gcTime of [Infinity, 5]) {
    it(`visible state = fresh replay, snapshots never change (gcTime ${gcTime})`, async () => {
      const error = console.error;
      console.error = () => {};
      try {
        for (let seed = 1; seed <= 12; seed++) {
          await run(seed, gcTime);
        }
      } finally {
        console.error = error;
      }
    });
  }
});

async function run(seed: number, gcTime: number) {
  const r = random(seed * 7919 + (gcTime === Infinity ? 0 : 1));
  const { controller, server, clock } = setup({ retry: 0, gcTime });
  const other = new Controller({ fetch: server.fetch, now: clock.now, timers: clock.timers });
  const { store } = controller;
  /**
   * The pending updates replayed from scratch over `committed`: each entry's endpoint is that of
   * its request in flight (an entry's id is its request's).
   */
  const freshReplay = (committed: StoreState) => {
    const running = new Map(controller.inFlight().map((request) => [request.id, request]));
    return replay(
      committed,
      (entry) => running.get(entry.id)?.endpoint,
      new MemoCache(),
      clock.now(),
    ).state;
  };
  const id = () => String(r.int(6));
  const todo = (pk: string, step: number) => ({
    id: pk,
    title: `title ${step}`,
    completed: r.int(2) === 1,
    author: r.int(3) === 0 ? { id: `a${r.int(3)}`, name: `n${step}` } : null,
  });
  controller.setResponse(api.getList, {}, [todo('1', 0), todo('2', 0), todo('3', 0)]);
  const settled: Promise<unknown>[] = [];
  const track = (promise: Promise<unknown>) => settled.push(promise.catch(() => {}));
  const snapshots: [StoreState, unknown][] = [];
  const subs: (() => void)[] = [];
  const reads: [unknown, unknown[]][] = [
    [api.getList, [{}]],
    [api.get, [{ id: '1' }]],
    [api.get, [{ id: '2' }]],
    [getMap, [{}]],
  ];
  let changed = true;
  let lastVisible = store.visible;
  let pendingChecks = 0;
  controller.addListener(() => void (changed = true));
  const check = (where: string) => {
    for (const [i, [state, copy]] of snapshots.entries()) {
      const d = diff(clone(state), copy);
      assert.equal(d, undefined, `${where}: snapshot ${i} changed after getState(): ${d}`);
    }
    if (store.committed.optimistic.length > 0) pendingChecks++;
    // The replay stamps what it writes with the time it ran: compare when the store changed.
    // Unchanged, readers keep the very state they had.
    if (!changed) {
      assert.equal(store.visible, lastVisible, `${where}: nothing changed, yet a new state`);
      return;
    }
    changed = false;
    lastVisible = store.visible;
    const committed = store.committed;
    const expected = committed.optimistic.length === 0 ? committed : freshReplay(committed);
    assert.deepEqual(
      clone(store.visible, true),
      clone(expected, true),
      `${where}: visible != fresh replay`,
    );
    const memo = new MemoCache();
    for (const [endpoint, args] of reads) {
      const got = (
        controller.getResponse as (
          e: unknown,
          ...a: unknown[]
        ) => { data: unknown; expiryStatus: unknown }
      )(endpoint, ...args);
      const key = storeKey(endpoint as never, args);
      const want = readResponse(expected, memo, key, endpoint as never, args, clock.now());
      assert.deepEqual(
        got.data,
        want.data,
        `${where}: read ${(endpoint as { name: string }).name}`,
      );
      assert.equal(got.expiryStatus, want.expiryStatus, `${where}: status`);
    }
  };
  for (let step = 1; step <= 160; step++) {
    clock.advance(r.int(4));
    const where = `seed ${seed}, step ${step}`;
    const op = r.int(20);
    switch (op) {
      case 0:
      case 1:
        track(controller.fetch(api.update, { id: id() }, { title: `typed ${step}` }));
        break;
      case 2:
        track(controller.fetch(api.remove, { id: id() }));
        break;
      case 3:
        track(
          controller.fetch(r.int(2) ? pushOpt : unshiftOpt, {}, { id: `n${step}`, title: 'new' }),
        );
        break;
      case 4:
        track(controller.fetch(assign, { id: id() }, { author: `x${r.int(3)}` }));
        break;
      case 5:
        boomArmed = r.int(2) === 0;
        track(controller.fetch(boom, { id: id() }));
        break;
      case 6:
        track(controller.fetch(patchMap, {}, { ids: [id(), id()] }));
        break;
      case 7:
      case 8: {
        const request = r.pick(server.waiting);
        if (!request) break;
        const taken = server.take(`${request.method} ${request.url}`);
        const pk = request.url.split('/')[2] ?? `n${step}`;
        if (r.int(4) === 0) taken.respond(500, { message: 'no' });
        else if (request.url === '/map') {
          const out: Record<string, unknown> = {};
          out[id()] = todo(id(), step);
          taken.respond(200, out);
        } else if (request.method === 'GET' && request.url === '/todos')
          taken.respond(200, [todo('1', step), todo(id(), step)]);
        else if (request.method === 'POST') taken.respond(200, todo(`n${step}`, step));
        else if (request.method === 'DELETE') taken.respond(200, { id: pk });
        else taken.respond(200, todo(pk, step));
        break;
      }
      case 9:
        controller.setResponse(api.get, { id: id() }, todo(id(), step));
        break;
      case 10:
        if (r.int(2)) controller.invalidate(api.get, { id: id() });
        else controller.invalidateAll((key) => key.includes('todos') && r.int(2) === 0);
        break;
      case 11: {
        const state = controller.getState();
        snapshots.push([state, clone(state)]);
        break;
      }
      case 12: {
        // gc of random responses and entities, as the reducer allows
        const c = store.committed;
        const keys = Object.keys(c.meta).filter(() => r.int(3) === 0);
        const entities: [string, string][] = [];
        for (const type of Object.keys(c.entities))
          for (const pk of Object.keys(c.entities[type]!))
            if (r.int(3) === 0) entities.push([type, pk]);
        controller.dispatch({ type: 'gc', keys, entities });
        break;
      }
      case 13: {
        // hydrate: an older snapshot, or another controller's state
        if (r.int(2) && snapshots.length > 0) hydrate(controller, r.pick(snapshots)[0]);
        else {
          other.setResponse(api.get, { id: id() }, todo(id(), step + 1000));
          other.set(Author, { id: `a${r.int(3)}`, name: `other ${step}` });
          hydrate(controller, JSON.parse(JSON.stringify(other.getState())));
        }
        break;
      }
      case 14:
        if (r.int(4) === 0) controller.resetEntireStore();
        else controller.set(Todo, todo(id(), step));
        break;
      case 15:
        controller.batch(() => {
          controller.set(Todo, todo(id(), step));
          controller.setResponse(api.get, { id: id() }, todo(id(), step));
          if (r.int(2)) controller.invalidate(Todo, id());
          track(controller.fetch(api.update, { id: id() }, { title: `batched ${step}` }));
        });
        break;
      case 16:
        if (r.int(2) && subs.length) subs.pop()!();
        else subs.push(controller.subscribe(api.get, { id: id() }));
        break;
      case 17:
        controller.invalidate(Todo, id());
        break;
      default:
        track(controller.fetch(r.int(2) === 0 ? api.getList : api.get, { id: id() }));
    }
    await flush();
    check(`${where} (op ${op})`);
    if (r.int(3) === 0) {
      clock.advance(r.int(10));
      await flush();
      check(`${where} (op ${op}, later)`);
    }
  }
  for (const stop of subs) stop();
  while (server.waiting.length > 0) {
    const request = server.waiting[0]!;
    server.take().respond(200, todo(request.url.split('/')[2] ?? 'x', 999));
    await flush();
  }
  await Promise.all(settled);
  // Everything answered: nothing pending, and readers see the committed state itself.
  assert.deepEqual(store.committed.optimistic, []);
  assert.equal(store.visible, store.committed);
  assert.ok(pendingChecks > 30, `seed ${seed}: updates were pending at ${pendingChecks} checks`);
  controller.dispose();
  other.dispose();
}
