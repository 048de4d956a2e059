import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { normalize, NormalizeError } from './normalize.js';
import { denormalize } from './denormalizer.js';
import { Entity } from '../schema/entity.js';
import { Invalidate } from '../schema/invalidate.js';
import { INVALID } from '../schema/types.js';
import { UnionSchema } from '../schema/union.js';
import { ValuesSchema } from '../schema/values.js';
import { Article, Comment, Todo, User, todoList } from '../test-utils/entities.js';

describe('normalize', () => {
  it('stores each entity once and puts pks in its place', () => {
    const { result, entities } = normalize(Article, {
      id: 'a1',
      author: { id: 'u1', name: 'Ann' },
      comments: [{ id: 'c1', body: 'hi', author: { id: 'u1', name: 'Ann' } }],
    });
    assert.equal(result, 'a1');
    assert.deepEqual(entities, {
      Article: { a1: { id: 'a1', author: 'u1', comments: ['c1'] } },
      User: { u1: { id: 'u1', name: 'Ann' } },
      Comment: { c1: { id: 'c1', body: 'hi', author: 'u1' } },
    });
  });

  it('merges the same pk twice in one payload', () => {
    const { entities } = normalize(
      [User],
      [
        { id: 'u', name: 'Ann' },
        { id: 'u', email: 'a@x' },
      ],
    );
    assert.deepEqual(entities.User!.u, { id: 'u', name: 'Ann', email: 'a@x' });
  });

  it('merges newer data over what the store holds', () => {
    const first = normalize(User, { id: 'u', name: 'Ann', age: 30 }, [], undefined, {
      fetchedAt: 1,
    });
    const second = normalize(User, { id: 'u', name: 'Anna' }, [], first, { fetchedAt: 2 });
    assert.deepEqual(second.entities.User!.u, { id: 'u', name: 'Anna', age: 30 });
  });

  it('never lets an older response overwrite newer values', () => {
    const newer = normalize(User, { id: 'u', name: 'new' }, [], undefined, { fetchedAt: 10 });
    const older = normalize(User, { id: 'u', name: 'old', age: 3 }, [], newer, { fetchedAt: 5 });
    assert.deepEqual(older.entities.User!.u, { id: 'u', name: 'new', age: 3 });
    assert.equal(older.entitiesMeta.User!.u!.fetchedAt, 10);
  });

  it('keeps an INVALID mark against an older response, and a newer one replaces it', () => {
    const stored = normalize(Todo, { id: '1' }, [], undefined, { fetchedAt: 1 });
    const deleted = normalize(new Invalidate(Todo), '1', [], stored, { fetchedAt: 5 });
    const late = normalize(Todo, { id: '1', title: 'late' }, [], deleted, { fetchedAt: 3 });
    assert.equal(late.entities.Todo!['1'], INVALID);
    const fresh = normalize(Todo, { id: '1', title: 'back' }, [], late, { fetchedAt: 6 });
    assert.deepEqual(fresh.entities.Todo!['1'], { id: '1', title: 'back' });
  });

  it('keeps the stored object when a refetch brings the same data', () => {
    const first = normalize([Todo], [{ id: '1', title: 'a' }], [], undefined, { fetchedAt: 1 });
    const second = normalize([Todo], [{ id: '1', title: 'a' }], [], first, { fetchedAt: 2 });
    assert.equal(second.entities.Todo!['1'], first.entities.Todo!['1']);
  });

  it('shares every table it did not write', () => {
    const first = normalize([User], [{ id: 'u' }]);
    const withTodos = normalize([Todo], [{ id: '1' }], [], first);
    assert.equal(withTodos.entities.User, first.entities.User);
    assert.notEqual(withTodos.entities, first.entities);
    const untouched = normalize({ total: 0 }, { total: 3 }, [], withTodos);
    assert.equal(untouched.entities, withTodos.entities);
  });

  it('normalizes and denormalizes a cycle without looping', () => {
    const ann: Record<string, unknown> = { id: 'ann', name: 'Ann' };
    ann.friends = [ann, { id: 'bob', name: 'Bob', friends: [ann] }];
    const { result, entities } = normalize(User, ann);
    assert.deepEqual(entities.User!.ann, { id: 'ann', name: 'Ann', friends: ['ann', 'bob'] });
    const read = denormalize(User, result, entities) as User;
    assert.equal(read.friends[0], read);
    assert.equal(read.friends[1]!.friends[0], read);
  });

  it('treats __proto__, constructor and hasOwnProperty as data', () => {
    class Thing extends Entity {
      id = '';
      pk() {
        return this.id;
      }
      static key = '__proto__';
    }
    const input = JSON.parse(
      '[{"id":"__proto__","constructor":1},{"id":"constructor"},{"id":"hasOwnProperty","__proto__":{"polluted":true}}]',
    );
    const { result, entities } = normalize([Thing], input);
    assert.deepEqual(result, ['__proto__', 'constructor', 'hasOwnProperty']);
    assert.equal(Object.getPrototypeOf(entities), Object.prototype);
    const table = Object.getOwnPropertyDescriptor(entities, '__proto__')!.value as Record<
      string,
      unknown
    >;
    assert.deepEqual(Object.keys(table), ['__proto__', 'constructor', 'hasOwnProperty']);
    const read = denormalize([Thing], result, entities) as Thing[];
    assert.equal(read.length, 3);
    assert.ok(read.every((thing) => thing instanceof Thing));
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted'), false);
  });

  it('errors say what and where: a missing pk deep in the response', () => {
    assert.throws(
      () =>
        normalize(
          { results: [Article] },
          {
            results: [
              { id: 'a', author: { id: 'u' } },
              { id: 'b', author: { name: 'x' } },
            ],
          },
        ),
      (error: Error) =>
        error instanceof NormalizeError &&
        /Entity User has no pk\(\): got undefined from \{"name":"x"\}/.test(error.message) &&
        error.path === 'response.results[1].author',
    );
  });

  it('errors inside a Union member name its place once: in a list, in Values, in a field', () => {
    const member = new UnionSchema({ todo: Todo, comment: Comment }, 'type');
    class Pin extends Entity {
      id = '';
      target: unknown = null;
      pk() {
        return this.id;
      }
      static override key = 'Pin';
      static override schema = { target: member };
    }
    const pathOf = (schema: unknown, input: unknown): string => {
      try {
        normalize(schema, input);
      } catch (error) {
        assert.ok(error instanceof NormalizeError);
        assert.ok(error.message.endsWith(` at ${error.path}`), error.message);
        return error.path;
      }
      return assert.fail('expected a NormalizeError');
    };
    const noPk = { type: 'todo', title: 'no id' };
    const badAuthor = { type: 'comment', id: 'c', author: [1] };
    assert.equal(pathOf([member], [{ type: 'todo', id: '1' }, noPk]), 'response[1]');
    assert.equal(pathOf([member], [badAuthor]), 'response[0].author');
    assert.equal(
      pathOf({ byId: new ValuesSchema(member) }, { byId: { x: noPk } }),
      'response.byId.x',
    );
    assert.equal(pathOf([Pin], [{ id: 'p', target: noPk }]), 'response[0].target');
    assert.equal(pathOf(member, noPk), 'the response');
  });

  it('errors on null or an array where an entity is expected', () => {
    assert.throws(() => normalize(Todo, null), /Expected a Todo object, got null/);
    assert.throws(
      () => normalize(Todo, 'hello'),
      /Expected a Todo object, got a string at the response/,
    );
    assert.throws(() => normalize(Todo, 7), /Expected a Todo object, got a number/);
    assert.throws(
      () => normalize(Todo, [{ id: '1' }]),
      /Entity Todo expected an object, got an array/,
    );
    assert.throws(() => normalize([Todo], { id: '1' }), /expected an array, got an object/);
  });

  it('a failure of a schema hook is told with its entity and place; a stack overflow as nesting', () => {
    class Stamped extends Entity {
      id = '';
      pk() {
        return this.id;
      }
      static key = 'Stamped';
      static process(input: Record<string, unknown>) {
        if (input.id === 'loop') {
          // Runs out of stack, as a process() that recurses without end does.
          const down = (n: number): number => down(n + 1) + 1;
          down(0);
        }
        return { ...input, at: new Date(String(input.at)).toISOString() };
      }
      static merge(older: Record<string, unknown>, newer: Record<string, unknown>) {
        if (newer.at === older.at) throw new ReferenceError('same instant twice');
        return { ...older, ...newer };
      }
    }
    const fails = (input: unknown, message: string, path: string, cause: ErrorConstructor) =>
      assert.throws(
        () => normalize({ list: [Stamped] }, { list: input }),
        (error: Error) => {
          assert.ok(error instanceof NormalizeError, String(error));
          assert.equal(error.message, message);
          assert.equal(error.path, path);
          assert.equal((error.cause as Error).constructor, cause);
          return true;
        },
      );
    const at = '2026-01-02T00:00:00.000Z';
    fails(
      [
        { id: '1', at },
        { id: '2', at: 'soon' },
      ],
      'Entity Stamped: Invalid time value at response.list[1]',
      'response.list[1]',
      RangeError,
    );
    // merge runs where its entity is, once its fields are done: the place says which.
    fails(
      [
        { id: '1', at },
        { id: '1', at },
      ],
      'same instant twice at response.list[1]',
      'response.list[1]',
      ReferenceError,
    );
    assert.throws(
      () => normalize({ list: [Stamped] }, { list: [{ id: 'loop', at }] }),
      (error: Error) =>
        error instanceof NormalizeError &&
        /^The response is nested too deeply \(.+\) at response\.list\[0\]$/.test(error.message) &&
        error.cause instanceof RangeError,
    );
  });

  it('leaves the given store untouched when it throws', () => {
    const store = normalize([Todo], [{ id: '1', title: 'keep' }]);
    const snapshot = JSON.stringify(store);
    assert.throws(() =>
      normalize([Todo], [{ id: '1', title: 'changed' }, { title: 'no pk' }], [], store),
    );
    assert.equal(JSON.stringify(store), snapshot);
  });

  it('takes a pk in place of a nested entity object', () => {
    const { entities } = normalize(Todo, { id: '1', assignee: 'u9' });
    assert.equal((entities.Todo!['1'] as Record<string, unknown>).assignee, 'u9');
  });

  it('handles nesting 1,000 deep and 10,000 entities in one response', () => {
    type Node = { id: string; friends: Node[] };
    let deep: Node = { id: 'leaf', friends: [] };
    for (let i = 0; i < 1000; i++) deep = { id: `n${i}`, friends: [deep] };
    const nested = normalize(User, deep);
    assert.equal(Object.keys(nested.entities.User!).length, 1001);
    const wide = Array.from({ length: 10_000 }, (_, i) => ({ id: String(i), title: `t${i}` }));
    const many = normalize([Todo], wide);
    assert.equal((many.result as string[]).length, 10_000);
    assert.equal((denormalize([Todo], many.result, many.entities) as Todo[]).length, 10_000);
  });

  describe('owned tables', () => {
    it('copies a table it does not own once, then updates the copy in place', () => {
      const owned = new WeakSet<object>();
      const first = normalize([Todo], [{ id: '1' }, { id: '2' }], [], undefined, {}, { owned });
      const table = first.entities.Todo!;
      assert.ok(owned.has(table), 'the new table is owned');
      const second = normalize(
        Todo,
        { id: '2', title: 'x' },
        [],
        first,
        { fetchedAt: Date.now() + 1 },
        { owned },
      );
      assert.equal(second.entities.Todo, table, 'updated in place');
      assert.deepEqual(table['2'], { id: '2', title: 'x' });
      assert.deepEqual(table['1'], { id: '1' });
    });

    it('leaves owned tables exactly as they were when the payload throws', () => {
      const owned = new WeakSet<object>();
      const store = normalize([Todo], [{ id: '1', title: 'keep' }], [], undefined, {}, { owned });
      const snapshot = JSON.stringify(store.entities);
      assert.throws(() =>
        normalize(
          [Todo],
          [{ id: '1', title: 'changed' }, { id: '3' }, { title: 'no pk' }],
          [],
          store,
          { fetchedAt: Date.now() + 1 },
          { owned },
        ),
      );
      assert.equal(JSON.stringify(store.entities), snapshot);
    });

    it('without owned tables, never writes in place', () => {
      const store = normalize([Todo], [{ id: '1' }]);
      const table = store.entities.Todo!;
      const next = normalize(Todo, { id: '1', title: 'y' }, [], store, {
        fetchedAt: Date.now() + 1,
      });
      assert.notEqual(next.entities.Todo, table);
      assert.deepEqual(table['1'], { id: '1' });
    });

    it('collections see writes of the same payload to owned tables', () => {
      const owned = new WeakSet<object>();
      let store = normalize(todoList, [{ id: '1' }], [{}], undefined, {}, { owned });
      store = normalize(
        todoList.push,
        { id: '2' },
        [{}, {}],
        store,
        { fetchedAt: Date.now() + 1 },
        { owned },
      );
      store = normalize(
        todoList.push,
        { id: '3' },
        [{}, {}],
        store,
        { fetchedAt: Date.now() + 2 },
        { owned },
      );
      assert.deepEqual(store.entities['[Todo]']!['{}'], ['1', '2', '3']);
      assert.deepEqual(Object.keys(store.entities.Todo!).sort(), ['1', '2', '3']);
    });
  });
});
