import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
// The hydrate action's reducer is the hydration module's (not in the main entry).
import '../hydration.js';
import { Store } from './store.js';
import { MemoCache } from '../normalize/memo-cache.js';
import { replay } from './optimistic.js';
import type { EndpointLike, Snapshot } from '../protocol/types.js';
import { reduce } from './reducer.js';
import { emptyState } from './state.js';
import type { StoreState } from './state.js';
import type { Action } from './actions.js';
import type { WriteLog } from '../util/write-log.js';
import { getOwn } from '../util/own.js';
import { Todo, todoList } from '../controller/test-utils/entities.js';
import { Invalidate } from '../schema/invalidate.js';
import { random } from '../controller/test-utils/random.js';

/**
 * The endpoint of pending update `id`: it renames Todo `t<id % 6>`, reading what its snapshot holds
 * for it, or deletes it (every fifth id), or adds a Todo to the list (every seventh).
 */
const updates = new Map<number, EndpointLike>();
function updateOf(id: number): EndpointLike {
  const pk = `t${id % 6}`;
  const [schema, response] =
    id % 7 === 0
      ? [todoList.push, () => [{ id: `new${id}`, title: 'created', author: null }]]
      : id % 5 === 0
        ? [new Invalidate(Todo), () => ({ id: pk })]
        : [
            Todo,
            (snapshot: Snapshot) => ({
              ...snapshot.get(Todo, { id: pk }),
              id: pk,
              title: `renamed by ${id}`,
            }),
          ];
  if (!updates.has(id)) {
    updates.set(id, {
      name: `update ${id}`,
      sideEffect: true,
      schema,
      getOptimisticResponse: response,
    } as unknown as EndpointLike);
  }
  return updates.get(id)!;
}

/** The store's clock: what the replays date their writes with. */
const NOW = 100;
const newStore = () => new Store(emptyState(), new MemoCache(), () => NOW);

/** The reference: the updates replayed afresh over `committed`, copying what they write. */
const replayOver = (committed: StoreState) =>
  replay(committed, (entry) => updateOf(entry.id), new MemoCache(), NOW).state;

/** Queues update `id` (see `updateOf`). */
const add = (id: number, key: string, at: number): Action => ({
  type: 'optimistic/add',
  entry: { id, key, args: [], fetchedAt: at },
  endpoint: updateOf(id),
});

/** One random action, of every kind the store takes. */
function randomAction(r: ReturnType<typeof random>, step: number, pending: number[]): Action {
  const todo = () => ({
    id: `t${r.int(8)}`,
    title: `title ${step}`,
    completed: r.int(2) === 1,
    author: r.int(3) === 0 ? null : { id: `a${r.int(3)}`, name: `author ${step}` },
  });
  // Mostly in order; sometimes an answer to an older request (ordering by fetchedAt).
  const fetchedAt = r.int(4) === 0 ? r.int(step + 1) : step;
  const meta = { fetchedAt, date: step, expiresAt: step + 50 };
  const set = (key: string, schema: unknown, response: unknown): Action => ({
    type: 'response/set',
    key,
    schema,
    args: [],
    response,
    ...meta,
  });
  const addOne = (): Action => add(step, `mutation ${step}`, step);
  switch (r.int(12)) {
    case 0:
    case 1:
      return set(`todo ${r.int(10)}`, Todo, todo());
    case 2:
      return set(`list ${r.int(2)}`, todoList, Array.from({ length: r.int(4) }, todo));
    case 3:
      return set(`plain ${r.int(5)}`, undefined, step);
    case 4:
      return {
        type: 'response/error',
        key: `todo ${r.int(10)}`,
        error: new Error('no'),
        fetchedAt,
        expiresAt: step + 5,
      };
    case 5:
      return { type: 'entities/set', schema: Todo, value: todo(), ...meta };
    case 6:
      return { type: 'invalidate', keys: [`todo ${r.int(10)}`, `list ${r.int(2)}`] };
    case 7:
      return {
        type: 'gc',
        keys: [`todo ${r.int(10)}`, `plain ${r.int(5)}`],
        entities: [
          ['Todo', `t${r.int(8)}`],
          ['Author', `a${r.int(3)}`],
        ],
      };
    case 8: {
      const other = reduce(emptyState(), set(`todo ${r.int(10)}`, Todo, todo()));
      return { type: 'hydrate', state: other, now: step };
    }
    case 9:
      if (pending.length > 0 && r.int(2) === 0) {
        return { type: 'optimistic/remove', id: r.pick(pending) };
      }
      return addOne();
    case 10:
      if (pending.length > 0) {
        // The mutation's own answer, settling its entry.
        const id = r.pick(pending);
        return { ...set(`mutation ${id}`, Todo, todo()), settles: id } as Action;
      }
      return addOne();
    default:
      return step % 97 === 0 ? { type: 'reset', date: step } : addOne();
  }
}

/** A Todo response under `key`, fetched (and committed) at `at`. */
const todoAt = (key: string, response: object, at: number): Action => ({
  type: 'response/set',
  key,
  schema: Todo,
  args: [],
  response,
  fetchedAt: at,
  date: at,
  expiresAt: 9,
});

/** Update 1 (it renames t1), pending since `at`. */
const pendingAt = (at: number): Action => add(1, 'mutation', at);

