// One test per behaviour listed in issue 15 (numbered as there): what users hit when the
// reference library's tests, a real REST server and hostile input were run against us. Each one
// failed before the schema step; the translated reference tests beside this file cover the rest.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import {
  Entity,
  ExpiryStatus,
  INVALID,
  MemoCache,
  NormalizeError,
  RestEndpoint,
  createResource,
  denormalize,
  normalize,
  schema,
} from '../../src/core/index.js';
import type { EntityTable } from '../../src/core/index.js';
import { hydrate } from '../../src/hydration/index.js';
import { flush } from '../../src/core/controller/test-utils/fake-fetch.js';
import { failOnUnhandledRejection, setup } from '../../src/core/controller/test-utils/harness.js';

failOnUnhandledRejection();

const prefix = 'https://api.test';

class Post extends Entity {
  id = '';
  title = '';
  pk() {
    return this.id;
  }
  static override key = 'Post';
}

class Author extends Entity {
  id = '';
  name = '';
  pk() {
    return this.id;
  }
  static override key = 'Author';
}

class Book extends Entity {
  id = '';
  title = '';
  author = Author.fromJS();
  pk() {
    return this.id;
  }
  static override key = 'Book';
  static override schema = { author: Author };
}

const ids = (list: unknown) => (list as { id: string }[]).map((item) => item.id);

