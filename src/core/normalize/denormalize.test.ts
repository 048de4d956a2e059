import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { normalize } from './normalize.js';
import { denormalize } from './denormalizer.js';
import { MemoCache } from './memo-cache.js';
import { visitEntities } from './visit-entities.js';
import { Invalidate } from '../schema/invalidate.js';
import { Collection } from '../schema/collection.js';
import { INVALID } from '../schema/types.js';
import type { NormalizedStore } from '../schema/types.js';
import { Article, Comment, Todo, User, todoList } from '../test-utils/entities.js';

const articles = [
  {
    id: 'a1',
    title: 'one',
    author: { id: 'u1', name: 'Ann' },
    comments: [{ id: 'c1', body: 'x', author: { id: 'u2', name: 'Bob' } }],
  },
  { id: 'a2', title: 'two', author: { id: 'u2', name: 'Bob' }, comments: [] },
  { id: 'a3', title: 'three', author: { id: 'u3', name: 'Cy' }, comments: [] },
];

const articleList = [Article];

function later(store: NormalizedStore, schema: unknown, input: unknown) {
  return normalize(schema, input, [], store, { fetchedAt: Date.now() + 1000 });
}

describe('MemoCache.denormalize: identity', () => {
  it('gives the same object for the same inputs', () => {
    const memo = new MemoCache();
    const { result, entities } = normalize(articleList, articles);
    const first = memo.denormalize(articleList, result, entities);
    assert.equal(memo.denormalize(articleList, result, entities), first);
  });

  it('changing one entity gives new objects only along the paths that contain it', () => {
    const memo = new MemoCache();
    const store = normalize(articleList, articles);
    const before = memo.denormalize(articleList, store.result, store.entities) as Article[];
    const changed = later(store, User, { id: 'u2', name: 'Bobby' });
    const after = memo.denormalize(articleList, store.result, changed.entities) as Article[];
    assert.notEqual(after, before, 'the list contains u2');
    assert.notEqual(after[0], before[0], 'a1 has a comment by u2');
    assert.notEqual(after[0]!.comments[0], before[0]!.comments[0]);
    assert.equal(after[0]!.author, before[0]!.author, 'u1 is unchanged');
    assert.notEqual(after[1], before[1], 'a2 is by u2');
    assert.equal(after[2], before[2], 'a3 does not contain u2');
    assert.equal(after[1]!.author.name, 'Bobby');
  });

  it('keeps identity across different reads of the same entity', () => {
    const memo = new MemoCache();
    const store = normalize(articleList, articles);
    const list = memo.denormalize(articleList, store.result, store.entities) as Article[];
    const one = memo.denormalize(Article, 'a3', store.entities);
    assert.equal(one, list[2]);
  });

  it('a refetch with equal data changes nothing', () => {
    const memo = new MemoCache();
    const store = normalize(articleList, articles);
    const before = memo.denormalize(articleList, store.result, store.entities);
    const refetched = later(store, articleList, articles);
    assert.equal(refetched.entities, store.entities, 'no table changed');
    // The same result reference reads back as the same object…
    assert.equal(memo.denormalize(articleList, store.result, refetched.entities), before);
    // …and a new but equal result array holds the very same entities.
    const again = memo.denormalize(articleList, refetched.result, refetched.entities) as Article[];
    (before as Article[]).forEach((article, i) => assert.equal(again[i], article));
  });

  it('a read that comes back to the same members keeps its old object', () => {
    const memo = new MemoCache();
    const page = { results: todoList, total: 0 };
    const store = normalize(page, { results: [{ id: '1' }], total: 1 }, [{}]);
    const before = memo.denormalize(page, store.result, store.entities);
    // An optimistic push shows a new member, then is rolled back to the committed tables.
    const optimistic = normalize(todoList.push, { id: '2' }, [{}, {}], store);
    const during = memo.denormalize(page, store.result, optimistic.entities);
    assert.notEqual(during, before);
    assert.equal(memo.denormalize(page, store.result, store.entities), before);
  });

  it('uncached denormalize builds new objects each time', () => {
    const { result, entities } = normalize(articleList, articles);
    assert.notEqual(
      denormalize(articleList, result, entities),
      denormalize(articleList, result, entities),
    );
  });
});

