import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Collection } from './collection.js';
import { normalize, NormalizeError } from '../normalize/normalize.js';
import { denormalize } from '../normalize/denormalizer.js';
import { MemoCache } from '../normalize/memo-cache.js';
import { paginatedFilter, paginatedMerge, removeCursor } from './pagination.js';
import { UnionSchema } from './union.js';
import { Todo, todoList } from '../test-utils/entities.js';
import type { NormalizedStore } from './types.js';

const lists = (store: NormalizedStore, key = '[Todo]') =>
  store.entities[key] as unknown as Record<string, string[]>;

function fetchList(
  store: NormalizedStore,
  params: object,
  todos: object[],
  collection: Collection = todoList,
) {
  return normalize(collection, todos, [params], store);
}

/** An entity with a Collection of its todos nested in it, keyed by the owner's id. */
const Entity = Object.getPrototypeOf(Todo) as typeof import('./entity.js').Entity;
class Owner extends Entity {
  id = '';
  todos: Todo[] = [];
  pk() {
    return this.id;
  }
  static key = 'Owner';
  static schema = {
    todos: new Collection([Todo], { nestKey: (parent) => ({ userId: parent.id }) }),
  };
}

describe('schema.Collection', () => {
  it('keeps one list per canonical argument set', () => {
    let store = fetchList({ entities: {}, entitiesMeta: {} }, { userId: 1, completed: false }, [
      { id: '1' },
    ]);
    // Numbers and numeric strings are equal, key order does not matter, undefined is dropped.
    const again = fetchList(store, { completed: 'false', userId: '1', page: undefined }, [
      { id: '1' },
      { id: '2' },
    ]);
    assert.equal(again.result, store.result);
    assert.deepEqual(Object.keys(lists(again)), ['{"completed":"false","userId":"1"}']);
    store = fetchList(again, { userId: 2 }, [{ id: '3' }]);
    assert.deepEqual(Object.keys(lists(store)).sort(), [
      '{"completed":"false","userId":"1"}',
      '{"userId":"2"}',
    ]);
  });

  it('denormalizes a list to entity instances, leaving out INVALID members', () => {
    const store = fetchList({ entities: {}, entitiesMeta: {} }, {}, [{ id: '1' }, { id: '2' }]);
    const invalidated = normalize(new (class extends Collection {})([Todo]).push, [], [{}], store); // no-op push
    const todos = denormalize(todoList, store.result, invalidated.entities) as Todo[];
    assert.deepEqual(
      todos.map((todo) => todo.id),
      ['1', '2'],
    );
    assert.ok(todos[0] instanceof Todo);
  });

  it('push adds a created entity to the end of every existing list whose args match, and no other', () => {
    let store: NormalizedStore = { entities: {}, entitiesMeta: {} };
    store = fetchList(store, {}, [{ id: '1', userId: 1 }]);
    store = fetchList(store, { userId: 1 }, [{ id: '1', userId: 1 }]);
    store = fetchList(store, { userId: 2 }, [{ id: '2', userId: 2 }]);
    const created = normalize(
      todoList.push,
      { id: '9', userId: 1, title: 'new' },
      [{}, { userId: 1, title: 'new' }],
      store,
    );
    assert.equal(created.result, '9');
    assert.deepEqual(lists(created), {
      '{}': ['1', '9'],
      '{"userId":"1"}': ['1', '9'],
      '{"userId":"2"}': ['2'],
    });
    // Lists that were never fetched are not created.
    assert.equal(Object.keys(lists(created)).length, 3);
  });

  it('unshift adds to the beginning', () => {
    const store = fetchList({ entities: {}, entitiesMeta: {} }, {}, [{ id: '1' }]);
    const created = normalize(todoList.unshift, { id: '0' }, [{}, {}], store);
    assert.deepEqual(lists(created)['{}'], ['0', '1']);
  });

  it('matches filter args against URL params as well as the body', () => {
    const store = fetchList({ entities: {}, entitiesMeta: {} }, { userId: 1 }, []);
    const fromParams = normalize(
      todoList.push,
      { id: '5' },
      [{ userId: 1 }, { title: 'x' }],
      store,
    );
    assert.deepEqual(lists(fromParams)['{"userId":"1"}'], ['5']);
    const noMatch = normalize(todoList.push, { id: '6' }, [{}, { title: 'x' }], store);
    assert.deepEqual(lists(noMatch)['{"userId":"1"}'], []);
  });

  it('never adds an entity already in the list', () => {
    const store = fetchList({ entities: {}, entitiesMeta: {} }, {}, [{ id: '1' }, { id: '2' }]);
    const pushed = normalize(todoList.push, { id: '1', title: 'again' }, [{}, {}], store);
    const unshifted = normalize(todoList.unshift, { id: '2' }, [{}, {}], pushed);
    assert.deepEqual(lists(unshifted)['{}'], ['1', '2']);
    // A response listing the same entity twice is listed once.
    const doubled = fetchList(store, { x: 1 }, [{ id: '3' }, { id: '3' }]);
    assert.deepEqual(lists(doubled)['{"x":"1"}'], ['3']);
  });

  it('ignores keys starting with "order" by default when filtering', () => {
    const store = fetchList(
      { entities: {}, entitiesMeta: {} },
      { userId: 1, orderBy: 'title' },
      [],
    );
    const created = normalize(todoList.push, { id: '4' }, [{}, { userId: 1 }], store);
    assert.deepEqual(lists(created)['{"orderBy":"title","userId":"1"}'], ['4']);
  });

  it('lets a subclass decide which keys do not filter', () => {
    class SortedCollection extends Collection {
      nonFilterArgumentKeys(key: string) {
        return key === 'sort';
      }
    }
    const sorted = new SortedCollection([Todo], { key: 'sorted-todos' });
    let store = fetchList(
      { entities: {}, entitiesMeta: {} },
      { sort: 'asc', userId: 1 },
      [],
      sorted,
    );
    store = fetchList(store, { orderBy: 'x' }, [], sorted);
    const created = normalize(sorted.push, { id: '8' }, [{}, { userId: 1 }], store);
    assert.deepEqual(lists(created, 'sorted-todos'), {
      '{"sort":"asc","userId":"1"}': ['8'],
      // "orderBy" filters for this subclass, and the created todo has none.
      '{"orderBy":"x"}': [],
    });
  });

  it('addWith(paginatedMerge, paginatedFilter) appends a page to its own list only, without duplicates', () => {
    let store = fetchList({ entities: {}, entitiesMeta: {} }, { userId: 1 }, [
      { id: '1' },
      { id: '2' },
    ]);
    store = fetchList(store, {}, [{ id: '1' }]);
    const getPage = todoList.addWith(
      paginatedMerge,
      paginatedFilter((params) => removeCursor(params, 'page')),
    );
    const page = normalize(getPage, [{ id: '2' }, { id: '3' }], [{ userId: 1 }], store);
    assert.equal(page.result, '{"userId":"1"}');
    assert.deepEqual(lists(page), { '{"userId":"1"}': ['1', '2', '3'], '{}': ['1'] });
    const todos = denormalize(todoList, page.result, page.entities) as Todo[];
    assert.deepEqual(
      todos.map((todo) => todo.id),
      ['1', '2', '3'],
    );
  });

  it('addWith creates the list when the page arrives first', () => {
    const getPage = todoList.addWith(paginatedMerge, paginatedFilter());
    const page = normalize(getPage, [{ id: '7' }], [{ userId: 3 }], {
      entities: {},
      entitiesMeta: {},
    });
    assert.deepEqual(lists(page), { '{"userId":"3"}': ['7'] });
  });

  it('push and unshift resolve to the created entity', () => {
    const created = normalize(todoList.push, { id: '1', title: 't' }, [{}, {}]);
    const todo = denormalize(todoList.push, created.result, created.entities) as Todo;
    assert.ok(todo instanceof Todo);
    assert.equal(todo.title, 't');
  });

  it('a created member that does not fit is named where it is, not as [0] of a list', () => {
    const pathOf = (schema: unknown, input: unknown): string => {
      try {
        normalize(schema, input, [{}, {}]);
      } catch (error) {
        assert.ok(error instanceof NormalizeError);
        return error.path;
      }
      return assert.fail('expected a NormalizeError');
    };
    const noPk = { type: 'todo', title: 'no id' };
    assert.equal(pathOf(todoList.push, noPk), 'the response');
    assert.equal(pathOf(todoList.unshift, noPk), 'the response');
    assert.equal(pathOf(todoList.push, [{ id: '1' }, noPk]), 'response[1]');
    const members = new Collection([new UnionSchema({ todo: Todo }, 'type')]);
    assert.equal(pathOf(members.push, noPk), 'the response');
    assert.equal(pathOf({ created: members.push }, { created: noPk }), 'response.created');
  });

  it('variants are memoized and keep the subclass', () => {
    assert.equal(todoList.push, todoList.push);
    assert.notEqual(todoList.push, todoList.unshift);
    class Sub extends Collection {}
    const sub = new Sub([Todo]);
    assert.ok(sub.push instanceof Sub);
  });

  it('nested in an entity, a list is keyed by the parent', () => {
    const store = normalize(Owner, { id: '5', todos: [{ id: 'a', userId: 5 }] });
    assert.deepEqual(lists(store), { '{"userId":"5"}': ['a'] });
    const created = normalize(todoList.push, { id: 'b', userId: 5 }, [{}, { userId: 5 }], store);
    const owner = denormalize(Owner, '5', created.entities) as Owner;
    assert.deepEqual(
      owner.todos.map((todo) => todo.id),
      ['a', 'b'],
    );
  });

  it('one stored list read through a nested Collection and through getList is one array', () => {
    const store = normalize(Owner, { id: '5', todos: [{ id: 'a', userId: 5 }] });
    const memo = new MemoCache();
    const owner = memo.denormalize(Owner, '5', store.entities) as Owner;
    const listed = normalize(todoList, [{ id: 'a', userId: 5 }], [{ userId: 5 }], store);
    assert.equal(listed.entities, store.entities, 'the same answer changes nothing');
    const list = memo.denormalize(todoList, listed.result, listed.entities);
    assert.equal(list, owner.todos);
    assert.equal(memo.denormalize(Owner, '5', listed.entities), owner);
  });

  it('says what is wrong when a list response is not an array', () => {
    assert.throws(
      () => normalize(todoList, { results: [] }, [{}]),
      /expected an array for collection \[Todo\], got an object at the response/,
    );
  });

  it('requires a key when members are not entities', () => {
    assert.throws(() => new Collection([{}] as never), /needs a key option/);
  });
});
