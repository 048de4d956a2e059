import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Store } from './store.js';
import { MemoCache } from '../normalize/memo-cache.js';
import { emptyState } from './state.js';
import type { Action } from './actions.js';

const newStore = () => new Store(emptyState(), new MemoCache(), Date.now);
const set = (key: string): Action => ({
  type: 'response/set',
  key,
  schema: undefined,
  args: [],
  response: { key },
  fetchedAt: 1,
  date: 1,
  expiresAt: 2,
});

describe('Store: write cost does not grow with what it holds', () => {
  it('after one copy, writes update its own records in place; a snapshot stays as it was', () => {
    const store = newStore();
    store.dispatch(set('k0'));
    const endpoints = store.committed.endpoints;
    const meta = store.committed.meta;
    for (let i = 1; i <= 1_000; i++) store.dispatch(set(`k${i}`));
    assert.equal(store.committed.endpoints, endpoints, 'no copy of the endpoints record per write');
    assert.equal(store.committed.meta, meta, 'no copy of the meta record per write');
    const snapshot = store.snapshot();
    store.dispatch(set('after'));
    assert.equal(Object.keys(snapshot.endpoints).length, 1_001, 'the snapshot did not change');
    assert.equal(Object.keys(store.committed.endpoints).length, 1_002);
    assert.notEqual(store.committed.endpoints, snapshot.endpoints);
  });

  it('collecting 2,000 responses copies each record at most once and changes no snapshot', () => {
    const store = newStore();
    for (let i = 0; i < 2_000; i++) store.dispatch(set(`k${i}`));
    const snapshot = store.snapshot();
    const keys = Array.from({ length: 2_000 }, (_, i) => `k${i}`);
    store.dispatch({ type: 'gc', keys, entities: [] });
    assert.deepEqual(store.committed.endpoints, {});
    assert.equal(Object.keys(snapshot.endpoints).length, 2_000);
  });

  it('batch: listeners hear once, with every action in order', () => {
    const store = newStore();
    const heard: string[][] = [];
    store.subscribe(({ actions }) => heard.push(actions.map((a) => (a as { key: string }).key)));
    store.batch(() => {
      store.dispatch(set('a'));
      store.batch(() => store.dispatch(set('b')));
      store.dispatch(set('c'));
    });
    assert.deepEqual(heard, [['a', 'b', 'c']]);
  });
});
