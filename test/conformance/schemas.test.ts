// Translated from reactive/data-client packages/endpoint/src/schemas/__tests__/: Invalidate.test.ts,
// Union.test.js, Array.test.js, Object.test.js, Values.test.js, Collection.test.ts.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { INVALID, MemoCache, denormalize, normalize, schema } from '../../src/core/index.js';
import type { EntityTable, NormalizedStore } from '../../src/core/index.js';
import { IDEntity, differs, plain, withoutMeta } from './support.js';

class User extends IDEntity {
  username = '';
  type = '';
  static override key = 'User';
}
class Group extends IDEntity {
  groupname = '';
  static override key = 'Group';
}
class Cat extends IDEntity {
  name = '';
  static override key = 'Cat';
}

describe('endpoint Invalidate.test.ts', () => {
  describe('Invalidate normalization', () => {
    it('throws if not given an entity', () => {
      assert.throws(
        () => new (schema.Invalidate as unknown as new () => unknown)(),
        /schema.Invalidate takes an Entity class or schema.Union/,
      );
    });

    it('normalizes an object', () => {
      const out = normalize(new schema.Invalidate(User), { id: '1', type: 'users' });
      assert.deepEqual(out.entities, { User: { 1: INVALID } });
    });

    it('normalizes already processed entities', () => {
      assert.deepEqual(normalize(new schema.Invalidate(User), '1').entities, {
        User: { 1: INVALID },
      });
      const out = normalize(new schema.Array(new schema.Invalidate(User)), ['1', '2']);
      assert.deepEqual(out.result, ['1', '2']);
      assert.deepEqual(out.entities, { User: { 1: INVALID, 2: INVALID } });
    });

    it('normalizes number input within array (already processed pk)', () => {
      const out = normalize(new schema.Array(new schema.Invalidate(User)), [1, 2, 3]);
      assert.deepEqual(out.result, ['1', '2', '3']);
      assert.deepEqual(Object.keys(out.entities.User!), ['1', '2', '3']);
    });

    it('should throw a custom error if data does not include pk', () => {
      assert.throws(
        () => normalize(new schema.Invalidate(User), { secondthing: 'hi' }),
        /Invalidate\(User\) could not compute a pk from \{"secondthing":"hi"\}/,
      );
    });

    // Issue 15 item 3: nested in an object or array schema, normalize gives the pk.
    it('normalizes to the pk inside an object or array schema', () => {
      const out = normalize({ data: new schema.Invalidate(User) }, { data: { id: '1' } });
      assert.deepEqual(out.result, { data: '1' });
      assert.deepEqual(normalize([new schema.Invalidate(User)], [{ id: '7' }]).result, ['7']);
    });
  });

  describe('Invalidate denormalization', () => {
    const entities = { User: { 1: { id: '1', username: 'Janey', type: 'users' } } };

    it('denormalizes an object in the same manner as the Entity', () => {
      const user = new MemoCache().denormalize(new schema.Invalidate(User), '1', entities) as User;
      assert.ok(user instanceof User);
      assert.equal(user.username, 'Janey');
    });

    for (const [construction, makeArray, makeObject] of [
      [
        'class',
        (s: unknown) => new schema.Array(s as never),
        (s: Record<string, unknown>) => new schema.Object(s),
      ],
      ['object, direct', (s: unknown) => [s], (s: Record<string, unknown>) => s],
    ] as const) {
      describe(`schema construction (${construction})`, () => {
        const gone: EntityTable = { User: { 1: INVALID } };

        it('denormalizes deleted entities as symbol', () => {
          assert.equal(denormalize(new schema.Invalidate(User), '1', gone), INVALID);
          assert.equal(
            denormalize(makeObject({ data: new schema.Invalidate(User) }), { data: '1' }, gone),
            INVALID,
          );
        });

        // Issue 15 item 3: invalidated entries are dropped.
        it('denormalize removes deleted entries in array', () => {
          const memo = new MemoCache();
          assert.deepEqual(
            memo.denormalize(
              makeArray(makeObject({ data: new schema.Invalidate(User) })),
              [{ data: '1' }],
              gone,
            ),
            [],
          );
          assert.deepEqual(
            memo.denormalize(makeArray(makeObject({ data: User })), [{ data: '1' }], gone),
            [],
          );
          assert.deepEqual(
            memo.denormalize(makeArray(new schema.Invalidate(User)), ['1'], gone),
            [],
          );
        });

        it('denormalize sets undefined entities that are not present', () => {
          assert.deepEqual(
            denormalize(
              makeArray(makeObject({ data: new schema.Invalidate(User) })),
              [{ data: '1' }],
              {},
            ),
            [{ data: undefined }],
          );
          assert.deepEqual(
            denormalize(makeArray(makeObject({ data: User })), [{ data: '1' }], {}),
            [{ data: undefined }],
          );
          assert.deepEqual(denormalize(makeObject({ data: User }), { data: '1' }, {}), {
            data: undefined,
          });
        });
      });
    }
  });
});