describe('issue 15 behaviours', () => {
  it('1: two classes sharing one key (summary/detail) never get each other’s instances', () => {
    class Article extends Entity {
      id = '';
      title = '';
      body = '';
      pk() {
        return this.id;
      }
      static override key = 'Article';
    }
    class ArticleSummary extends Entity {
      id = '';
      title = '';
      pk() {
        return this.id;
      }
      static override key = 'Article';
    }
    const entities = { Article: { 1: { id: '1', title: 'a', body: 'long' } } };
    const memo = new MemoCache();
    const detail = memo.denormalize(Article, '1', entities);
    const list = memo.denormalize([ArticleSummary], ['1'], entities) as unknown[];
    assert.ok(detail instanceof Article);
    assert.ok(list[0] instanceof ArticleSummary);
    assert.ok(!(list[0] instanceof Article));
    // And the other way round, from a fresh cache.
    const again = new MemoCache();
    assert.ok(
      (again.denormalize([ArticleSummary], ['1'], entities) as unknown[])[0] instanceof
        ArticleSummary,
    );
    assert.ok(again.denormalize(Article, '1', entities) instanceof Article);
  });

  it('1: through the Controller, a summary list stays summaries after a detail read and shows its update', async () => {
    class Article extends Entity {
      id = '';
      title = '';
      body = '';
      pk() {
        return this.id;
      }
      static override key = 'Article';
    }
    class ArticleSummary extends Entity {
      id = '';
      title = '';
      pk() {
        return this.id;
      }
      static override key = 'Article';
    }
    const getList = new RestEndpoint({
      urlPrefix: prefix,
      path: '/articles',
      schema: [ArticleSummary],
    });
    const get = new RestEndpoint({ urlPrefix: prefix, path: '/articles/:id', schema: Article });
    const update = get.extend({ method: 'PUT' });
    const { controller, server } = setup();
    const listed = controller.fetch(getList);
    await flush();
    server.take(`GET ${prefix}/articles`).respond(200, [{ id: '1', title: 'a' }]);
    await listed;
    const detail = controller.fetch(get, { id: '1' });
    await flush();
    server.take(`GET ${prefix}/articles/1`).respond(200, { id: '1', title: 'a', body: 'long' });
    await detail;
    assert.ok(controller.getResponse(get, { id: '1' }).data instanceof Article);
    let list = controller.getResponse(getList).data as ArticleSummary[];
    assert.ok(list[0] instanceof ArticleSummary && !(list[0] instanceof Article));
    const updated = controller.fetch(update, { id: '1' }, { title: 'new' });
    await flush();
    server.take(`PUT ${prefix}/articles/1`).respond(200, { id: '1', title: 'new', body: 'long' });
    await updated;
    list = controller.getResponse(getList).data as ArticleSummary[];
    assert.ok(list[0] instanceof ArticleSummary);
    assert.equal(list[0]!.title, 'new');
  });

  describe('2: a Collection below the top level', () => {
    const list = new schema.Collection([Post]);
    const getPosts = new RestEndpoint({
      urlPrefix: prefix,
      path: '/posts',
      searchParams: {} as { page?: number },
      schema: { data: { results: list }, pages: 0 },
      paginationField: 'page',
    });

    it('getPage appends to the nested list, push and unshift exist', async () => {
      assert.equal(typeof getPosts.push, 'function');
      assert.equal(typeof getPosts.unshift, 'function');
      const { controller, server } = setup();
      const first = controller.fetch(getPosts, {});
      await flush();
      server
        .take(`GET ${prefix}/posts`)
        .respond(200, { data: { results: [{ id: '1' }] }, pages: 2 });
      await first;
      const page = controller.fetch(getPosts.getPage, { page: 2 });
      await flush();
      server
        .take(`GET ${prefix}/posts?page=2`)
        .respond(200, { data: { results: [{ id: '2' }] }, pages: 2 });
      await page;
      const shown = controller.getResponse(getPosts, {}).data as { data: { results: Post[] } };
      assert.deepEqual(ids(shown.data.results), ['1', '2']);
      const pushed = controller.fetch(getPosts.push, {}, { title: 'n' });
      await flush();
      server.take(`POST ${prefix}/posts`).respond(201, { id: '3', title: 'n' });
      await pushed;
      const after = controller.getResponse(getPosts, {}).data as { data: { results: Post[] } };
      assert.deepEqual(ids(after.data.results), ['1', '2', '3']);
    });

    it('json-server 1.x envelope: getPage and push end to end', async () => {
      const getPage1x = new RestEndpoint({
        urlPrefix: prefix,
        path: '/posts',
        searchParams: {} as { _page?: number; _per_page?: number },
        schema: { data: new schema.Collection([Post]), next: null as number | null, pages: 0 },
        paginationField: '_page',
      });
      const envelope = (data: object[], next: number | null) => ({
        first: 1,
        prev: null,
        next,
        last: 2,
        pages: 2,
        items: 3,
        data,
      });
      const { controller, server } = setup();
      const first = controller.fetch(getPage1x, { _per_page: 2 });
      await flush();
      server
        .take(`GET ${prefix}/posts?_per_page=2`)
        .respond(200, envelope([{ id: '1' }, { id: '2' }], 2));
      await first;
      const second = controller.fetch(getPage1x.getPage, { _per_page: 2, _page: 2 });
      await flush();
      server
        .take(`GET ${prefix}/posts?_per_page=2&_page=2`)
        .respond(200, envelope([{ id: '2' }, { id: '3' }], null));
      await second;
      let shown = controller.getResponse(getPage1x, { _per_page: 2 }).data as {
        data: Post[];
        next: number | null;
      };
      assert.deepEqual(ids(shown.data), ['1', '2', '3']);
      assert.equal(shown.next, null);
      const pushed = controller.fetch(getPage1x.push, { _per_page: 2 }, { title: 'n' });
      await flush();
      server.take(`POST ${prefix}/posts?_per_page=2`).respond(201, { id: '4', title: 'n' });
      await pushed;
      shown = controller.getResponse(getPage1x, { _per_page: 2 }).data as typeof shown;
      assert.deepEqual(ids(shown.data), ['1', '2', '3', '4']);
    });

    it('a json-server style envelope one level deeper is found', () => {
      const envelope = new RestEndpoint({
        urlPrefix: prefix,
        path: '/posts',
        schema: new schema.Object({ body: { data: list, items: 0, pages: 0 } }),
        paginationField: '_page',
      });
      assert.equal(typeof envelope.getPage, 'function');
      assert.equal(typeof envelope.push, 'function');
    });
  });

  describe('3: schema.Invalidate nested in an object or array schema', () => {
    it('normalizes to the pk and drops the invalidated entry when read', () => {
      const out = normalize({ removed: new schema.Invalidate(Post) }, { removed: { id: '1' } });
      assert.deepEqual(out.result, { removed: '1' });
      assert.equal(out.entities.Post!['1'], INVALID);
      const entities: EntityTable = { Post: { 1: INVALID, 2: { id: '2' } } };
      assert.deepEqual(ids(denormalize([new schema.Invalidate(Post)], ['1', '2'], entities)), [
        '2',
      ]);
    });

    it('new schema.Invalidate() without an entity throws', () => {
      assert.throws(
        () => new (schema.Invalidate as unknown as new () => unknown)(),
        /schema\.Invalidate takes an Entity class or schema\.Union/,
      );
    });
  });

  describe('4: null and undefined in lists; a Collection answered with nothing', () => {
    it('null and undefined members do not fail the response; a read drops the undefined ones', () => {
      // [S] keeps null and undefined members; schema.Array leaves them out (as the reference).
      for (const [list, kept] of [
        [[Post], [null, undefined]],
        [new schema.Array(Post), []],
      ] as const) {
        const out = normalize(list, [{ id: '1' }, null, undefined]);
        assert.deepEqual(out.result, ['1', ...kept]);
        assert.deepEqual(Object.keys(out.entities.Post!), ['1']);
        const read = denormalize(list, out.result, out.entities) as unknown[];
        assert.equal(read.length, 1 + kept.filter((member) => member === null).length);
        assert.ok(read[0] instanceof Post);
        if (kept.length) assert.equal(read[1], null);
      }
    });

    it('a Collection answered with null or 204 names the collection and the URL', async () => {
      const getList = new RestEndpoint({
        urlPrefix: prefix,
        path: '/posts',
        schema: new schema.Collection([Post]),
      });
      for (const answer of [
        (server: ReturnType<typeof setup>['server']) =>
          server.take(`GET ${prefix}/posts`).respond(200, null),
        (server: ReturnType<typeof setup>['server']) =>
          server.take(`GET ${prefix}/posts`).respond(204),
      ]) {
        const { controller, server } = setup();
        const promise = controller.fetch(getList);
        await flush();
        answer(server);
        await assert.rejects(promise, (error: Error) => {
          assert.match(error.message, /\[Post\]/);
          assert.match(error.message, /\/posts/);
          return true;
        });
      }
    });
  });

  describe('5: Collection options', () => {
    it('honours nonFilterArgumentKeys and createCollectionFilter given as options', () => {
      const sorted = new schema.Collection([Post], { nonFilterArgumentKeys: ['sort'] });
      let store = normalize(sorted, [{ id: '1' }], [{ sort: 'new' }]);
      store = normalize(sorted.push, { id: '2' }, [{}], store);
      assert.deepEqual(store.entities['[Post]']!['{"sort":"new"}'], ['1', '2']);

      const none = new schema.Collection([Post], { createCollectionFilter: () => () => false });
      let other = normalize(none, [{ id: '1' }], [{}]);
      other = normalize(none.push, { id: '2' }, [{}], other);
      assert.deepEqual(other.entities['[Post]']!['{}'], ['1']);
    });
  });

  describe('6: Union', () => {
    const union = new schema.Union({ posts: Post, authors: Author }, 'type');

    it('an unknown or missing type passes the value through', (t) => {
      t.mock.method(console, 'warn', () => {});
      assert.deepEqual(normalize(union, { id: '9', type: 'videos' }).result, {
        id: '9',
        type: 'videos',
      });
      assert.deepEqual(normalize([union], [{ id: '9' }]).result, [{ id: '9' }]);
    });

    it('new schema.Union({}) throws', () => {
      assert.throws(() => new schema.Union({}, 'type'), /at least one entity type/);
    });

    it('denormalizing { id } without schema gives the value itself', () => {
      assert.deepEqual(denormalize(union, { id: '1' }, {}), { id: '1' });
    });
  });

  describe('7: reads', () => {
    it('a missing required nested entity reads as undefined (missing is not INVALID)', () => {
      const entities = { Book: { 1: { id: '1', title: 't', author: 'gone' } } };
      const book = denormalize(Book, '1', entities) as Book;
      assert.ok(book instanceof Book);
      assert.equal(book.author, undefined);
    });

    it('a required nested entity marked INVALID makes the read invalid', () => {
      const entities = {
        Book: { 1: { id: '1', title: 't', author: 'gone' } },
        Author: { gone: INVALID as never },
      };
      assert.equal(denormalize(Book, '1', entities), INVALID);
    });

    it('Entity.validate runs on read', () => {
      class Checked extends Post {
        static override key = 'Checked';
        static override validate(props: Record<string, unknown>) {
          return typeof props.title === 'string' ? undefined : 'title must be a string';
        }
      }
      assert.equal(denormalize(Checked, '1', { Checked: { 1: { id: '1', title: 5 } } }), INVALID);
      assert.ok(
        denormalize(Checked, '1', { Checked: { 1: { id: '1', title: 'a' } } }) instanceof Checked,
      );
    });

    it('a nested object stored already denormalized comes back as an instance', () => {
      const book = denormalize(Book, '1', {
        Book: { 1: { id: '1', author: { id: 'a', name: 'Ann' } } },
      }) as Book;
      assert.ok(book.author instanceof Author);
      assert.equal(book.author.name, 'Ann');
    });

    it('a primitive stored value does not crash the read cache', () => {
      const memo = new MemoCache();
      assert.doesNotThrow(() => memo.denormalize([Post], ['1'], { Post: { 1: 7 as never } }));
    });

    it('null or any other primitive stored value reads as missing, in a list and alone', () => {
      const memo = new MemoCache();
      for (const stored of [null, 'x', true, 0]) {
        const entities = { Post: { 1: stored as never, 2: { id: '2' } } };
        assert.deepEqual(ids(memo.denormalize([Post], ['1', '2'], entities)), ['2']);
        assert.equal(memo.denormalize(Post, '1', entities), INVALID);
        assert.equal(denormalize(Post, '1', entities), INVALID);
      }
    });

    it('a get whose schema is a Union is served from the store', () => {
      const getItem = new RestEndpoint({
        urlPrefix: prefix,
        path: '/items/:type/:id',
        schema: new schema.Union({ posts: Post, authors: Author }, 'type'),
      });
      const { controller } = setup();
      controller.set(Post, { id: '4', title: 'kept' });
      const read = controller.getResponse(getItem, { type: 'posts', id: '4' });
      assert.ok(read.data instanceof Post);
      assert.equal(read.data.title, 'kept');
    });
  });

  describe('8: keys and pks', () => {
    it('a pk of the string "undefined", an object or an array is refused', () => {
      assert.throws(() => normalize(Post, { id: 'undefined' }), NormalizeError);
      assert.throws(() => normalize(Post, { id: { a: 1 } }), /Entity Post has/);
      assert.throws(() => normalize(Post, { id: ['a'] }), /Entity Post has/);
    });

    it('a numeric pk in place of a nested entity stays a number', () => {
      const out = normalize(Book, { id: '1', author: 5 });
      assert.equal((out.entities.Book!['1'] as Record<string, unknown>).author, 5);
    });

    it('list ids keep arrays, joined strings, null and "null" apart', () => {
      const list = new schema.Collection([Post]);
      const pk = (args: unknown) => Object.keys(normalize(list, [], [args]).entities['[Post]']!)[0];
      assert.notEqual(pk({ tag: ['a', 'b'] }), pk({ tag: ['a,b'] }));
      assert.notEqual(pk({ tag: ['a', 'b'] }), pk({ tag: 'a,b' }));
      assert.notEqual(pk({ q: null }), pk({ q: 'null' }));
    });

    it('list ids of nested objects: key order does not matter, their JSON text is another list', () => {
      const list = new schema.Collection([Post]);
      const pk = (args: unknown) => Object.keys(normalize(list, [], [args]).entities['[Post]']!)[0];
      assert.equal(pk({ where: { a: 1, b: [2] } }), pk({ where: { b: ['2'], a: '1' } }));
      assert.notEqual(pk({ where: { a: 1 } }), pk({ where: '{"a":1}' }));
      assert.notEqual(pk({ where: { a: 1 } }), pk({ where: { a: 1, b: null } }));
      // A created member joins the list whose nested filter it matches, whatever the order.
      let store = normalize(list, [], [{ where: { a: 1, b: 2 } }]);
      store = normalize(list.push, { id: '1' }, [{ where: { b: 2, a: 1 } }], store);
      assert.deepEqual(Object.values(store.entities['[Post]']!), [['1']]);
    });

    it('a restored malformed list id does not make a later push reject', async () => {
      const list = new schema.Collection([Post]);
      const getList = new RestEndpoint({ urlPrefix: prefix, path: '/posts', schema: list });
      const { controller, server } = setup();
      hydrate(controller, {
        entities: {
          '[Post]': { '{broken': ['1'] as never, '{}': ['1'] as never },
          Post: { 1: { id: '1' } },
        },
      });
      const pushed = controller.fetch(getList.push, {}, { title: 'n' });
      await flush();
      server.take(`POST ${prefix}/posts`).respond(201, { id: '2', title: 'n' });
      await pushed;
      assert.deepEqual(controller.getState().entities['[Post]']!['{}'], ['1', '2']);
      assert.deepEqual(controller.getState().entities['[Post]']!['{broken'], ['1']);
    });

    it('an anonymous Entity class without a static key is refused, not stored under ""', () => {
      const Anonymous = (() =>
        class extends Entity {
          id = '';
          pk() {
            return this.id;
          }
        })();
      assert.equal(Anonymous.name, '');
      assert.throws(() => normalize(Anonymous, { id: '1' }), /has no static key/);
    });
  });

  describe('9: endpoint details', () => {
    it('sideEffect: true implies POST', () => {
      const send = new RestEndpoint({ urlPrefix: prefix, path: '/send', sideEffect: true });
      assert.equal(send.method, 'POST');
      assert.equal(send.sideEffect, true);
    });

    it('an override calling super.parseResponse(response) alone works', async () => {
      class Accepting extends RestEndpoint {
        override async parseResponse(response: Response) {
          if (response.status === 202) return { id: 'queued' };
          return super.parseResponse(response);
        }
      }
      const get = new Accepting({ urlPrefix: prefix, path: '/posts/:id', schema: Post });
      const { controller, server } = setup();
      const promise = controller.fetch(get, { id: '1' });
      await flush();
      server.take(`GET ${prefix}/posts/1`).respond(200, { id: '1', title: 'a' });
      assert.equal(((await promise) as Post).title, 'a');
    });

    it('errors from super.parseResponse(response) alone name the method and URL', async () => {
      class Unwrapping extends RestEndpoint {
        override async parseResponse(response: Response) {
          const value = (await super.parseResponse(response)) as { data?: unknown } | null;
          return value?.data ?? value;
        }
      }
      const get = new Unwrapping({
        urlPrefix: prefix,
        path: '/posts/:id',
        schema: Post,
        retry: 0,
        requestInit: { headers: { Authorization: 'Bearer secret-token' } },
      });
      const { controller, server } = setup();
      const failed = controller.fetch(get, { id: '1' });
      await flush();
      // A fake fetch's Response has an empty url, as many test doubles do.
      server.take(`GET ${prefix}/posts/1`).respond(500, { message: 'boom' });
      await assert.rejects(failed, (error: Error) => {
        assert.match(error.message, /GET https:\/\/api\.test\/posts\/1/);
        assert.doesNotMatch(error.message, /secret-token/);
        return true;
      });
      const html = controller.fetch(get, { id: '2' });
      await flush();
      server.take(`GET ${prefix}/posts/2`).respondText(200, '<html></html>', 'text/html');
      await assert.rejects(html, /GET https:\/\/api\.test\/posts\/2/);
    });

    it('getPage without a Collection says "Missing Collection"', () => {
      const plain = new RestEndpoint({
        urlPrefix: prefix,
        path: '/posts',
        schema: [Post],
        paginationField: 'page',
      });
      assert.throws(() => plain.getPage, /Missing Collection/);
    });

    it('normalized object and Values results leave undefined members out', () => {
      const object = normalize(new schema.Object({ a: Post, b: Post }), {
        a: { id: '1' },
        b: undefined,
      });
      assert.deepEqual(Object.keys(object.result as object), ['a']);
      const values = normalize(new schema.Values(Post), { x: { id: '1' }, y: undefined });
      assert.deepEqual(Object.keys(values.result as object), ['x']);
    });

    it('schema.Array of an object normalizes its values; [A, B] is refused', () => {
      const out = normalize(new schema.Array(Post), { first: { id: '1' }, second: { id: '2' } });
      assert.deepEqual(out.result, ['1', '2']);
      assert.throws(() => normalize([Post, Author], []), /one/);
    });

    it('JSON text where a parsed value is expected gets a hint', () => {
      assert.throws(() => normalize([Post], '[{"id":"1"}]'), /JSON/);
    });

    it('JSON text nested below the top gets the hint too, with where it is', () => {
      class Shelf extends Entity {
        id = '';
        books: Book[] = [];
        pk() {
          return this.id;
        }
        static override key = 'Shelf';
        static override schema = { books: [Book] };
      }
      const cases: [unknown, unknown, RegExp][] = [
        [Shelf, { id: 's', books: '[{"id":"1"}]' }, /response\.books/],
        [
          Shelf,
          { id: 's', books: [{ id: '1', author: '{"id":"a"}' }] },
          /response\.books\[0\]\.author/,
        ],
        [{ data: new schema.Collection([Post]) }, { data: '[]' }, /response\.data/],
        [
          { page: { items: new schema.Values(Post) } },
          { page: { items: '{}' } },
          /response\.page\.items/,
        ],
      ];
      for (const [shape, input, where] of cases) {
        assert.throws(
          () => normalize(shape, input, [{}]),
          (error: Error) => /JSON text/.test(error.message) && where.test(error.message),
        );
      }
      // A pk that merely starts with a bracket, or is array text (a compound pk), is still a pk.
      assert.equal(
        (
          normalize(Book, { id: '1', author: '[draft]' }).entities.Book!['1'] as Record<
            string,
            unknown
          >
        ).author,
        '[draft]',
      );
      assert.equal(
        (
          normalize(Book, { id: '1', author: '["org",1]' }).entities.Book!['1'] as Record<
            string,
            unknown
          >
        ).author,
        '["org",1]',
      );
    });
  });

  it('10: an optimistic create with a server-assigned id shows at once and is replaced without a duplicate', async (t) => {
    const reported = t.mock.method(console, 'error', () => {});
    const PostResource = createResource({
      urlPrefix: prefix,
      path: '/posts/:id',
      schema: Post,
      body: {} as { title?: string },
      optimistic: true,
    });
    const { controller, server } = setup();
    controller.setResponse(PostResource.getList, {}, [{ id: '1', title: 'a' }]);
    const created = controller.fetch(PostResource.getList.push, {}, { title: 'new' });
    const shown = controller.getResponse(PostResource.getList, {}).data as Post[];
    assert.deepEqual(
      shown.map((post) => post.title),
      ['a', 'new'],
    );
    await flush();
    server.take(`POST ${prefix}/posts`).respond(201, { id: '2', title: 'new' });
    await created;
    assert.deepEqual(ids(controller.getResponse(PostResource.getList, {}).data), ['1', '2']);
    assert.equal(reported.mock.callCount(), 0);
  });

  it('10: a pk() that gives "undefined" or NaN before the server answers also gets a placeholder', async (t) => {
    const reported = t.mock.method(console, 'error', () => {});
    class Templated extends Entity {
      id: number | undefined = undefined;
      title = '';
      pk() {
        return `${this.id}`;
      }
      static override key = 'Templated';
    }
    class Numeric extends Entity {
      id = 0;
      title = '';
      pk() {
        return Number((this as { id?: unknown }).id);
      }
      static override key = 'Numeric';
    }
    for (const [entity, path] of [
      [Templated, '/templated'],
      [Numeric, '/numeric'],
    ] as const) {
      const resource = createResource({
        urlPrefix: prefix,
        path: `${path}/:id`,
        schema: entity,
        body: {} as { title?: string },
        optimistic: true,
      });
      const { controller, server } = setup();
      controller.setResponse(resource.getList, {}, []);
      const created = controller.fetch(resource.getList.push, {}, { title: 'new' });
      const shown = controller.getResponse(resource.getList, {}).data as { title: string }[];
      assert.deepEqual(
        shown.map((row) => row.title),
        ['new'],
        entity.key,
      );
      await flush();
      server.take(`POST ${prefix}${path}`).respond(201, { id: 7, title: 'new' });
      await created;
      const after = controller.getResponse(resource.getList, {}).data as { id: number }[];
      assert.deepEqual(
        after.map((row) => row.id),
        [7],
      );
    }
    assert.equal(reported.mock.callCount(), 0);
  });
});