describe('denormalize: INVALID', () => {
  for (const [name, read] of [
    [
      'uncached',
      (schema: unknown, input: unknown, store: NormalizedStore) =>
        denormalize(schema, input, store.entities),
    ],
    [
      'memoized',
      (schema: unknown, input: unknown, store: NormalizedStore) =>
        new MemoCache().denormalize(schema, input, store.entities),
    ],
  ] as const) {
    it(`${name}: an INVALID entity is dropped from arrays`, () => {
      const store = normalize([Todo], [{ id: '1' }, { id: '2' }]);
      const gone = later(store, new Invalidate(Todo), '1');
      assert.deepEqual(
        (read([Todo], store.result, gone) as Todo[]).map((todo) => todo.id),
        ['2'],
      );
    });

    it(`${name}: an INVALID entity is dropped from collections`, () => {
      const store = normalize(todoList, [{ id: '1' }, { id: '2' }], [{}]);
      const gone = later(store, new Invalidate(Todo), { id: '2' });
      assert.deepEqual(
        (read(todoList, store.result, gone) as Todo[]).map((todo) => todo.id),
        ['1'],
      );
    });

    it(`${name}: an optional nested entity (default null) becomes undefined`, () => {
      const store = normalize(Todo, { id: '1', assignee: { id: 'u1' } });
      const gone = later(store, new Invalidate(User), 'u1');
      const todo = read(Todo, '1', gone) as Todo;
      assert.ok(todo instanceof Todo);
      assert.equal(todo.assignee, undefined);
    });

    it(`${name}: a required nested entity makes the whole result INVALID`, () => {
      const store = normalize([Comment], [{ id: 'c1', author: { id: 'u1' } }]);
      const gone = later(store, new Invalidate(User), 'u1');
      assert.equal(read(Comment, 'c1', gone), INVALID);
      // …and inside a list, that comment is left out rather than shown broken.
      assert.deepEqual(read([Comment], store.result, gone), []);
      assert.equal(read({ comment: Comment }, { comment: 'c1' }, gone), INVALID);
    });

    it(`${name}: a top-level INVALID or missing entity makes the read INVALID`, () => {
      const store = normalize(Todo, { id: '1' });
      assert.equal(read(Todo, '1', later(store, new Invalidate(Todo), '1')), INVALID);
      assert.equal(read(Todo, 'nope', store), INVALID);
      assert.equal(read(todoList, '{"userId":"9"}', store), INVALID);
    });
  }

  it('memoized reads follow an entity from valid to INVALID and back', () => {
    const memo = new MemoCache();
    const store = normalize(Todo, { id: '1', title: 'a' });
    const first = memo.denormalize(Todo, '1', store.entities);
    const gone = later(store, new Invalidate(Todo), '1');
    assert.equal(memo.denormalize(Todo, '1', gone.entities), INVALID);
    const back = normalize(Todo, { id: '1', title: 'b' }, [], gone, {
      fetchedAt: Date.now() + 5000,
    });
    const again = memo.denormalize(Todo, '1', back.entities) as Todo;
    assert.notEqual(again, first);
    assert.equal(again.title, 'b');
  });
});

describe('denormalize: one pass', () => {
  it('two lists of one member schema, under two store keys, each read their own list', () => {
    // Both Collections share their member schema (so their storeIdentity), not their store key:
    // pk '{}' of one is another list than pk '{}' of the other.
    const members = [Todo] as const;
    const open = new Collection(members);
    const archived = new Collection(members, { key: 'ArchivedTodos' });
    const first = normalize(open, [{ id: '1' }], [{}]);
    const store = normalize(archived, [{ id: '2' }], [{}], first);
    const schema = { open, archived };
    const input = { open: '{}', archived: '{}' };
    for (const read of [
      denormalize(schema, input, store.entities),
      new MemoCache().denormalize(schema, input, store.entities),
    ] as { open: Todo[]; archived: Todo[] }[]) {
      assert.deepEqual(
        read.open.map((todo) => todo.id),
        ['1'],
      );
      assert.deepEqual(
        read.archived.map((todo) => todo.id),
        ['2'],
      );
    }
  });
});

describe('visitEntities', () => {
  it('reports every entity and list a result reaches', () => {
    const page = { results: todoList };
    const store = normalize(
      page,
      { results: [{ id: '1', assignee: { id: 'u1', friends: [{ id: 'u2' }] } }] },
      [{}],
    );
    const found: string[] = [];
    visitEntities(page, store.result, store.entities, [], (key, pk) => found.push(`${key}:${pk}`));
    assert.deepEqual(found.sort(), ['Todo:1', 'User:u1', 'User:u2', '[Todo]:{}']);
  });
});