describe('endpoint Union.test.js', () => {
  describe('Union normalization', () => {
    // Issue 15 item 6.
    it('throws if not given a schemaAttribute', () => {
      assert.throws(() => new schema.Union({}), /schema.Union needs at least one entity type/);
    });

    it('normalizes an object using string schemaAttribute', () => {
      const union = new schema.Union({ users: User, groups: Group }, 'type');
      assert.deepEqual(normalize(union, { id: '1', type: 'users' }).result, {
        id: '1',
        schema: 'users',
      });
      const groups = normalize(union, { id: '2', type: 'groups' });
      assert.deepEqual(groups.result, { id: '2', schema: 'groups' });
      assert.deepEqual(groups.entities, { Group: { 2: { id: '2', type: 'groups' } } });
    });

    it('normalizes an array of multiple entities using a function to infer the schemaAttribute', (t) => {
      const warn = t.mock.method(console, 'warn', () => {});
      const union = new schema.Union({ users: User, groups: Group }, (input) =>
        input.username ? 'users' : input.groupname ? 'groups' : (null as never),
      );
      assert.deepEqual(normalize(union, { id: '1', username: 'Janey' }).result, {
        id: '1',
        schema: 'users',
      });
      assert.deepEqual(normalize(union, { id: '2', groupname: 'People' }).result, {
        id: '2',
        schema: 'groups',
      });
      // Issue 15 item 6: an unknown type passes through, with a warning.
      const unknown = normalize(union, { id: '3', notdefined: 'yep' });
      assert.deepEqual(unknown.result, { id: '3', notdefined: 'yep' });
      assert.deepEqual(unknown.entities, {});
      assert.equal(warn.mock.callCount(), 1);
    });
  });

  describe('complex case', () => {
    it('works with undefined', (t) => {
      t.mock.method(console, 'warn', () => {});
      class Sequence extends IDEntity {
        static override key = 'Sequence';
        override pk(): string {
          return String((this as unknown as { sequence_id: number }).sequence_id);
        }
      }
      const union = new schema.Union({ temporal_mean_shift: Sequence }, 'sequence_type');
      const out = normalize(
        { sequences: [union] },
        { sequences: [null, undefined, { sequence_id: 22, sequence_type: 'temporal_mean_shift' }] },
      );
      assert.deepEqual(out.result, {
        sequences: [null, undefined, { id: '22', schema: 'temporal_mean_shift' }],
      });
    });
  });

  describe('Union denormalization', () => {
    const entities = {
      User: { 1: { id: '1', username: 'Janey', type: 'users' } },
      Group: { 2: { id: '2', groupname: 'People', type: 'groups' } },
    };
    const union = new schema.Union({ users: User, groups: Group }, (input) =>
      input.username ? 'users' : input.groupname ? 'groups' : (undefined as never),
    );

    it('denormalizes an object using string schemaAttribute', () => {
      const byType = new schema.Union({ users: User, groups: Group }, 'type');
      assert.ok(denormalize(byType, { id: '1', schema: 'users' }, entities) instanceof User);
      assert.ok(denormalize(byType, { id: '2', schema: 'groups' }, entities) instanceof Group);
    });

    it('denormalizes an array of multiple entities using a function to infer the schemaAttribute', () => {
      const out = denormalize(
        [union],
        [
          { id: '1', schema: 'users' },
          { id: '2', schema: 'groups' },
        ],
        entities,
      ) as unknown[];
      assert.ok(out[0] instanceof User);
      assert.ok(out[1] instanceof Group);
    });

    // Issue 15 item 6: `{ id }` without `schema` is shown as it is.
    it('returns the original value when no schema is given', () => {
      assert.deepEqual(denormalize(union, { id: '1' }, entities), { id: '1' });
      assert.deepEqual(new MemoCache().denormalize(union, { id: '1' }, entities), { id: '1' });
    });

    it('returns the original value when string is given', () => {
      assert.equal(denormalize(union, '1', entities), '1');
    });

    it('returns the original value when null is given', () => {
      assert.equal(denormalize(union, null, entities), null);
    });

    it('returns the original value when undefined is given', () => {
      assert.equal(denormalize(union, undefined, entities), undefined);
    });
  });
});