describe('issue 14: pathological depth, through the Controller', () => {
  class Node extends Entity {
    id = '';
    pk() {
      return this.id;
    }
    static override key = 'Node';
  }
  Object.assign(Node, { schema: { next: Node } });
  const getNode = new RestEndpoint({ urlPrefix: prefix, path: '/nodes/:id', schema: Node });
  // As text: JSON.stringify itself would overflow the stack on the deepest one.
  const chain = (levels: number) => {
    let text = `{"id":"n${levels}"}`;
    for (let i = levels - 1; i >= 0; i--) text = `{"id":"n${i}","next":${text}}`;
    return text;
  };

  for (const levels of [2_000, 10_000]) {
    it(`${levels.toLocaleString('en')} levels: the fetch rejects with a NormalizeError naming the URL, nothing is committed`, async () => {
      const { controller, server } = setup();
      controller.setResponse(getNode, { id: 'kept' }, { id: 'kept' });
      const before = controller.getState();
      const promise = controller.fetch(getNode, { id: 'n0' });
      await flush();
      server.take(`GET ${prefix}/nodes/n0`).respondText(200, chain(levels));
      await assert.rejects(promise, (error: Error) => {
        assert.equal(error.name, 'NormalizeError');
        assert.match(error.message, /nodes\/n0/);
        return true;
      });
      const after = controller.getState();
      assert.deepEqual(after.entities, before.entities);
      assert.deepEqual(after.endpoints, before.endpoints);
      const read = controller.getResponse(getNode, { id: 'n0' });
      assert.equal(read.data, undefined);
      assert.equal(read.expiryStatus, ExpiryStatus.Invalid);
      assert.equal((read.error as Error | undefined)?.name, 'NormalizeError');
      assert.ok(controller.getResponse(getNode, { id: 'kept' }).data instanceof Node);
    });
  }
});

