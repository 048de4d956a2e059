import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import * as schema from './namespace.js';
import { Entity } from './entity.js';
import { INVALID } from './types.js';
import type { EntityTable } from './types.js';
import { normalize } from '../normalize/normalize.js';
import { denormalize } from '../normalize/denormalizer.js';
import { visitEntities } from '../normalize/visit-entities.js';
import { Todo, User, todoList } from '../test-utils/entities.js';

describe('schema.Array and the [S] shorthand', () => {
  for (const [name, arraySchema] of [
    ['schema.Array', new schema.Array(Todo)],
    ['[Todo]', [Todo]],
  ] as const) {
    it(`${name} normalizes each member and reads them back`, () => {
      const { result, entities } = normalize(arraySchema, [{ id: '1' }, { id: '2' }]);
      assert.deepEqual(result, ['1', '2']);
      const todos = denormalize(arraySchema, result, entities) as Todo[];
      assert.deepEqual(
        todos.map((todo) => todo instanceof Todo && todo.id),
        ['1', '2'],
      );
    });
  }

  it('[Todo] says where an object stood in place of an array', () => {
    assert.throws(
      () => normalize({ items: [Todo] }, { items: { id: '1' } }),
      /expected an array, got an object at response\.items/,
    );
  });

  it('schema.Array leaves out null and undefined members; [Todo] keeps them', () => {
    const input = [null, { id: '1' }, undefined];
    const dropped = normalize(new schema.Array(Todo), input);
    assert.deepEqual(dropped.result, ['1']);
    const read = denormalize(new schema.Array(Todo), dropped.result, dropped.entities) as Todo[];
    assert.deepEqual(
      read.map((todo) => todo instanceof Todo && todo.id),
      ['1'],
    );
    // An object given for its values, and members nested in an object schema, too.
    assert.deepEqual(normalize(new schema.Array(Todo), { a: null, b: { id: '2' } }).result, ['2']);
    assert.deepEqual(
      normalize({ items: new schema.Array(Todo) }, { items: [{ id: '3' }, null] }).result,
      { items: ['3'] },
    );
    const kept = normalize([Todo], input);
    assert.deepEqual(kept.result, [null, '1', undefined]);
    const keptRead = denormalize([Todo], kept.result, kept.entities) as unknown[];
    assert.equal(keptRead.length, 2);
    assert.equal(keptRead[0], null);
    assert.ok(keptRead[1] instanceof Todo);
  });

  // Issue 15 item 9: schema.Array takes an object as the list of its values (as the reference).
  it('schema.Array normalizes the values of an object given in place of an array', () => {
    const { result, entities } = normalize(
      { items: new schema.Array(Todo) },
      { items: { a: { id: '1' }, b: { id: '2' } } },
    );
    assert.deepEqual(result, { items: ['1', '2'] });
    assert.deepEqual(Object.keys(entities.Todo!), ['1', '2']);
  });
});

describe('schema.Object and the plain-object shorthand', () => {
  it('normalizes named members and passes the others through', () => {
    const page = { results: todoList, total: 0 };
    const { result, entities } = normalize(
      page,
      { results: [{ id: '1' }], total: 1, next: 'abc' },
      [{ userId: 1 }],
    );
    assert.deepEqual(result, { results: '{"userId":"1"}', total: 1, next: 'abc' });
    const read = denormalize(page, result, entities) as {
      results: Todo[];
      total: number;
      next: string;
    };
    assert.equal(read.total, 1);
    assert.equal(read.next, 'abc');
    assert.ok(read.results[0] instanceof Todo);
  });

  it('schema.Object behaves like the shorthand', () => {
    const objectSchema = new schema.Object({ user: User });
    const { result, entities } = normalize(objectSchema, { user: { id: 'u' }, meta: 1 });
    assert.deepEqual(result, { user: 'u', meta: 1 });
    assert.ok((denormalize(objectSchema, result, entities) as { user: User }).user instanceof User);
  });

  it('says where an array stood in place of an object', () => {
    assert.throws(
      () => normalize({ page: { user: User } }, { page: [] }),
      /expected an object, got an array at response\.page/,
    );
  });

  it('[] and other default values are members that pass through as the response has them', () => {
    const page = {
      results: new schema.Collection([Todo]),
      tags: [],
      total: 0,
      next: '',
      none: null,
    };
    for (const tags of [['a', { b: 1 }], [], 'a,b', { a: 1 }]) {
      const response = { results: [{ id: '1' }], tags, total: 1, next: 'x', none: 'y' };
      const { result, entities } = normalize(page, response, [{}]);
      assert.deepEqual((result as { tags: unknown }).tags, tags);
      const read = denormalize(page, result, entities) as typeof response & { results: Todo[] };
      assert.deepEqual(read.tags, tags);
      assert.deepEqual([read.total, read.next, read.none], [1, 'x', 'y']);
      assert.ok(read.results[0] instanceof Todo);
      // What the garbage collector keeps: the list and its entity.
      const reached: string[] = [];
      visitEntities(page, result, entities, [], (key, pk) => reached.push(`${key} ${pk}`));
      assert.deepEqual(reached, ['[Todo] {}', 'Todo 1']);
    }
    // A response without the member is left without it: no default is filled in.
    const { result } = normalize(page, { results: [] }, [{}]);
    assert.deepEqual(Object.keys(result as object), ['results']);
  });

  it("[] in an entity's schema is a field that passes through", () => {
    class Tagged extends Entity {
      id = '';
      tags: unknown[] = [];
      pk() {
        return this.id;
      }
      static key = 'Tagged';
      static schema = { tags: [] };
    }
    const { result, entities } = normalize([Tagged], [{ id: '1', tags: ['a', 1] }]);
    assert.deepEqual(entities.Tagged!['1'], { id: '1', tags: ['a', 1] });
    const [read] = denormalize([Tagged], result, entities) as Tagged[];
    assert.ok(read instanceof Tagged);
    assert.deepEqual(read.tags, ['a', 1]);
  });

  it('an INVALID member makes the whole object INVALID', () => {
    const shape = { user: User };
    const store = normalize(shape, { user: { id: 'u' } });
    const gone = normalize(new schema.Invalidate(User), 'u', [], store, {
      fetchedAt: Date.now() + 1,
    });
    assert.equal(denormalize(shape, store.result, gone.entities), INVALID);
  });
});

