// Translated from reactive/data-client packages/normalizr/src/__tests__/denormalizeCached.js.
// Their entity cache and result cache are one MemoCache here; their [value, found, deleted]
// triple is our value, with INVALID for "deleted" and undefined for "not found".
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { INVALID, MemoCache, denormalize } from '../../src/core/index.js';
import type { EntityTable } from '../../src/core/index.js';
import { IDEntity } from './support.js';

class Tacos extends IDEntity {
  type = '';
  static override key = 'Tacos';
}

describe('normalizr denormalizeCached.js', () => {
  describe('denormalize with global cache', () => {
    it('denormalizes suspends when symbol contains DELETED string', () => {
      assert.equal(new MemoCache().denormalize(Tacos, '1', { Tacos: { 1: INVALID } }), INVALID);
    });

    it('maintains referential equality with same results', () => {
      const memo = new MemoCache();
      const entities: EntityTable = {
        Tacos: { 1: { id: '1', type: 'foo' }, 2: { id: '2', type: 'bar' } },
      };
      const result = ['1', '2'];
      const list = [Tacos];
      const first = memo.denormalize(list, result, entities);
      assert.equal(memo.denormalize(list, result, entities), first);
      const third = memo.denormalize(list, [...result], entities);
      assert.notEqual(third, first);
      assert.deepEqual(third, first);
      const fourth = memo.denormalize(list, result, {
        Tacos: { ...entities.Tacos, 2: { id: '2', type: 'bar' } },
      });
      assert.notEqual(fourth, first);
      assert.deepEqual(fourth, first);
    });

    describe('nested entities', () => {
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
      const entities: EntityTable = {
        Article: {
          123: {
            author: '8472',
            body: 'This article is great.',
            comments: ['comment-123-4738'],
            id: '123',
            title: 'A Great Article',
          },
        },
        Comment: {
          'comment-123-4738': { comment: 'I like it!', id: 'comment-123-4738', user: '10293' },
        },
        User: { 10293: { id: '10293', name: 'Jane' }, 8472: { id: '8472', name: 'Paul' } },
      };
      type Read = { data: Article & { author: User; comments: (Comment & { user: User })[] } };

      it('maintains referential equality with nested entities', () => {
        const memo = new MemoCache();
        const result = { data: '123' };
        const shape = { data: Article };
        const first = memo.denormalize(shape, result, entities);
        assert.equal(memo.denormalize(shape, result, entities), first);
        const third = memo.denormalize(Article, '123', entities);
        assert.equal(memo.denormalize(Article, '123', entities), third);
      });

      it('maintains responds to entity updates for distinct top-level results', () => {
        const memo = new MemoCache();
        const result1 = { data: '123' };
        const result2 = { results: ['123'] };
        const first = memo.denormalize({ data: Article }, result1, entities) as Read;
        const second = memo.denormalize({ results: [Article] }, result2, entities) as {
          results: Article[];
        };
        assert.equal(first.data, second.results[0]);
        assert.equal(memo.denormalize(Article, '123', entities), first.data);
        const nextState = {
          ...entities,
          Article: {
            123: {
              ...(entities.Article![123] as object),
              title: 'updated article',
              body: 'new body',
            },
          },
        };
        const firstChanged = memo.denormalize({ data: Article }, result1, nextState) as Read;
        assert.notEqual(firstChanged, first);
        const secondChanged = memo.denormalize({ results: [Article] }, result2, nextState) as {
          results: Article[];
        };
        assert.notEqual(secondChanged, second);
        assert.equal(firstChanged.data, secondChanged.results[0]);
      });

      it('handles multi-schema (summary entities)', () => {
        class ArticleSummary extends IDEntity {
          title = '';
          body = '';
          static override schema = { comments: [Comment] };
          static override key = 'Article';
        }
        const memo = new MemoCache();
        const result = { data: '123' };
        const firstSchema = { data: ArticleSummary };
        const secondSchema = { data: Article };
        const first = memo.denormalize(firstSchema, result, entities) as {
          data: { author: unknown };
        };
        const second = memo.denormalize(secondSchema, result, entities) as Read;
        // The summary does not read its author; the detail does.
        assert.equal(first.data.author, '8472');
        assert.ok(second.data.author instanceof User);
        assert.equal((second.data.author as unknown as { name: string }).name, 'Paul');
        assert.notEqual(first.data, second.data);
        assert.equal(memo.denormalize(firstSchema, result, entities), first);
        assert.equal(memo.denormalize(Article, '123', entities), second.data);
        const nextState = {
          ...entities,
          Article: {
            123: {
              ...(entities.Article![123] as object),
              title: 'updated article',
              body: 'new body',
            },
          },
        };
        const firstChanged = memo.denormalize(firstSchema, result, nextState) as {
          data: { author: unknown };
        };
        assert.notEqual(firstChanged, first);
        const secondChanged = memo.denormalize(secondSchema, result, nextState) as Read;
        assert.notEqual(secondChanged, second);
        assert.equal(firstChanged.data.author, '8472');
        assert.ok(secondChanged.data.author instanceof User);
      });

      it('entity equality changes', () => {
        const memo = new MemoCache();
        const result = { data: '123' };
        const first = memo.denormalize({ data: Article }, result, entities) as Read;
        const second = memo.denormalize({ data: Article }, result, {
          ...entities,
          Article: {
            123: {
              author: '8472',
              body: 'This article is great.',
              comments: ['comment-123-4738'],
              id: '123',
              title: 'A Great Article',
            },
          },
        }) as Read;
        assert.notEqual(first, second);
        assert.equal(first.data.author, second.data.author);
        assert.equal(first.data.comments[0], second.data.comments[0]);
      });

      it('nested entity equality changes', () => {
        const memo = new MemoCache();
        const result = { data: '123' };
        const first = memo.denormalize({ data: Article }, result, entities) as Read;
        const second = memo.denormalize({ data: Article }, result, {
          ...entities,
          Comment: {
            'comment-123-4738': {
              comment: 'Updated comment!',
              id: 'comment-123-4738',
              user: '10293',
            },
          },
        }) as Read;
        assert.notEqual(first, second);
        assert.equal(first.data.title, second.data.title);
        assert.equal(first.data.author, second.data.author);
        assert.equal(second.data.comments[0]!.comment, 'Updated comment!');
        assert.notEqual(first.data.comments[0], second.data.comments[0]);
        assert.equal(first.data.comments[0]!.user, second.data.comments[0]!.user);
      });
    });

    it('denormalizes plain object with no entities', () => {
      const memo = new MemoCache();
      const input = { firstThing: { five: 5, seven: 42 }, secondThing: { cars: 'fifo' } };
      const shape = { firstThing: { five: 0, seven: 0 }, secondThing: { cars: '' } };
      const first = memo.denormalize(shape, input, {});
      assert.deepEqual(first, input);
      // should maintain referential equality
      assert.equal(memo.denormalize(shape, input, {}), first);
    });

    it('passthrough for null schema and an object input', () => {
      const input = { firstThing: { five: 5, seven: 42 }, secondThing: { cars: 'never' } };
      assert.equal(new MemoCache().denormalize(null, input, {}), input);
    });

    it('passthrough for null schema and an number input', () => {
      assert.equal(new MemoCache().denormalize(null, 5, {}), 5);
    });

    it('passthrough for undefined schema and an object input', () => {
      const input = { firstThing: { five: 5, seven: 42 }, secondThing: { cars: 'never' } };
      assert.equal(new MemoCache().denormalize(undefined, input, {}), input);
    });

    describe('null inputs when expecting entities', () => {
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
        author = User.fromJS({});
        comments = [];
        static override key = 'Article';
        static override schema = { author: User, comments: [Comment] };
      }

      it('handles null at top level', () => {
        assert.equal(new MemoCache().denormalize({ data: Article }, null, {}), null);
      });

      it('handles undefined at top level', () => {
        assert.equal(new MemoCache().denormalize({ data: Article }, undefined, {}), undefined);
      });

      it('handles null in nested place', () => {
        const input = { data: { id: '5', title: 'hehe', author: null, comments: [] } };
        const out = denormalize({ data: Article }, input, {}) as { data: Article };
        assert.ok(out.data instanceof Article);
        assert.deepEqual(
          { ...out.data },
          { id: '5', title: 'hehe', body: '', author: null, comments: [] },
        );
      });
    });
  });
});