describe('Store: the visible state follows the committed one', () => {
  it('equals a fresh replay over the committed state after every action, and shares what the updates leave alone', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const r = random(seed);
      const store = newStore();
      let replays = 0;
      for (let step = 1; step <= 250; step++) {
        const action = randomAction(
          r,
          step,
          store.committed.optimistic.map((entry) => entry.id),
        );
        const where = `seed ${seed}, step ${step}, ${action.type}`;
        try {
          store.dispatch(action);
        } catch {
          continue; // refused (a response that does not fit): nothing changed
        }
        // Handing the committed state out makes its next write copy records instead.
        if (r.int(10) === 0) store.snapshot();
        const committed = store.committed;
        // The reference: the updates replayed over the committed state, copying what they write.
        const expected = committed.optimistic.length === 0 ? committed : replayOver(committed);
        if (committed.optimistic.length > 0) replays++;
        assert.deepEqual(store.visible, expected, where);
        for (const [family, tables] of [
          ['entities', expected.entities],
          ['entitiesMeta', expected.entitiesMeta],
        ] as const) {
          for (const type of Object.keys(tables)) {
            for (const pk of Object.keys(tables[type]!)) {
              const wanted = tables[type]![pk];
              // What the updates did not write is the committed object itself, not a copy.
              const stored = committed[family][type] as Record<string, unknown> | undefined;
              if (wanted !== getOwn(stored ?? {}, pk)) continue;
              assert.equal(
                store.visible[family][type]![pk],
                wanted,
                `${where}: ${family} ${type} ${pk}`,
              );
            }
          }
        }
      }
      assert.ok(replays > 50, `seed ${seed}: the updates were pending for ${replays} steps only`);
    }
  });

  it('keeps the committed state free of the updates', () => {
    const store = newStore();
    store.dispatch(todoAt('todo', { id: 't1', title: 'saved' }, 1));
    store.dispatch(pendingAt(2));
    for (let i = 0; i < 5; i++) {
      store.dispatch(todoAt(`other ${i}`, { id: `o${i}` }, 3));
    }
    assert.equal((store.visible.entities.Todo!.t1 as { title: string }).title, 'renamed by 1');
    assert.equal((store.committed.entities.Todo!.t1 as { title: string }).title, 'saved');
    assert.equal(getOwn(store.committed.endpoints, 'mutation'), undefined);
    store.dispatch({ type: 'optimistic/remove', id: 1 });
    assert.equal(
      store.visible,
      store.committed,
      'nothing pending: what readers see is the committed state',
    );
  });

  it('after the first write, writes with an update pending copy no record of the committed size', () => {
    const store = newStore();
    for (let i = 0; i < 2_000; i++) {
      store.dispatch(todoAt(`todo ${i}`, { id: `t${i}` }, 1));
    }
    store.dispatch(pendingAt(2));
    store.dispatch(todoAt('warm', { id: 'warm' }, 3));
    const records = [store.visible.endpoints, store.visible.meta, store.visible.entities.Todo];
    for (let i = 0; i < 20; i++) {
      store.dispatch(todoAt(`new ${i}`, { id: `n${i}` }, 3));
    }
    // The same objects, updated in place: no copy of 2,000 entries per write.
    const now = [store.visible.endpoints, store.visible.meta, store.visible.entities.Todo];
    records.forEach((record, i) => assert.equal(now[i], record, `record ${i} was copied`));
    assert.notEqual(store.visible.endpoints, store.committed.endpoints);
    assert.equal(Object.keys(store.visible.endpoints).length, 2_000 + 1 + 1 + 20);
    assert.ok(store.visible.entities.Todo!.n19, 'the last write shows');
  });
});

describe('normalize: the write log', () => {
  it('names every pk written under the table it is in, when a push reads the table its own payload wrote', () => {
    const owned = new WeakSet<object>();
    let state = reduce(
      emptyState(),
      {
        type: 'response/set',
        key: 'list',
        schema: todoList,
        args: [],
        response: [{ id: 't0' }],
        fetchedAt: 1,
        date: 1,
        expiresAt: 9,
      },
      owned,
    );
    // Both tables are the store's own from now on.
    const lists = todoList.key;
    const lists0 = state.entities[lists]!;
    owned.add(lists0).add(state.entitiesMeta[lists]!);
    const log: WriteLog = new Map();
    // The list is written first (in place: the table is the store's own); the push then reads
    // the whole table with that write in it. The push adds a member the list has, so it writes
    // nothing: the list's own write is what logs it.
    state = reduce(
      state,
      {
        type: 'response/set',
        key: 'both',
        schema: { list: todoList, added: todoList.push },
        args: [],
        response: { list: [{ id: 't1' }], added: [{ id: 't1' }] },
        fetchedAt: 2,
        date: 2,
        expiresAt: 9,
      },
      owned,
      log,
    );
    const table = state.entities[lists]!;
    const listPk = Object.keys(table)[0]!;
    assert.equal(table, lists0, 'an owned table is written in place, never copied');
    assert.deepEqual(table[listPk], ['t1']);
    assert.ok(log.get(table)?.has(listPk), 'the list is logged under the table it is in now');
    assert.ok(log.get(state.entitiesMeta[lists]!)?.has(listPk));
    assert.deepEqual([...log.get(state.entities.Todo!)!], ['t1']);
  });
});