describe('schema.Values', () => {
  it('normalizes a map of entities and drops INVALID ones when read', () => {
    const values = new schema.Values(Todo);
    const store = normalize(values, { a: { id: '1' }, b: { id: '2' } });
    assert.deepEqual(store.result, { a: '1', b: '2' });
    const gone = normalize(new schema.Invalidate(Todo), '2', [], store, {
      fetchedAt: Date.now() + 1,
    });
    const read = denormalize(values, store.result, gone.entities) as Record<string, Todo>;
    assert.deepEqual(Object.keys(read), ['a']);
    assert.ok(read.a instanceof Todo);
  });
});

describe('schema.Union', () => {
  class Group extends Entity {
    id = '';
    type = 'group';
    pk() {
      return this.id;
    }
    static key = 'Group';
  }
  const member = new schema.Union({ user: User, group: Group }, 'type');

  it('stores each member under its own entity key, chosen by the type field', () => {
    const { result, entities } = normalize(
      [member],
      [
        { id: '1', type: 'user' },
        { id: '1', type: 'group' },
      ],
    );
    assert.deepEqual(result, [
      { id: '1', schema: 'user' },
      { id: '1', schema: 'group' },
    ]);
    const read = denormalize([member], result, entities) as unknown[];
    assert.ok(read[0] instanceof User);
    assert.ok(read[1] instanceof Group);
  });

  // Issue 15 item 6: an unknown type passes through (a newer server), with a warning that names
  // the field and the choices.
  it('keeps a value of an unknown type as it is, warning with the field and the choices', (t) => {
    const warn = t.mock.method(console, 'warn', () => {});
    const { result, entities } = normalize(member, { id: '1', type: 'robot' });
    assert.deepEqual(result, { id: '1', type: 'robot' });
    assert.deepEqual(entities, {});
    assert.match(
      String(warn.mock.calls[0]?.arguments[0]),
      /Union of user, group: .*"robot".* names none of them \(field "type"\)/,
    );
  });
});

describe('schema.Invalidate', () => {
  const invalidate = new schema.Invalidate(Todo);

  it('takes a pk string and marks that entity INVALID', () => {
    const store = normalize(Todo, { id: '1' });
    const { entities } = normalize(invalidate, '1', [], store, { fetchedAt: Date.now() + 1 });
    assert.equal(entities.Todo!['1'], INVALID);
  });

  it('takes an object and computes the pk with the entity pk()', () => {
    const store = normalize(Todo, { id: '1' });
    const { result, entities } = normalize(invalidate, { id: 1 }, [], store, {
      fetchedAt: Date.now() + 1,
    });
    assert.equal(entities.Todo!['1'], INVALID);
    // The response reads back as an entity built from what the call gave.
    const read = denormalize(invalidate, result, entities) as Todo;
    assert.ok(read instanceof Todo);
    assert.equal(read.id, 1);
  });

  it('says when no pk can be computed', () => {
    assert.throws(
      () => normalize(invalidate, { title: 'x' }),
      /Invalidate\(Todo\) could not compute a pk from \{"title":"x"\}/,
    );
  });

  it('batch: [Invalidate] marks each one', () => {
    const store = normalize([Todo], [{ id: '1' }, { id: '2' }, { id: '3' }]);
    const { entities } = normalize([invalidate], [{ id: '1' }, { id: '3' }], [], store, {
      fetchedAt: Date.now() + 1,
    });
    assert.deepEqual(entities.Todo, { '1': INVALID, '2': { id: '2' }, '3': INVALID });
  });
});

describe('schema.Invalidate of a Union', () => {
  class Link extends Entity {
    id = '';
    type = 'link';
    pk() {
      return this.id;
    }
    static override key = 'Link';
  }
  class Post extends Entity {
    id = '';
    type = 'post';
    pk() {
      return this.id;
    }
    static override key = 'Post';
  }
  const feed = new schema.Union({ link: Link, post: Post }, 'type');

  it('invalidates the member the input names, at the top and nested', () => {
    const top = normalize(new schema.Invalidate(feed), { id: '5', type: 'link' });
    assert.deepEqual(top.entities, { Link: { 5: INVALID } });
    const removed = denormalize(new schema.Invalidate(feed), top.result, top.entities);
    assert.ok(removed instanceof Link);
    const nested = normalize([new schema.Invalidate(feed)], [{ id: '5', type: 'post' }]);
    assert.deepEqual(nested.result, [{ id: '5', schema: 'post' }]);
    const entities: EntityTable = { Post: { 5: INVALID, 6: { id: '6', type: 'post' } } };
    const read = denormalize(
      [new schema.Invalidate(feed)],
      [...(nested.result as unknown[]), { id: '6', schema: 'post' }],
      entities,
    ) as Post[];
    assert.deepEqual(
      read.map((item) => item.id),
      ['6'],
    );
  });

  it('a bare pk or an object naming no member says which field is missing', () => {
    assert.throws(() => normalize(new schema.Invalidate(feed), { id: '5' }), /"type" field/);
    assert.throws(() => normalize([new schema.Invalidate(feed)], ['5']), /"type" field/);
  });
});
