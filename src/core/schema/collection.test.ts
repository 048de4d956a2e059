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

  it("a create joins the lists its answer's fields fit: fields the server fills in decide", () => {
    let store: NormalizedStore = { entities: {}, entitiesMeta: {} };
    store = fetchList(store, { completed: false }, [{ id: '1', completed: false }]);
    store = fetchList(store, { completed: true }, []);
    store = fetchList(store, { author: 3 }, []);
    store = fetchList(store, { status: 'todo' }, []);
    // The body names only a title; the server sets completed, the author and a default status.
    const created = normalize(
      todoList.push,
      { id: '9', title: 'new', completed: false, author: 3, status: 'todo' },
      [{}, { title: 'new' }],
      store,
    );
    assert.deepEqual(lists(created), {
      '{"completed":"false"}': ['1', '9'],
      '{"completed":"true"}': [],
      '{"author":"3"}': ['9'],
      '{"status":"todo"}': ['9'],
    });
    // The answer wins over what the call asked for: the server's value is what the todo holds.
    const overruled = normalize(
      todoList.unshift,
      { id: '10', completed: true },
      [{ completed: false }, { completed: false }],
      store,
    );
    assert.deepEqual(lists(overruled)['{"completed":"false"}'], ['1']);
    assert.deepEqual(lists(overruled)['{"completed":"true"}'], ['10']);
  });

  it("a create answered with its id alone joins by the call's args", () => {
    let store: NormalizedStore = { entities: {}, entitiesMeta: {} };
    store = fetchList(store, { userId: 1 }, []);
    store = fetchList(store, { userId: 2 }, []);
    const created = normalize(todoList.push, '7', [{ userId: 1 }, { title: 'x' }], store);
    assert.deepEqual(lists(created), { '{"userId":"1"}': ['7'], '{"userId":"2"}': [] });
  });

  it('each created member of an array answer joins by its own fields', () => {
    let store: NormalizedStore = { entities: {}, entitiesMeta: {} };
    store = fetchList(store, { userId: 1 }, []);
    store = fetchList(store, { userId: 2 }, []);
    const created = normalize(
      todoList.push,
      [
        { id: 'a', userId: 1 },
        { id: 'b', userId: 2 },
      ],
      [{}, {}],
      store,
    );
    assert.deepEqual(lists(created), { '{"userId":"1"}': ['a'], '{"userId":"2"}': ['b'] });
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

  describe('remove and move', () => {
    const ADA = { id: '1', userId: 1, title: 'a', completed: false };
    const BEA = { id: '2', userId: 1, title: 'b', completed: false };
    const CY = { id: '3', userId: 1, title: 'c', completed: true };
    const GRACE = { id: '4', userId: 2, title: 'g', completed: false };
    const OPEN = '{"completed":"false","userId":"1"}';
    const DONE = '{"completed":"true","userId":"1"}';
    const ALL = '{"userId":"1"}';
    const GRACE_OPEN = '{"completed":"false","userId":"2"}';

    /** User 1's All, Open and Done lists and user 2's Open list, as the demo fetches them. */
    function board(): NormalizedStore {
      let store: NormalizedStore = { entities: {}, entitiesMeta: {} };
      store = fetchList(store, { userId: 1 }, [ADA, BEA, CY]);
      store = fetchList(store, { userId: 1, completed: false }, [ADA, BEA]);
      store = fetchList(store, { userId: 1, completed: true }, [CY]);
      return fetchList(store, { userId: 2, completed: false }, [GRACE]);
    }

    it('move: the entity leaves the lists its new values no longer match and is appended to those they now match', () => {
      const store = board();
      const moved = normalize(todoList.move, { ...ADA, completed: true }, [{ id: '1' }], store);
      assert.equal(moved.result, '1');
      assert.deepEqual(lists(moved), {
        [ALL]: ['1', '2', '3'], // still matches: keeps its place
        [OPEN]: ['2'],
        [DONE]: ['3', '1'], // appended at the end
        [GRACE_OPEN]: ['4'],
      });
      // Moved back: the end of Open, not its old first place.
      const back = normalize(todoList.move, { ...ADA, completed: false }, [{ id: '1' }], moved);
      assert.deepEqual(lists(back)[OPEN], ['2', '1']);
      assert.deepEqual(lists(back)[DONE], ['3']);
      assert.deepEqual(lists(back)[ALL], ['1', '2', '3']);
    });

    it('move: a partial response moves by the stored entity merged with it; a user change moves between users', () => {
      const store = board();
      // Only the changed field in the response: the stored userId still decides.
      const done = normalize(todoList.move, { id: '2', completed: true }, [{ id: '2' }], store);
      assert.deepEqual(lists(done)[OPEN], ['1']);
      assert.deepEqual(lists(done)[DONE], ['3', '2']);
      const handed = normalize(todoList.move, { ...ADA, userId: 2 }, [{ id: '1' }], store);
      assert.deepEqual(lists(handed)[ALL], ['2', '3']);
      assert.deepEqual(lists(handed)[OPEN], ['2']);
      assert.deepEqual(lists(handed)[GRACE_OPEN], ['4', '1']);
    });

    it('move creates no list that is not stored yet, and changes nothing when the lists stay the same', () => {
      let store: NormalizedStore = { entities: {}, entitiesMeta: {} };
      store = fetchList(store, { userId: 1, completed: false }, [ADA, BEA]);
      const moved = normalize(todoList.move, { ...ADA, completed: true }, [{ id: '1' }], store);
      assert.deepEqual(lists(moved), { [OPEN]: ['2'] }, 'no Done list appears');
      const renamed = normalize(todoList.move, { ...BEA, title: 'new' }, [{ id: '2' }], board());
      assert.deepEqual(lists(renamed), lists(board()));
    });

    it('move of an entity in no list: joins the lists it now matches; one never stored joins too', () => {
      const store = board();
      // Stored, listed nowhere (fetched alone), now done.
      const alone = normalize(Todo, { id: '9', userId: 1, completed: false }, [], store);
      const moved = normalize(todoList.move, { id: '9', completed: true }, [{ id: '9' }], alone);
      assert.deepEqual(lists(moved)[DONE], ['3', '9']);
      assert.deepEqual(lists(moved)[OPEN], ['1', '2'], 'it was never there: nothing to leave');
      // Never stored: nothing to compare with, so it only joins.
      const unknown = normalize(
        todoList.move,
        { id: '8', userId: 2, completed: false },
        [{ id: '8' }],
        store,
      );
      assert.deepEqual(lists(unknown)[GRACE_OPEN], ['4', '8']);
      assert.deepEqual(lists(unknown)[OPEN], ['1', '2']);
    });

    it("move: the call's body decides where the answer is silent (a field the entity does not echo)", () => {
      const store = board();
      // The server answers with the todo without userId: the body's userId moves it to user 2.
      const handed = normalize(
        todoList.move,
        { id: '1', title: 'a', completed: false },
        [{ id: '1' }, { userId: 2 }],
        store,
      );
      assert.deepEqual(lists(handed)[GRACE_OPEN], ['4', '1']);
      assert.deepEqual(lists(handed)[OPEN], ['2']);
      // The answer wins over the body.
      const kept = normalize(todoList.move, ADA, [{ id: '1' }, { userId: 2 }], store);
      assert.deepEqual(lists(kept)[OPEN], ['1', '2']);
      assert.deepEqual(lists(kept)[GRACE_OPEN], ['4']);
    });

    it('move takes an array response, each entity by its own values', () => {
      const moved = normalize(
        todoList.move,
        [
          { ...ADA, completed: true },
          { ...CY, completed: false },
        ],
        [{}],
        board(),
      );
      assert.deepEqual(moved.result, ['1', '3']);
      assert.deepEqual(lists(moved)[OPEN], ['2', '3']);
      assert.deepEqual(lists(moved)[DONE], ['1']);
    });

    it('remove takes the entity out of the lists its values match, and only those', () => {
      const store = board();
      const removed = normalize(todoList.remove, { id: '1' }, [{}, { id: '1' }], store);
      assert.equal(removed.result, '1');
      assert.deepEqual(lists(removed), {
        [ALL]: ['2', '3'],
        [OPEN]: ['2'],
        [DONE]: ['3'],
        [GRACE_OPEN]: ['4'],
      });
      // The entity's values decide, whatever the call's URL params say of them.
      const same = normalize(
        todoList.remove,
        { id: '1' },
        [{ completed: true }, { id: '1' }],
        store,
      );
      assert.deepEqual(lists(same), lists(removed));
      // The entity itself stays stored: remove only edits lists.
      assert.equal((same.entities.Todo as Record<string, { title: string }>)['1']!.title, 'a');
    });

    it('remove: URL params fill in the filter fields the entity has not', () => {
      const store = fetchList(board(), { userId: 1, tag: 'x' }, [ADA, BEA]);
      const tagged = '{"tag":"x","userId":"1"}';
      const other = normalize(todoList.remove, { id: '1' }, [{ tag: 'y' }], store);
      assert.deepEqual(lists(other)[tagged], ['1', '2'], 'tag y: not that list');
      assert.deepEqual(lists(other)[OPEN], ['2'], 'its own values still match Open');
      const removed = normalize(todoList.remove, { id: '1' }, [{ tag: 'x' }], store);
      assert.deepEqual(lists(removed)[tagged], ['2']);
    });

    it('remove of an entity no list holds changes nothing', () => {
      const store = board();
      const removed = normalize(todoList.remove, { id: '7', userId: 1 }, [{}], store);
      assert.equal(removed.entities['[Todo]'], store.entities['[Todo]'], 'the lists are untouched');
      const notListed = normalize(todoList.remove, { id: '4' }, [{}], fetchList(board(), {}, []));
      assert.deepEqual(lists(notListed)['{}'], [], 'an empty list stays empty');
      assert.deepEqual(lists(notListed)[GRACE_OPEN], [], 'her list loses her todo');
    });

    it('variants are memoized per mode', () => {
      assert.equal(todoList.move, todoList.move);
      assert.equal(todoList.remove, todoList.remove);
      assert.notEqual(todoList.move, todoList.remove);
      assert.equal(todoList.move.mode, 'move');
    });

    it('bad input: the error names the collection or the entity and what is wrong; the lists are kept', () => {
      const store = board();
      assert.throws(
        () => normalize(todoList.move, '1', [{ id: '1' }], store),
        /\[Todo\]\.move expected an object, got a string for an entity/,
      );
      assert.throws(
        () => normalize(todoList.move, [{ ...ADA, completed: true }, 5], [{}], store),
        /\[Todo\]\.move expected an object, got a number for an entity/,
      );
      assert.throws(
        () => normalize(todoList.move, { title: 'no id', completed: true }, [{}], store),
        /Entity Todo has no pk\(\)/,
      );
      assert.throws(
        () => normalize(todoList.remove, { title: 'no id' }, [{}], store),
        /Entity Todo has no pk\(\)/,
      );
      assert.deepEqual(lists(store)[OPEN], ['1', '2']);
      assert.deepEqual(lists(store)[DONE], ['3']);
    });
  });
});