describe('endpoint Array.test.js', () => {
  it('normalizes plain arrays as shorthand for schema.Array', () => {
    assert.deepEqual(normalize([User], [{ id: '1' }, { id: '2' }]).result, ['1', '2']);
  });

  // Issue 15 item 9.
  it('throws an error if created with more than one schema', () => {
    assert.throws(
      () => normalize([Cat, User], [{ id: '1' }]),
      /An array schema takes one member schema, got 2: for several types use new schema\.Union/,
    );
  });

  for (const [name, make] of [
    ['schema', (s: typeof User) => new schema.Array(s)],
    ['plain', (s: typeof User) => [s]],
  ] as const) {
    describe(`ArraySchema normalization (${name})`, () => {
      it('should throw a custom error if data loads with string unexpected value', () => {
        assert.throws(() => normalize(make(User), 'abc'), { name: 'NormalizeError' });
      });

      // Issue 15 item 9: JSON text where a parsed value is expected gets a hint.
      it('should throw a custom error if data loads with json string unexpected value', () => {
        assert.throws(() => normalize(make(User), '[{"id":5}]'), /JSON text: parse it first/);
      });

      it('passes its parent to its children when normalizing', () => {
        class Child extends IDEntity {
          content = '';
          static override key = 'Child';
          static override process(
            input: Record<string, unknown>,
            parent?: unknown,
            key?: string,
          ): Record<string, unknown> {
            return { ...input, parentId: (parent as { id: string }).id, parentKey: key };
          }
        }
        class Parent extends IDEntity {
          static override key = 'Parent';
          static override schema = { children: [Child] };
        }
        const out = normalize(Parent, { id: '1', children: [{ id: 4, content: 'child' }] });
        // A member sees the array's parent and key (normalizr's own test gives 1 and 'children').
        assert.deepEqual(out.entities.Child, {
          4: { id: 4, content: 'child', parentId: '1', parentKey: 'children' },
        });
      });

      it('filters out undefined and null normalized values', () => {
        const out = normalize(make(User), [undefined, { id: '123' }, null]);
        // schema.Array leaves them out; the [S] shorthand keeps them.
        assert.deepEqual(out.result, name === 'schema' ? ['123'] : [undefined, '123', null]);
        assert.deepEqual(Object.keys(out.entities.User!), ['123']);
      });
    });
  }

  it('ArraySchema normalization (schema) normalizes Objects using their values', () => {
    const out = normalize(new schema.Array(User), { foo: { id: '1' }, bar: { id: '2' } });
    assert.deepEqual(out.result, ['1', '2']);
  });

  it(
    'ArraySchema normalization (plain) normalizes Objects using their values',
    differs(
      'docs/differences.md (the [S] shorthand refuses an object where an array is expected): the [S] shorthand refuses an object; schema.Array takes its values',
    ),
    () => {},
  );

  for (const [name, make, makeObject] of [
    [
      'class',
      (s: unknown) => new schema.Array(s as never),
      (s: Record<string, unknown>) => new schema.Object(s),
    ],
    ['object, direct', (s: unknown) => [s], (s: Record<string, unknown>) => s],
  ] as const) {
    describe(`ArraySchema denormalization (${name})`, () => {
      const entities = {
        Cat: { 1: { id: '1', name: 'Milo' }, 2: { id: '2', name: 'Jake' } },
      };

      it('denormalizes a single entity', () => {
        const out = denormalize(make(Cat), ['1', '2'], entities) as Cat[];
        assert.ok(out[0] instanceof Cat);
        assert.deepEqual(plain(out), [
          { id: '1', name: 'Milo' },
          { id: '2', name: 'Jake' },
        ]);
      });

      it('denormalizes plain arrays with nothing inside', () => {
        assert.deepEqual(denormalize(make(Cat), [], entities), []);
      });

      it('denormalizes non-array as identity', () => {
        assert.equal(denormalize(make(Cat), '1', entities), '1');
      });

      it('denormalizes nested in object', () => {
        const out = denormalize(
          makeObject({ results: make(Cat) }),
          { results: ['1', '2'] },
          entities,
        ) as { results: Cat[] };
        assert.equal(out.results.length, 2);
        assert.ok(out.results[1] instanceof Cat);
      });

      it('denormalizes nested in object with primitive', () => {
        const out = denormalize(
          makeObject({ results: make(Cat), nextPage: '' }),
          { results: ['1', '2'], nextPage: 'blob' },
          entities,
        ) as { nextPage: string };
        assert.equal(out.nextPage, 'blob');
      });

      it('denormalizes removes undefined but not null', () => {
        const out = denormalize(
          makeObject({ results: make(Cat), nextPage: '' }),
          { results: ['1', undefined, '2', null] },
          entities,
        ) as { results: unknown[] };
        assert.equal(out.results.length, 3);
        assert.equal(out.results[2], null);
      });

      it('denormalizes with missing entity should have true second value', () => {
        const out = denormalize(
          makeObject({ results: make(Cat) }),
          { results: ['1', '5'] },
          entities,
        );
        assert.deepEqual(plain(out), { results: [{ id: '1', name: 'Milo' }] });
      });

      it('returns the input value if is not an array', () => {
        assert.deepEqual(denormalize(make(Cat), { a: 1 }, entities), { a: 1 });
      });
    });
  }

  describe('nested polymorphic schemas', () => {
    it('Array of Array normalizes without hoisting', () => {
      const out = normalize(new schema.Array(new schema.Array(User)), [
        [{ id: '1' }],
        [{ id: '2' }],
      ]);
      assert.deepEqual(out.result, [['1'], ['2']]);
    });

    it('Array of Union normalizes with hoisting', () => {
      const union = new schema.Union({ users: User, groups: Group }, 'type');
      const out = normalize(new schema.Array(union), [{ id: '1', type: 'users' }]);
      assert.deepEqual(out.result, [{ id: '1', schema: 'users' }]);
    });

    it('Array of Invalidate normalizes without hoisting (calls invalidate)', () => {
      const out = normalize(new schema.Array(new schema.Invalidate(User)), [
        { id: '1' },
        { id: '2' },
      ]);
      assert.deepEqual(out.result, ['1', '2']);
      assert.deepEqual(out.entities, { User: { 1: INVALID, 2: INVALID } });
    });
  });
});