describe('hostile input: shared and cyclic objects (setResponse, or a process() that links back)', () => {
  class Item extends Entity {
    id = '';
    pk() {
      return this.id;
    }
    static override key = 'Item';
  }
  Object.assign(Item, { schema: { next: Item, children: [Item] } });

  it('an entity object listed many times is walked once per place, not once per path', (t) => {
    const processed = t.mock.method(Item, 'process');
    // 14 levels, each listing the next twice: 2^14 paths through 15 objects.
    let node: Record<string, unknown> = { id: 'leaf' };
    for (let i = 0; i < 14; i++) node = { id: `n${i}`, children: [node, node] };
    const out = normalize(Item, node);
    assert.equal(Object.keys(out.entities.Item!).length, 15);
    assert.ok(processed.mock.callCount() <= 29, `process ran ${processed.mock.callCount()} times`);
  });

  it('an entity cycle stops where it has been, and reads back as a cycle', (t) => {
    const processed = t.mock.method(Item, 'process');
    const a: Record<string, unknown> = { id: 'a' };
    const b: Record<string, unknown> = { id: 'b', next: a };
    a.next = b;
    a.children = [a, b];
    const out = normalize(Item, a);
    assert.ok(processed.mock.callCount() <= 5, `process ran ${processed.mock.callCount()} times`);
    assert.deepEqual(out.entities.Item, {
      a: { id: 'a', next: 'b', children: ['a', 'b'] },
      b: { id: 'b', next: 'a' },
    });
    const read = denormalize(Item, 'a', out.entities) as Item & { next: Item & { next: unknown } };
    assert.equal(read.next.next, read);
  });

  it('a cycle through plain objects is a NormalizeError saying so, naming where', () => {
    const shape: Record<string, unknown> = {};
    shape.inner = shape;
    const looped: Record<string, unknown> = {};
    looped.inner = looped;
    assert.throws(
      () => normalize(shape, looped),
      (error: Error) =>
        error instanceof NormalizeError &&
        /refers back to itself/.test(error.message) &&
        /response\.inner\.inner/.test(error.message),
    );
  });
});