// From packages/normalizr/src/__tests__/MemoCache.ts: the cases not already above.
describe('normalizr MemoCache.ts', () => {
  it('updates when results change, but entities are the same', () => {
    const memo = new MemoCache();
    const entities: EntityTable = {
      Tacos: { 1: { id: '1', type: 'foo' }, 2: { id: '2', type: 'bar' } },
    };
    const result = { data: ['1', '2'], nextPage: 'initial' };
    const shape = { data: [Tacos], nextPage: '' };
    type Page = { data: Tacos[]; nextPage: string };
    const first = memo.denormalize(shape, result, entities) as Page;
    const second = memo.denormalize(shape, { ...result, nextPage: 'second' }, entities) as Page;
    assert.equal(first.nextPage, 'initial');
    assert.equal(second.nextPage, 'second');
    assert.deepEqual(first.data, second.data);
    first.data.forEach((taco, i) => assert.equal(taco, second.data[i]));
    const fourth = memo.denormalize(shape, result, {
      Tacos: { ...entities.Tacos, 2: { id: '2', type: 'bar' } },
    }) as Page;
    assert.notEqual(fourth, first);
    assert.deepEqual(fourth, first);
    assert.equal(fourth.data[0], first.data[0]);
  });

  for (const [title, pk] of [
    ['nested entity becomes present in entity table', '5'],
    ['nested entity becomes present in entity table with numbers', 5],
  ] as const) {
    it(title, () => {
      class Food extends IDEntity {
        static override key = 'CachedFood';
      }
      class Menu extends IDEntity {
        food = Food.fromJS();
        static override key = 'CachedMenu';
        static override schema = { food: Food };
      }
      const memo = new MemoCache();
      const without: EntityTable = { CachedMenu: { 1: { id: '1', food: pk } } };
      const first = memo.denormalize(Menu, '1', without) as Menu;
      assert.ok(first instanceof Menu);
      assert.equal(first.food, undefined, 'missing: undefined, not INVALID');
      assert.equal(memo.denormalize(Menu, '1', without), first);
      const withFood: EntityTable = { ...without, CachedFood: { 5: { id: '5' } } };
      const second = memo.denormalize(Menu, '1', withFood) as Menu;
      assert.notEqual(second, first);
      assert.ok(second.food instanceof Food);
      assert.equal(second.food.id, '5');
    });
  }
});