describe('endpoint Object.test.js', () => {
  it('normalizes an object', () => {
    const out = normalize(new schema.Object({ user: User }), { user: { id: '1' } });
    assert.deepEqual(withoutMeta(out), {
      result: { user: '1' },
      entities: { User: { 1: { id: '1' } } },
    });
  });

  it('normalizes plain objects as shorthand for schema.Object', () => {
    assert.deepEqual(normalize({ user: User }, { user: { id: '1' } }).result, { user: '1' });
  });

  // Issue 15 item 9: no undefined members in a normalized object.
  it('filters out undefined and null values', () => {
    const out = normalize(new schema.Object({ foo: User, bar: User, baz: User }), {
      foo: undefined,
      bar: { id: '1' },
    });
    assert.deepEqual(out.result, { bar: '1' });
    assert.ok(!Object.prototype.hasOwnProperty.call(out.result, 'foo'));
  });

  it('denormalizes an object', () => {
    const out = denormalize(
      new schema.Object({ user: User }),
      { user: '1' },
      {
        User: { 1: { id: '1', username: 'Nacho' } },
      },
    ) as { user: User };
    assert.ok(out.user instanceof User);
  });

  it('denormalizes an object with plain members', () => {
    const out = denormalize(
      new schema.Object({ user: User, count: 0 }),
      { user: '1', count: 5 },
      { User: { 1: { id: '1' } } },
    ) as { count: number };
    assert.equal(out.count, 5);
  });

  it('should have found = true with null member even when schema has nested entity', () => {
    const out = denormalize(new schema.Object({ user: User }), { user: null }, {});
    assert.deepEqual(out, { user: null });
  });

  it('denormalizes plain object shorthand', () => {
    const out = denormalize(
      { user: User, tacos: {} },
      { user: '1', tacos: { a: 1 } },
      { User: { 1: { id: '1' } } },
    ) as { user: User; tacos: unknown };
    assert.ok(out.user instanceof User);
    assert.deepEqual(out.tacos, { a: 1 });
  });

  it('denormalizes an object that contains a property representing a an object with an id of zero', () => {
    const out = denormalize(
      new schema.Object({ user: User }),
      { user: 0 },
      {
        User: { 0: { id: 0 } },
      },
    ) as { user: User };
    assert.ok(out.user instanceof User);
    assert.equal(out.user.id, 0);
  });
});

