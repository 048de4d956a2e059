// Translated from reactive/data-client packages/normalizr/src/__tests__/index.test.js.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import {
  Entity,
  INVALID,
  MemoCache,
  denormalize,
  normalize,
  schema,
} from '../../src/core/index.js';
import type { EntityTable } from '../../src/core/index.js';
import { IDEntity, differs, plain, withoutMeta } from './support.js';

class Tacos extends IDEntity {
  type = '';
  static override key = 'Tacos';
}

describe('normalizr index.test.js', () => {
  describe('normalize', () => {
    for (const [label, input] of [
      ['42', 42],
      ['null', null],
      ['undefined', undefined],
      ["'42'", '42'],
      ['() => {}', () => {}],
    ] as const) {
      it(`cannot normalize input that == ${label}`, () => {
        class Test extends IDEntity {
          static override key = 'Test';
        }
        assert.throws(() => normalize(Test, input), { name: 'NormalizeError' });
      });
      it(`cannot normalize input that == ${label} (in an object schema)`, () => {
        class Test extends IDEntity {
          static override key = 'Test';
        }
        assert.throws(() => normalize({ data: Test }, input), { name: 'NormalizeError' });
      });
    }

    it('can normalize strings for entity (already processed)', () => {
      class Test extends IDEntity {
        static override key = 'Test';
      }
      assert.deepEqual(normalize(new schema.Array(Test), ['42']).result, ['42']);
    });

    it('can normalize null schema with string response', () => {
      assert.equal(normalize(null, '17,234').result, '17,234');
    });

    it('passthrough with undefined schema', () => {
      const input = {};
      assert.equal(normalize(undefined, input).result, input);
    });

    it('passthrough with id in place of entity', () => {
      const input = { taco: '5' };
      assert.deepEqual(normalize({ taco: Tacos }, input).result, input);
    });

    it('cannot normalize with null input', () => {
      assert.throws(() => normalize(Tacos, null), /null/);
    });

    it('passthrough primitive schema', () => {
      assert.deepEqual(normalize({ happy: 5 }, { happy: { bob: 5 } }).result, {
        happy: { bob: 5 },
      });
    });

    it('can normalize string', () => {
      assert.deepEqual(normalize('', 'bob'), { result: 'bob', entities: {}, entitiesMeta: {} });
    });

    it('normalizes entities', () => {
      const out = normalize(
        [Tacos],
        [
          { id: '1', type: 'foo' },
          { id: '2', type: 'bar' },
        ],
      );
      assert.deepEqual(withoutMeta(out), {
        result: ['1', '2'],
        entities: { Tacos: { 1: { id: '1', type: 'foo' }, 2: { id: '2', type: 'bar' } } },
      });
    });

    const extraSchema = {
      data: [Tacos],
      extra: '',
      page: { first: null, second: undefined, third: 0, complex: { complex: true, next: false } },
    };

    it('normalizes schema with extra members', () => {
      const page = {
        first: null,
        second: { thing: 'two' },
        third: 1,
        complex: { complex: false, next: true },
      };
      const out = normalize(extraSchema, {
        data: [
          { id: '1', type: 'foo' },
          { id: '2', type: 'bar' },
        ],
        extra: 'five',
        page,
      });
      assert.deepEqual(out.result, { data: ['1', '2'], extra: 'five', page });
    });

    it('normalizes schema with extra members but not set', () => {
      const out = normalize(extraSchema, {
        data: [
          { id: '1', type: 'foo' },
          { id: '2', type: 'bar' },
        ],
      });
      assert.deepEqual(out.result, { data: ['1', '2'] });
    });

    it(
      'normalizes schema with indexes',
      differs('docs/differences.md: Entity: no static indexes (reads by pk or by endpoint)'),
      () => {},
    );
    it(
      'normalizes warns on schemas with unfound indexes',
      differs('docs/differences.md: Entity: no static indexes'),
      () => {},
    );

    it('normalizes entities with circular references', () => {
      class User extends IDEntity {
        static override key = 'User';
      }
      User.schema = { friends: [User] };
      const input: { id: string; friends: unknown[] } = { id: '123', friends: [] };
      input.friends.push(input);
      const out = normalize(User, input);
      assert.equal(out.result, '123');
      assert.deepEqual(out.entities, { User: { 123: { id: '123', friends: ['123'] } } });
    });

    it('normalizes entities with circular references that fails validation', () => {
      class User extends IDEntity {
        static override key = 'User';
        static override validate(): string {
          return 'this always fails';
        }
      }
      User.schema = { friends: [User] };
      const input: { id: string; friends: unknown[] } = { id: '123', friends: [] };
      input.friends.push(input);
      assert.throws(() => normalize(User, input), /Entity User is invalid: this always fails/);
    });

    class User extends IDEntity {
      static override key = 'User';
    }
    class Comment extends IDEntity {
      comment = '';
      static override key = 'Comment';
      static override schema = { user: User };
    }
    class Article extends IDEntity {
      title = '';
      body = '';
      static override key = 'Article';
      static override schema = { author: User, comments: [Comment] };
    }

    it('normalizes nested entities', () => {
      const out = normalize(Article, {
        id: '123',
        title: 'A Great Article',
        author: { id: '8472', name: 'Paul' },
        body: 'This article is great.',
        comments: [{ id: 'c1', comment: 'I like it!', user: { id: '10293', name: 'Jane' } }],
      });
      assert.equal(out.result, '123');
      assert.deepEqual(out.entities, {
        Article: {
          123: {
            id: '123',
            title: 'A Great Article',
            author: '8472',
            body: 'This article is great.',
            comments: ['c1'],
          },
        },
        User: { 8472: { id: '8472', name: 'Paul' }, 10293: { id: '10293', name: 'Jane' } },
        Comment: { c1: { id: 'c1', comment: 'I like it!', user: '10293' } },
      });
    });

    it('does not modify the original input', () => {
      const input = Object.freeze({
        id: '123',
        title: 'A Great Article',
        author: Object.freeze({ id: '8472', name: 'Paul' }),
      });
      assert.doesNotThrow(() => normalize(Article, input));
      assert.deepEqual(input.author, { id: '8472', name: 'Paul' });
    });

    it('handles number ids when nesting', () => {
      const out = normalize(
        Article,
        Object.freeze({ id: 123, title: 'A Great Article', author: { id: 8472, name: 'Paul' } }),
      );
      assert.deepEqual(out.entities, {
        Article: { 123: { id: 123, title: 'A Great Article', author: '8472' } },
        User: { 8472: { id: 8472, name: 'Paul' } },
      });
    });

    it('ignores null values', () => {
      class MyEntity extends IDEntity {
        static override key = 'MyEntity';
      }
      assert.deepEqual(withoutMeta(normalize([MyEntity], [null])), {
        result: [null],
        entities: {},
      });
      assert.deepEqual(withoutMeta(normalize([MyEntity], [undefined])), {
        result: [undefined],
        entities: {},
      });
    });

    it(
      'ignores null values ([false] part)',
      differs(
        'docs/differences.md: errors name entity and path: a boolean where an entity is expected is a NormalizeError, not passed through',
      ),
      () => {},
    );

    it(
      'can use fully custom entity classes',
      differs(
        'docs/differences.md: Entity: customised through pk/process/merge/validate/schema, not a static normalize()',
      ),
      () => {},
    );

    it('uses the non-normalized input when getting the ID for an entity', () => {
      const calls: unknown[][] = [];
      class Recommendations extends Entity {
        static override key = 'Recommendations';
        static override schema = { user: User };
        pk(parent?: unknown, key?: string): string {
          calls.push([{ ...this }, parent, key]);
          return (parent as { user: { id: string } }).user.id;
        }
      }
      const input = { user: { id: '456' } };
      const out = normalize(Recommendations, input, [{ id: '456' }]);
      assert.equal(out.result, '456');
      assert.deepEqual(out.entities, {
        Recommendations: { 456: { user: '456' } },
        User: { 456: { id: '456' } },
      });
      assert.deepEqual(calls, [[{ user: { id: '456' } }, input, undefined]]);
    });

    it('passes over pre-normalized values', () => {
      const out = normalize(Article, { id: '123', title: 'normalizr is great!', author: '1' });
      assert.deepEqual(out.entities, {
        Article: { 123: { id: '123', title: 'normalizr is great!', author: '1' } },
      });
      assert.deepEqual(normalize({ user: User }, { user: '1' }).result, { user: '1' });
    });

    it('can normalize object without proper object prototype inheritance', () => {
      class Elements extends IDEntity {
        static override key = 'Elements';
      }
      class Test extends IDEntity {
        static override key = 'Test';
        static override schema = { elements: [Elements] };
      }
      const input = {
        id: '1',
        elements: [Object.assign(Object.create(null), { id: '18', name: 'test' })],
      };
      assert.deepEqual(normalize(Test, input).entities.Elements, {
        18: { id: '18', name: 'test' },
      });
    });
  });

  const memo = new MemoCache();
  for (const [label, read] of [
    ['fast', denormalize],
    ['cached', memo.denormalize.bind(memo)],
  ] as const) {
    describe(`denormalize [${label}]`, () => {
      it('passthrough with undefined schema', () => {
        const input = {};
        assert.deepEqual(read(undefined, input, {}), input);
      });

      it('returns the input if undefined', () => {
        assert.equal(read({}, undefined, {}), undefined);
      });

      it('returns the input if string', () => {
        assert.equal(read('', 'bob', {}), 'bob');
      });

      const two = { Tacos: { 1: { id: '1', type: 'foo' }, 2: { id: '2', type: 'bar' } } };

      it('denormalizes entities', () => {
        const out = read([Tacos], ['1', '2'], two) as Tacos[];
        assert.ok(out.every((taco) => taco instanceof Tacos));
        assert.deepEqual(plain(out), [
          { id: '1', type: 'foo' },
          { id: '2', type: 'bar' },
        ]);
      });

      it('denormalizes without entities fills undefined', () => {
        assert.deepEqual(read({ data: Tacos }, { data: '1' }, {}), { data: undefined });
      });

      it(
        'denormalizes without entities fills undefined (top-level part)',
        differs('docs/differences.md: a missing top-level entity reads as INVALID, not undefined'),
        () => {},
      );

      it('denormalizes ignoring unfound entities in arrays', () => {
        const one = { Tacos: { 1: { id: '1', type: 'foo' } } };
        assert.deepEqual(plain(read([Tacos], ['1', '2'], one)), [{ id: '1', type: 'foo' }]);
        assert.deepEqual(plain(read({ results: [Tacos] }, { results: ['1', '2'] }, one)), {
          results: [{ id: '1', type: 'foo' }],
        });
      });

      it('denormalizes suspends when symbol contains INVALID string', () => {
        const entities = { Tacos: { 1: Symbol('ENTITY WAS INVALID') } };
        assert.equal(typeof read(Tacos, '1', entities as never), 'symbol');
      });

      it('denormalizes ignoring deleted entities in arrays', () => {
        const entities: EntityTable = { Tacos: { 1: { id: '1', type: 'foo' }, 2: INVALID } };
        assert.deepEqual(plain(read([Tacos], ['1', '2'], entities)), [{ id: '1', type: 'foo' }]);
        assert.deepEqual(plain(read({ results: [Tacos] }, { results: ['1', '2'] }, entities)), {
          results: [{ id: '1', type: 'foo' }],
        });
      });

      it('denormalizes arrays with objects inside', () => {
        const entities = { Tacos: { 1: { id: '1', type: 'foo' } } };
        const out = read([{ data: Tacos }], [{ data: 1 }, { data: 2 }], entities) as {
          data: unknown;
        }[];
        assert.ok(out[0]!.data instanceof Tacos);
        assert.deepEqual(plain(out), [{ data: { id: '1', type: 'foo' } }, {}]);
        assert.equal(out[1]!.data, undefined);
      });

      it('denormalizes schema with extra members', () => {
        const page = {
          first: null,
          second: { thing: 'two' },
          third: 1,
          complex: { complex: false, next: true },
        };
        const out = read(
          { data: [Tacos], extra: '', page: { first: null, second: undefined, third: 0 } },
          { data: ['1', '2'], extra: '5', page },
          two,
        ) as { data: Tacos[]; extra: string; page: unknown };
        assert.ok(out.data[1] instanceof Tacos);
        assert.equal(out.extra, '5');
        assert.deepEqual(out.page, page);
      });

      it('denormalizes schema with extra members but not set', () => {
        const out = read({ data: [Tacos], extra: '' }, { data: ['1', '2'] }, two);
        assert.deepEqual(plain(out), {
          data: [
            { id: '1', type: 'foo' },
            { id: '2', type: 'bar' },
          ],
        });
      });

      class User extends IDEntity {
        name = '';
        static override key = 'User';
      }
      class Comment extends IDEntity {
        comment = '';
        user: User | undefined = undefined;
        static override key = 'Comment';
        static override schema = { user: User };
      }
      class Article extends IDEntity {
        title = '';
        body = '';
        author: User | undefined = undefined;
        comments: Comment[] = [];
        static override key = 'Article';
        static override schema = { author: User, comments: [Comment] };
      }
      const nested = {
        Article: {
          123: { author: '8472', body: 'b', comments: ['c1'], id: '123', title: 'A Great Article' },
        },
        Comment: { c1: { comment: 'I like it!', id: 'c1', user: '10293' } },
        User: { 10293: { id: '10293', name: 'Jane' }, 8472: { id: '8472', name: 'Paul' } },
      };

      it('denormalizes nested entities', () => {
        const article = read(Article, '123', nested) as Article;
        assert.ok(article instanceof Article);
        assert.ok(article.author instanceof User);
        assert.equal(article.author.name, 'Paul');
        assert.ok(article.comments[0] instanceof Comment);
        assert.equal(article.comments[0].user?.name, 'Jane');
      });

      it('gracefully handles when nested entities are primitives', () => {
        const entities = { ...nested, Comment: { c1: 4 } };
        const article = read(Article, '123', entities as never) as Article;
        assert.ok(article instanceof Article);
        assert.deepEqual(article.comments, []);
      });

      it('set to undefined if schema key is not in entities', () => {
        const entities = {
          Article: { 123: { id: '123', author: '8472', comments: ['1'] } },
          Comment: { 1: { id: '1', user: '123' } },
        };
        const article = read(Article, '123', entities) as Article;
        assert.equal(article.author, undefined);
        assert.equal(article.comments[0]!.user, undefined);
        assert.equal(article.comments[0]!.id, '1');
      });

      it('does not modify the original entities', () => {
        const entities = Object.freeze({
          Article: Object.freeze({
            123: Object.freeze({ id: '123', title: 'A Great Article', author: '8472' }),
          }),
          User: Object.freeze({ 8472: Object.freeze({ id: '8472', name: 'Paul' }) }),
        });
        assert.doesNotThrow(() => read(Article, '123', entities));
      });

      it('denormalizes with function as pk()', () => {
        class Guest extends Entity {
          guestId = 0;
          static override key = 'Guest';
          pk(parent?: unknown, key?: string): string {
            return `${key}-${(parent as { id: string }).id}-${this.guestId}`;
          }
        }
        class Patron extends IDEntity {
          name = '';
          guest: Guest | null = null;
          static override key = 'Patron';
          static override schema = { guest: Guest };
        }
        const entities = {
          Patron: {
            1: { id: '1', guest: null, name: 'Esther' },
            2: { id: '2', guest: 'guest-2-1', name: 'Tom' },
          },
          Guest: { 'guest-2-1': { guestId: 1 } },
        };
        const out = read([Patron], ['1', '2'], entities) as Patron[];
        assert.equal(out[0]!.guest, null);
        assert.ok(out[1]!.guest instanceof Guest);
        assert.equal(out[1]!.guest.guestId, 1);
      });

      it('denormalizes where id is only in key', () => {
        const out = read(
          new schema.Values(Tacos),
          { 1: { type: 'foo' }, 2: { type: 'bar' } },
          {},
        ) as Record<string, Tacos>;
        assert.ok(out['1'] instanceof Tacos);
        assert.deepEqual(plain(out), { 1: { id: '', type: 'foo' }, 2: { id: '', type: 'bar' } });
      });
    });
  }
});
