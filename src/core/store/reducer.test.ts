import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { reduce } from './reducer.js';
import { emptyState } from './state.js';
import type { StoreState } from './state.js';
import { Todo } from '../controller/test-utils/entities.js';

const set = (state: StoreState, key: string, response: unknown, schema?: unknown) =>
  reduce(state, {
    type: 'response/set',
    key,
    schema,
    args: [],
    response,
    fetchedAt: 1,
    date: 2,
    expiresAt: 3,
  });

describe('reduce', () => {
  it('returns the same state for an action that changes nothing', () => {
    const state = set(emptyState(), 'a', 1);
    assert.equal(reduce(state, { type: 'invalidate', keys: ['missing'] }), state);
    assert.equal(reduce(state, { type: 'optimistic/remove', id: 7 }), state);
    assert.equal(reduce(state, { type: 'gc', keys: [], entities: [] }), state);
  });

  it('shares what it does not change', () => {
    const state = set(emptyState(), 'a', 1);
    const before = set(state, 'todo', { id: '1' }, Todo);
    const next = set(before, 'b', 2);
    assert.equal(next.entities, before.entities);
    assert.equal(next.entitiesMeta, before.entitiesMeta);
    assert.equal(next.errors, before.errors);
    assert.equal(next.meta.todo, before.meta.todo);
  });

  it('never writes in place', () => {
    const state = Object.freeze(set(emptyState(), 'a', 1));
    const frozen = JSON.parse(JSON.stringify(state));
    reduce(state, { type: 'invalidate', keys: ['a'] });
    reduce(state, { type: 'response/error', key: 'a', error: 'x', fetchedAt: 1, expiresAt: 2 });
    reduce(state, { type: 'gc', keys: ['a'], entities: [] });
    assert.deepEqual(JSON.parse(JSON.stringify(state)), frozen);
  });

  it('treats keys such as __proto__ as data', () => {
    let state = set(emptyState(), '__proto__', { polluted: true });
    state = reduce(state, { type: 'invalidate', keys: ['__proto__'] });
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.deepEqual(Object.keys(state.meta), ['__proto__']);
    assert.equal(Object.getPrototypeOf(state.endpoints), Object.prototype);
    state = reduce(state, { type: 'gc', keys: ['__proto__'], entities: [] });
    assert.deepEqual(Object.keys(state.endpoints), []);
  });

  it('gc drops results, their meta and errors, and the listed entities with their meta', () => {
    let state = set(emptyState(), 'todo', { id: '1' }, Todo);
    state = set(state, 'other', { id: '2' }, Todo);
    state = reduce(state, {
      type: 'response/error',
      key: 'todo',
      error: 1,
      fetchedAt: 1,
      expiresAt: 9,
    });
    state = reduce(state, { type: 'gc', keys: ['todo'], entities: [['Todo', '1']] });
    assert.deepEqual(Object.keys(state.endpoints), ['other']);
    assert.deepEqual(Object.keys(state.meta), ['other']);
    assert.deepEqual(state.errors, {});
    assert.deepEqual(Object.keys(state.entities.Todo!), ['2']);
    assert.deepEqual(Object.keys(state.entitiesMeta.Todo!), ['2']);
    state = reduce(state, { type: 'gc', keys: [], entities: [['Todo', '2']] });
    assert.deepEqual(state.entities, {});
    assert.deepEqual(state.entitiesMeta, {});
  });

  it('a success clears the error unless told to keep it; settling removes the optimistic entry', () => {
    let state = reduce(emptyState(), {
      type: 'optimistic/add',
      entry: { id: 4, key: 'a', args: [], fetchedAt: 0 },
    });
    state = reduce(state, {
      type: 'response/error',
      key: 'a',
      error: 'x',
      fetchedAt: 0,
      expiresAt: 5,
    });
    const kept = reduce(state, {
      type: 'response/set',
      key: 'a',
      schema: undefined,
      args: [],
      response: 1,
      fetchedAt: 0,
      date: 0,
      expiresAt: 0,
      keepError: true,
      settles: 4,
    });
    assert.deepEqual(Object.keys(kept.errors), ['a']);
    assert.deepEqual(kept.optimistic, []);
    assert.deepEqual(set(state, 'a', 1).errors, {});
  });
});