describe('endpoint Values.test.js', () => {
  it(
    'normalizes without schemaAttribute',
    differs(
      'docs/differences.md: schema.Values holds one schema (polymorphic maps use schema.Values(union))',
    ),
    () => {},
  );

  it('normalizes the values of an object with the given schema', () => {
    const out = normalize(new schema.Values(Cat), { fido: { id: '1' }, milo: { id: '2' } });
    assert.deepEqual(out.result, { fido: '1', milo: '2' });
  });

  it('can use a function to determine the schema when normalizing', (t) => {
    t.mock.method(console, 'warn', () => {});
    const union = new schema.Union({ cats: Cat, users: User }, 'type');
    const out = normalize(new schema.Values(union), {
      fido: { id: '1', type: 'cats' },
      jane: { id: '2', type: 'users' },
    });
    assert.deepEqual(out.result, {
      fido: { id: '1', schema: 'cats' },
      jane: { id: '2', schema: 'users' },
    });
  });

  // Issue 15 item 9.
  it('filters out null and undefined values', () => {
    const out = normalize(new schema.Values(Cat), {
      fido: undefined,
      milo: null,
      fluffy: { id: '1' },
    });
    assert.deepEqual(out.result, { fluffy: '1' });
  });

  it('denormalizes the values of an object with the given schema', () => {
    const out = denormalize(
      new schema.Values(Cat),
      { fido: '1' },
      {
        Cat: { 1: { id: '1', name: 'Fido' } },
      },
    ) as Record<string, Cat>;
    assert.ok(out.fido instanceof Cat);
  });

  it('denormalizes with missing entity should have false second value', () => {
    const out = denormalize(
      new schema.Values(Cat),
      { fido: '1', milo: '2' },
      {
        Cat: { 1: { id: '1' } },
      },
    );
    assert.deepEqual(Object.keys(out as object), ['fido']);
  });

  it('denormalizes with deleted entity should just remove them', () => {
    const entities: EntityTable = { Cat: { 1: { id: '1' }, 2: INVALID } };
    const out = denormalize(new schema.Values(Cat), { fido: '1', milo: '2' }, entities);
    assert.deepEqual(Object.keys(out as object), ['fido']);
  });

  it('Values of Array normalizes without hoisting', () => {
    const out = normalize(new schema.Values([Cat]), { a: [{ id: '1' }], b: [{ id: '2' }] });
    assert.deepEqual(out.result, { a: ['1'], b: ['2'] });
  });

  it('Values of Invalidate normalizes without hoisting (calls invalidate)', () => {
    const out = normalize(new schema.Values(new schema.Invalidate(Cat)), { a: { id: '1' } });
    assert.deepEqual(out.result, { a: '1' });
    assert.deepEqual(out.entities, { Cat: { 1: INVALID } });
  });
});

describe('endpoint Collection.test.ts', () => {
  class Todo extends IDEntity {
    userId = 0;
    title = '';
    completed = false;
    static override key = 'Todo';
  }
  class Owner extends IDEntity {
    username = '';
    todos: Todo[] = [];
    static override key = 'Owner';
    static override schema = {
      todos: new schema.Collection([Todo], { nestKey: (parent) => ({ userId: parent.id }) }),
    };
  }
  const userTodos = new schema.Collection([Todo]);

  describe('Collection normalization', () => {
    it('should throw a custom error if data loads with string unexpected value', () => {
      assert.throws(
        () => normalize(userTodos, 'abc', [{ userId: '1' }]),
        /expected an array for collection \[Todo\], got a string/,
      );
    });

    // Issue 15 item 4: a Collection answered with null names the collection.
    it('should throw a custom error if data loads with null', () => {
      assert.throws(
        () => normalize(userTodos, null, [{ userId: '1' }]),
        /Expected a value for \[Todo\], got null/,
      );
    });

    it('normalizes nested collections', () => {
      const out = normalize(Owner, {
        id: '1',
        username: 'bob',
        todos: [{ id: '5', title: 'finish collections' }],
      });
      assert.deepEqual(out.entities, {
        '[Todo]': { '{"userId":"1"}': ['5'] },
        Todo: { 5: { id: '5', title: 'finish collections' } },
        Owner: { 1: { id: '1', username: 'bob', todos: '{"userId":"1"}' } },
      });
    });

    it('normalizes top level collections', () => {
      const out = normalize(
        userTodos,
        [{ id: '5', title: 'finish collections' }],
        [{ userId: '1' }],
      );
      assert.equal(out.result, '{"userId":"1"}');
      assert.deepEqual(out.entities['[Todo]'], { '{"userId":"1"}': ['5'] });
    });

    it('normalizes top level collections (no args)', () => {
      const out = normalize(new schema.Collection([Todo]), [{ id: '5' }]);
      assert.equal(out.result, '{}');
    });

    it('normalizes the same collection nested and top level', () => {
      const nested = normalize(Owner, { id: '1', todos: [{ id: '5' }] });
      const top = normalize(Owner.schema.todos, [{ id: '6' }], [{ userId: '1' }], nested);
      assert.deepEqual(top.entities['[Todo]'], { '{"userId":"1"}': ['6'] });
    });

    it('normalizes already processed entities', () => {
      const out = normalize(userTodos, ['5', '6'], [{ userId: '1' }]);
      assert.deepEqual(out.entities['[Todo]'], { '{"userId":"1"}': ['5', '6'] });
    });

    it('normalizes push onto the end', () => {
      const init = normalize(Owner, { id: '1', todos: [{ id: '5' }] });
      const out = normalize(Owner.schema.todos.push, [{ id: '10' }], [{ userId: '1' }], init);
      assert.deepEqual(out.entities['[Todo]'], { '{"userId":"1"}': ['5', '10'] });
    });

    it('normalizes unshift onto the start', () => {
      const init = normalize(Owner, { id: '1', todos: [{ id: '5' }] });
      const out = normalize(Owner.schema.todos.unshift, [{ id: '10' }], [{ userId: '1' }], init);
      assert.deepEqual(out.entities['[Todo]'], { '{"userId":"1"}': ['10', '5'] });
    });

    it('normalizes remove from collection', () => {
      const init = normalize(Owner, {
        id: '1',
        username: 'bob',
        todos: [
          { id: '5', title: 'finish collections' },
          { id: '6', title: 'another todo' },
        ],
      });
      // The todos hold no userId: the call's URL params fill it in (docs/differences.md).
      const out = normalize(
        Owner.schema.todos.remove,
        { id: '5', title: 'finish collections' },
        [{ userId: '1' }],
        init,
      );
      assert.deepEqual(out.entities['[Todo]'], { '{"userId":"1"}': ['6'] });
    });

    describe('move should remove from old collection and add to new', () => {
      const lists = new schema.Collection([Todo]);
      const read = (entities: EntityTable, userId: string) =>
        denormalize(lists, JSON.stringify({ userId }), entities) as Todo[];
      /** The lists { userId: '1' } and { userId: '2' }, each from its own GET. */
      function stored(...todos: { id: string; userId: number; title: string }[]): NormalizedStore {
        let state: NormalizedStore = { entities: {}, entitiesMeta: {} };
        for (const todo of todos) {
          state = normalize(lists, [todo], [{ userId: String(todo.userId) }], state);
        }
        return state;
      }

      it('moves entity between Array collections', () => {
        const state = stored(
          { id: '10', userId: 1, title: 'movable todo' },
          { id: '20', userId: 2, title: 'other todo' },
        );
        assert.equal(read(state.entities, '1').length, 1);
        assert.equal(read(state.entities, '2').length, 1);
        // PATCH /todos/10 { userId: 2 }, answered with the updated todo.
        const moved = normalize(
          lists.move,
          { id: '10', userId: 2, title: 'movable todo' },
          [{ id: '10' }, { userId: '2' }],
          state,
        );
        assert.deepEqual(read(moved.entities, '1'), []);
        assert.deepEqual(
          read(moved.entities, '2')
            .map((todo) => todo.id)
            .sort(),
          ['10', '20'],
        );
      });

      it('no-op when entity stays in same collection', () => {
        const state = stored({ id: '10', userId: 1, title: 'stays here' });
        const moved = normalize(
          lists.move,
          { id: '10', userId: 1, title: 'stays here updated' },
          [{ id: '10' }, { userId: '1' }],
          state,
        );
        const list = read(moved.entities, '1');
        assert.equal(list.length, 1);
        assert.equal(list[0]!.title, 'stays here updated');
      });

      it('handles single-arg endpoint (all values in one arg)', () => {
        const state = stored(
          { id: '10', userId: 1, title: 'single arg' },
          { id: '20', userId: 2, title: 'other' },
        );
        const moved = normalize(
          lists.move,
          { id: '10', userId: 2, title: 'single arg' },
          [{ id: '10', userId: '2' }],
          state,
        );
        assert.equal(read(moved.entities, '1').length, 0);
        assert.equal(read(moved.entities, '2').length, 2);
      });

      it('handles entity not in store yet', () => {
        // Nothing to take it out of: it only joins the list its values match.
        const state = stored({ id: '20', userId: 2, title: 'existing' });
        const moved = normalize(
          lists.move,
          { id: '10', userId: 2, title: 'new entity' },
          [{ id: '10' }, { userId: '2' }],
          state,
        );
        assert.equal(read(moved.entities, '2').length, 2);
      });
    });

    describe('push should add only to collections matching filterArgumentKeys', () => {
      const initializing = new schema.Collection([Todo]);
      let state: NormalizedStore = { entities: {}, entitiesMeta: {} };
      state = normalize(initializing, [{ id: '10' }], [{ userId: '1' }], state);
      state = normalize(initializing, [{ id: '10' }], [{ userId: '1', ignoredMe: '5' }], state);
      state = normalize(initializing, [{ id: '20' }], [{ userId: '2' }], state);
      state = normalize(initializing, [{ id: '10' }, { id: '20' }], [{}], state);

      function check(collection: schema.Collection<readonly [typeof Todo]>): void {
        const pushed = normalize(
          collection.push,
          [{ id: '30', title: 'pushed to the end' }],
          [{ userId: '1' }],
          state,
        );
        const read = (args: object) =>
          denormalize(
            collection,
            collection.pk(undefined, undefined, [args]),
            pushed.entities,
          ) as Todo[];
        assert.equal(read({ userId: '1' }).length, 2);
        assert.equal(read({ userId: '1' })[1]!.title, 'pushed to the end');
        assert.equal(read({}).length, 3);
        assert.equal(read({ ignoredMe: '5', userId: '1' }).length, 2);
        assert.equal(read({ userId: '2' }).length, 1);
      }

      // Issue 15 item 5: the options are honoured, not only subclass overrides.
      it('should work with function form', () => {
        check(
          new schema.Collection([Todo], {
            nonFilterArgumentKeys: (key) => key.startsWith('ignored'),
          }),
        );
      });
      it('should work with RegExp form', () => {
        check(new schema.Collection([Todo], { nonFilterArgumentKeys: /ignored/ }));
      });
      it('should work with array form', () => {
        check(new schema.Collection([Todo], { nonFilterArgumentKeys: ['ignoredMe'] }));
      });
      it('should work with full createCollectionFilter form', () => {
        check(
          new schema.Collection([Todo], {
            createCollectionFilter:
              (...args) =>
              (listArgs) =>
                Object.entries(listArgs).every(
                  ([key, value]) =>
                    key.startsWith('ignored') ||
                    `${(args[0] as Record<string, unknown>)?.[key]}` === value ||
                    `${(args[1] as Record<string, unknown> | undefined)?.[key]}` === value,
                ),
          }),
        );
      });
      it('should work with function override of nonFilterArgumentKeys', () => {
        class MyCollection extends schema.Collection<readonly [typeof Todo]> {
          override nonFilterArgumentKeys(key: string): boolean {
            return key.startsWith('ignored');
          }
        }
        check(new MyCollection([Todo]));
      });
      it('should work with function override of createCollectionFilter', () => {
        class MyCollection extends schema.Collection<readonly [typeof Todo]> {
          override createCollectionFilter(...args: readonly unknown[]) {
            return (listArgs: Record<string, unknown>) =>
              Object.entries(listArgs).every(
                ([key, value]) =>
                  key.startsWith('ignored') ||
                  `${(args[0] as Record<string, unknown>)[key]}` === value ||
                  `${(args[1] as Record<string, unknown> | undefined)?.[key]}` === value,
              );
          }
        }
        check(new MyCollection([Todo]));
      });
    });
  });

  describe('Collection denormalization', () => {
    const state = normalize(Owner, { id: '1', username: 'bob', todos: [{ id: '5', title: 'a' }] });

    it('denormalizes nested collections', () => {
      const owner = denormalize(Owner, '1', state.entities) as Owner;
      assert.ok(owner.todos[0] instanceof Todo);
    });

    it('denormalizes top level collections', () => {
      const todos = denormalize(Owner.schema.todos, '{"userId":"1"}', state.entities) as Todo[];
      assert.deepEqual(plain(todos), [{ id: '5', title: 'a', userId: 0, completed: false }]);
    });

    it('same collection denormalizes nested and top level with push propagation', () => {
      const pushed = normalize(Owner.schema.todos.push, [{ id: '6' }], [{ userId: '1' }], state);
      const owner = denormalize(Owner, '1', pushed.entities) as Owner;
      assert.deepEqual(
        owner.todos.map((todo) => todo.id),
        ['5', '6'],
      );
    });

    describe('caching', () => {
      it('denormalizes nested and top level share referential equality', () => {
        const memo = new MemoCache();
        const owner = memo.denormalize(Owner, '1', state.entities) as Owner;
        const top = memo.denormalize(Owner.schema.todos, '{"userId":"1"}', state.entities);
        assert.equal(owner.todos, top);
      });

      it('push updates cache', () => {
        const memo = new MemoCache();
        const before = memo.denormalize(Owner.schema.todos, '{"userId":"1"}', state.entities);
        const pushed = normalize(Owner.schema.todos.push, [{ id: '6' }], [{ userId: '1' }], state);
        const after = memo.denormalize(
          Owner.schema.todos,
          '{"userId":"1"}',
          pushed.entities,
        ) as Todo[];
        assert.notEqual(before, after);
        assert.equal(after.length, 2);
        assert.equal(after[0], (before as Todo[])[0]);
      });

      it('unshift places at start', () => {
        const pushed = normalize(
          Owner.schema.todos.unshift,
          [{ id: '6' }],
          [{ userId: '1' }],
          state,
        );
        const after = new MemoCache().denormalize(
          Owner.schema.todos,
          '{"userId":"1"}',
          pushed.entities,
        ) as Todo[];
        assert.deepEqual(
          after.map((todo) => todo.id),
          ['6', '5'],
        );
      });

      it('denormalizes unshift', () => {
        const out = normalize(Owner.schema.todos.unshift, [{ id: '6' }], [{ userId: '1' }], state);
        const created = denormalize(Owner.schema.todos.unshift, out.result, out.entities) as Todo[];
        assert.ok(created[0] instanceof Todo);
      });

      it('denormalizes unshift (single item)', () => {
        const out = normalize(Owner.schema.todos.unshift, { id: '6' }, [{ userId: '1' }], state);
        const created = denormalize(Owner.schema.todos.unshift, out.result, out.entities) as Todo;
        assert.ok(created instanceof Todo);
        assert.equal(created.id, '6');
      });
    });

    it('pk should serialize differently with nested args', () => {
      assert.notEqual(
        userTodos.pk(undefined, undefined, [{ tag: ['a', 'b'] }]),
        userTodos.pk(undefined, undefined, [{ tag: ['a,b'] }]),
      );
      assert.notEqual(
        userTodos.pk(undefined, undefined, [{ q: null }]),
        userTodos.pk(undefined, undefined, [{ q: 'null' }]),
      );
      assert.equal(
        userTodos.pk(undefined, undefined, [{ a: 1, b: '2' }]),
        userTodos.pk(undefined, undefined, [{ b: 2, a: '1' }]),
      );
    });
  });
});
