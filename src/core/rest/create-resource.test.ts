import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import type { Snapshot } from '../protocol/types.js';
import { Collection } from '../schema/collection.js';
import { Entity } from '../schema/entity.js';
import { Invalidate } from '../schema/invalidate.js';
import { UnionSchema as Union } from '../schema/union.js';
import { createResource, type ResourceOptions } from './create-resource.js';
import { RestEndpoint } from './rest-endpoint.js';
import { fakeFetch, json, text, type RecordedRequest } from './test-utils/fake-fetch.js';

const prefix = 'https://api.test';

class Post extends Entity {
  id = '';
  group = '';
  title = '';
  author = '';
  pk() {
    return this.id;
  }
  static override key = 'Post';
}

const PostResource = createResource({
  urlPrefix: prefix,
  path: '/:group/posts/:id',
  schema: Post,
  searchParams: {} as { author?: string },
  body: {} as { title: string; author?: string },
  paginationField: 'page',
});

/** A Collection subclass: `sort` orders a list and does not filter it. */
class SortedCollection extends Collection {
  override nonFilterArgumentKeys(key: string) {
    return key === 'sort';
  }
}

function shape({ method, url, headers, body }: RecordedRequest) {
  return { method, url, headers, body };
}
const JSON_HEADERS = { 'Content-Type': 'application/json' };

describe('createResource members (spec "createResource members")', () => {
  it('sends every member with its method, path, query and body', async () => {
    const fake = fakeFetch(() => json({ id: '5', group: 'g', title: 't' }));
    const run = (endpoint: RestEndpoint<any>, ...args: unknown[]) =>
      endpoint.run(args as any, { fetch: fake.fetch });
    await run(PostResource.get, { group: 'g', id: 5 });
    await run(PostResource.getList, { group: 'g', author: 'ann' });
    await run(PostResource.getList.push, { group: 'g', author: 'ann' }, { title: 't' });
    await run(PostResource.getList.unshift, { group: 'g' }, { title: 'u' });
    fake.respond(() => json([]));
    await run(PostResource.getList.getPage, { group: 'g', page: 2, author: 'ann' });
    fake.respond(() => json({ id: '5' }));
    await run(PostResource.update, { group: 'g', id: 5 }, { title: 'new' });
    await run(PostResource.partialUpdate, { group: 'g', id: 5 }, { title: 'part' });
    await run(PostResource.delete, { group: 'g', id: 5 });
    assert.deepEqual(fake.calls.map(shape), [
      { method: 'GET', url: `${prefix}/g/posts/5`, headers: {}, body: undefined },
      { method: 'GET', url: `${prefix}/g/posts?author=ann`, headers: {}, body: undefined },
      {
        method: 'POST',
        url: `${prefix}/g/posts?author=ann`,
        headers: JSON_HEADERS,
        body: '{"title":"t"}',
      },
      { method: 'POST', url: `${prefix}/g/posts`, headers: JSON_HEADERS, body: '{"title":"u"}' },
      { method: 'GET', url: `${prefix}/g/posts?author=ann&page=2`, headers: {}, body: undefined },
      { method: 'PUT', url: `${prefix}/g/posts/5`, headers: JSON_HEADERS, body: '{"title":"new"}' },
      {
        method: 'PATCH',
        url: `${prefix}/g/posts/5`,
        headers: JSON_HEADERS,
        body: '{"title":"part"}',
      },
      { method: 'DELETE', url: `${prefix}/g/posts/5`, headers: {}, body: undefined },
    ]);
  });

  it('gives each member the schema of the table', () => {
    assert.equal(PostResource.get.schema, Post);
    assert.equal(PostResource.update.schema, Post);
    assert.equal(PostResource.partialUpdate.schema, Post);
    assert.ok(PostResource.getList.schema instanceof Collection);
    assert.equal(PostResource.getList.push.schema, PostResource.getList.schema.push);
    assert.equal(PostResource.getList.unshift.schema, PostResource.getList.schema.unshift);
    assert.ok(PostResource.getList.getPage.schema instanceof Collection);
    assert.equal((PostResource.getList.getPage.schema as any).mode, 'add');
    assert.ok(PostResource.delete.schema instanceof Invalidate);
    assert.equal(PostResource.delete.schema.entity, Post);
    assert.deepEqual(
      [PostResource.get, PostResource.getList, PostResource.getList.getPage].map(
        (e) => e.sideEffect,
      ),
      [false, false, false],
    );
    assert.deepEqual(
      [
        PostResource.getList.push,
        PostResource.update,
        PostResource.partialUpdate,
        PostResource.delete,
      ].map((e) => e.sideEffect),
      [true, true, true, true],
    );
    assert.equal(PostResource.getList.getPage.paginationField, 'page');
    assert.equal(
      PostResource.getList.push,
      PostResource.getList.push,
      'derived members are stable',
    );
  });

  it('rule 1: getPage exists only with paginationField', () => {
    const plain = createResource({ path: '/todos/:id', schema: Post });
    assert.equal(plain.getList.getPage, undefined);
    assert.ok(PostResource.getList.getPage);
  });

  it('rules 3-6: shortened path params plus searchParams as ?name=value; get and getList request shapes', () => {
    assert.equal(PostResource.get.url({ group: 'news', id: 'p1' }), `${prefix}/news/posts/p1`);
    assert.equal(
      PostResource.getList.url({ group: 'news', author: 'a b' }),
      `${prefix}/news/posts?author=a%20b`,
    );
    assert.equal(
      PostResource.getList.getPage.url({ page: 3, group: 'news', author: 'x' }),
      `${prefix}/news/posts?author=x&page=3`,
    );
    assert.equal(PostResource.getList.key({ group: 'news' }), `GET ${prefix}/news/posts`);
  });

  it('shortens the path as in the spec table, and rejects a path without parameter', () => {
    const urls = (['/:first/:second', '/:first'] as const).map(
      (path) => createResource({ path, schema: Post }).getList.path,
    );
    assert.deepEqual(urls, ['/:first', '/']);
    assert.throws(
      () => createResource({ path: '/todos', schema: Post } as ResourceOptions as any),
      /Path "\/todos" has no parameter/,
    );
  });

  it('a Union schema: delete invalidates the member its params name (issue 15)', async () => {
    class Link extends Entity {
      id = '';
      type = 'link';
      pk() {
        return this.id;
      }
      static override key = 'Link';
    }
    const FeedResource = createResource({
      path: '/feed/:id',
      schema: new Union({ link: Link }, 'type'),
    });
    assert.ok(FeedResource.delete.schema instanceof Invalidate);
    const fake = fakeFetch(() => new Response(null, { status: 204 }));
    const removed = await FeedResource.delete.run([{ id: '5', type: 'link' }] as never, {
      fetch: fake.fetch,
    });
    assert.equal(fake.only().url, '/feed/5?type=link');
    assert.equal(FeedResource.delete.schema.pkOf(removed), '5');
  });

  it('rules 7-8: delete resolves with a string pk, a non-empty object, or the URL params', async () => {
    const run = async (response: Response) => {
      const fake = fakeFetch(() => response);
      return PostResource.delete.run([{ group: 'g', id: '5' }], { fetch: fake.fetch });
    };
    assert.equal(await run(json('5')), '5');
    assert.equal(await run(text('5')), '5');
    assert.deepEqual(await run(json({ id: '5', title: 'gone' })), { id: '5', title: 'gone' });
    assert.deepEqual(await run(json({})), { group: 'g', id: '5' });
    assert.deepEqual(await run(new Response(null, { status: 204 })), { group: 'g', id: '5' });
    assert.deepEqual(await run(text('', '')), { group: 'g', id: '5' });
    // Each of them is something Invalidate computes the pk from.
    for (const value of ['5', { id: '5' }, { group: 'g', id: '5' }]) {
      assert.equal(PostResource.delete.schema.pkOf(value), '5');
    }
  });

  it('rule 9: Endpoint builds every member and Collection builds the getList schema', async () => {
    class SameOrigin extends RestEndpoint {
      override async getRequestInit(body: unknown): Promise<RequestInit> {
        return { ...(await super.getRequestInit(body)), credentials: 'same-origin' };
      }
    }
    const Resource = createResource({
      path: '/todos/:id',
      schema: Post,
      Endpoint: SameOrigin,
      Collection: SortedCollection,
      paginationField: 'cursor',
    });
    const members = [
      Resource.get,
      Resource.getList,
      Resource.getList.push,
      Resource.getList.unshift,
      Resource.getList.getPage,
      Resource.update,
      Resource.partialUpdate,
      Resource.delete,
    ];
    for (const member of members) assert.ok(member instanceof SameOrigin, member!.name);
    assert.ok(Resource.getList.schema instanceof SortedCollection);
    assert.equal(Resource.getList.schema.nonFilterArgumentKeys('sort'), true);
    const fake = fakeFetch(() => json({ id: '1' }));
    await Resource.update.run([{ id: 1 }, { title: 'x' }], { fetch: fake.fetch });
    assert.equal(fake.only().init.credentials, 'same-origin');
  });

  it('passes extra endpoint options (pollFrequency, requestInit) to every member', () => {
    const Resource = createResource({
      path: '/todos/:id',
      schema: Post,
      pollFrequency: 5000,
      dataExpiryLength: 1000,
    });
    for (const member of [
      Resource.get,
      Resource.getList,
      Resource.getList.push,
      Resource.update,
      Resource.delete,
    ]) {
      assert.equal(member.pollFrequency, 5000, member.name);
      assert.equal(member.dataExpiryLength, 1000, member.name);
    }
  });

  it('move: PATCH to the entity path with collection.move; getList.remove: PATCH to the list URL with collection.remove', async () => {
    const fake = fakeFetch(() => json({ id: '5', group: 'g', title: 't' }));
    const run = (endpoint: RestEndpoint<any>, ...args: unknown[]) =>
      endpoint.run(args as any, { fetch: fake.fetch });
    await run(PostResource.move, { group: 'g', id: 5 }, { title: 'moved' });
    await run(PostResource.getList.remove, { group: 'g', author: 'ann' }, { id: '5' });
    assert.deepEqual(fake.calls.map(shape), [
      {
        method: 'PATCH',
        url: `${prefix}/g/posts/5`,
        headers: JSON_HEADERS,
        body: '{"title":"moved"}',
      },
      {
        method: 'PATCH',
        url: `${prefix}/g/posts?author=ann`,
        headers: JSON_HEADERS,
        body: '{"id":"5"}',
      },
    ]);
    assert.equal(PostResource.move.schema, PostResource.getList.schema.move);
    assert.equal(PostResource.getList.remove.schema, PostResource.getList.schema.remove);
    assert.equal(PostResource.getList.remove, PostResource.getList.remove, 'made once');
    assert.deepEqual(
      [PostResource.move.sideEffect, PostResource.getList.remove.sideEffect],
      [true, true],
    );
    assert.deepEqual(
      [PostResource.move.name, PostResource.getList.remove.name],
      ['Post.move', 'Post.getList.remove'],
    );
    // The Collection subclass given to createResource decides move's lists too.
    const Sorted = createResource({
      path: '/todos/:id',
      schema: Post,
      Collection: SortedCollection,
    });
    assert.ok(Sorted.move.schema instanceof SortedCollection);
    assert.equal((Sorted.move.schema as Collection).mode, 'move');
    // extend() keeps them, and changes them like any member.
    const Extended = PostResource.extend({ move: { urlPrefix: 'https://other.test' } });
    assert.equal(Extended.move.schema, PostResource.move.schema);
    assert.equal(Extended.move.url({ group: 'g', id: 1 }), 'https://other.test/g/posts/1');
    assert.equal(Extended.getList.remove, PostResource.getList.remove);
  });

  it('names members after the entity', () => {
    assert.deepEqual(
      [
        PostResource.get.name,
        PostResource.getList.push.name,
        PostResource.getList.getPage.name,
        PostResource.delete.name,
      ],
      ['Post.get', 'Post.getList.push', 'Post.getList.getPage', 'Post.delete'],
    );
  });
});

describe('createResource optimistic', () => {
  const Resource = createResource({ path: '/posts/:id', schema: Post, optimistic: true });
  const abort = new Error('abort');
  const snapshot = (stored: Record<string, Post>): Snapshot => ({
    get: ((_entity: unknown, props: { id: string }) => stored[props.id]) as Snapshot['get'],
    getResponse: (() => undefined) as unknown as Snapshot['getResponse'],
    fetchedAt: 0,
    abort,
  });

  it('gives the same getOptimisticResponse each time for one endpoint, its own for another', () => {
    const guess = Resource.update.getOptimisticResponse;
    assert.equal(typeof guess, 'function');
    assert.equal(Resource.update.getOptimisticResponse, guess);
    assert.equal(
      Resource.getList.push.getOptimisticResponse,
      Resource.getList.push.getOptimisticResponse,
    );
    const other = Resource.update.extend({ path: '/articles/:id' });
    assert.equal(typeof other.getOptimisticResponse, 'function');
    assert.notEqual(other.getOptimisticResponse, guess);
  });

  it('gives every mutation member a getOptimisticResponse, and no read', () => {
    assert.equal(Resource.get.getOptimisticResponse, undefined);
    assert.equal(Resource.getList.getOptimisticResponse, undefined);
    assert.equal(PostResource.update.getOptimisticResponse, undefined, 'not without optimistic');
    const snap = snapshot({});
    assert.deepEqual(Resource.update.getOptimisticResponse!(snap, { id: '1' }, { title: 'x' }), {
      id: '1',
      title: 'x',
    });
    assert.deepEqual(
      Resource.getList.push.getOptimisticResponse!(snap, {}, { title: 'n' } as any),
      { title: 'n' },
    );
    assert.deepEqual(Resource.getList.unshift.getOptimisticResponse!(snap, { title: 'n' } as any), {
      title: 'n',
    });
    assert.deepEqual(Resource.delete.getOptimisticResponse!(snap, { id: '1' }), { id: '1' });
  });

  it('partialUpdate merges the body into the stored entity, and aborts when there is none', () => {
    const stored = Post.fromJS({ id: '1', title: 'old', author: 'ann' });
    const merged = Resource.partialUpdate.getOptimisticResponse!(
      snapshot({ '1': stored }),
      { id: '1' },
      { title: 'new' },
    );
    assert.deepEqual(
      { ...(merged as object) },
      { id: '1', group: '', title: 'new', author: 'ann' },
    );
    assert.throws(
      () =>
        Resource.partialUpdate.getOptimisticResponse!(snapshot({}), { id: '2' }, { title: 'x' }),
      (e) => e === abort,
    );
  });

  it('move and getList.remove merge the body into the stored entity, named by params or body', () => {
    const stored = Post.fromJS({ id: '1', title: 'old', author: 'ann' });
    const snap = snapshot({ '1': stored });
    const moved = Resource.move.getOptimisticResponse!(snap, { id: '1' }, { author: 'bob' });
    assert.deepEqual({ ...(moved as object) }, { id: '1', group: '', title: 'old', author: 'bob' });
    const removed = Resource.getList.remove.getOptimisticResponse!(snap, {}, { id: '1' });
    assert.deepEqual(
      { ...(removed as object) },
      { id: '1', group: '', title: 'old', author: 'ann' },
    );
    assert.throws(
      () => Resource.move.getOptimisticResponse!(snapshot({}), { id: '2' }, { title: 'x' }),
      (e) => e === abort,
    );
  });
});

describe('extend() (spec "extend()")', () => {
  it('batch form overrides options of known members; the original is unchanged', async () => {
    const Extended = PostResource.extend({
      update: { method: 'PATCH', path: '/:group/posts/:id/edit' },
      get: { urlPrefix: 'https://other.test' },
    });
    assert.equal(PostResource.update.method, 'PUT');
    assert.equal(PostResource.update.path, '/:group/posts/:id');
    const fake = fakeFetch(() => json({ id: '1' }));
    await Extended.update.run([{ group: 'g', id: 1 }, { title: 'x' }], { fetch: fake.fetch });
    await Extended.get.run([{ group: 'g', id: 1 }], { fetch: fake.fetch });
    await Extended.partialUpdate.run([{ group: 'g', id: 1 }, { title: 'y' }], {
      fetch: fake.fetch,
    });
    assert.deepEqual(fake.calls.map(shape), [
      {
        method: 'PATCH',
        url: `${prefix}/g/posts/1/edit`,
        headers: JSON_HEADERS,
        body: '{"title":"x"}',
      },
      { method: 'GET', url: 'https://other.test/g/posts/1', headers: {}, body: undefined },
      { method: 'PATCH', url: `${prefix}/g/posts/1`, headers: JSON_HEADERS, body: '{"title":"y"}' },
    ]);
  });

  it('add-member form builds a new member from get', async () => {
    const Extended = PostResource.extend('search', {
      path: '/:group/posts/search',
      searchParams: {} as { q: string },
      schema: [Post],
    });
    assert.ok(Extended.get);
    const fake = fakeFetch(() => json([]));
    await Extended.search.run([{ group: 'g', q: 'lit' }], { fetch: fake.fetch });
    assert.deepEqual(shape(fake.only()), {
      method: 'GET',
      url: `${prefix}/g/posts/search?q=lit`,
      headers: {},
      body: undefined,
    });
    assert.deepEqual(Extended.search.schema, [Post]);
    assert.equal((PostResource as unknown as Record<string, unknown>).search, undefined);
  });

  it('function form adds or changes members from the base resource', async () => {
    const Extended = PostResource.extend((Base) => ({
      byAuthor: Base.getList.extend({ path: '/authors/:author/posts', name: 'Post.byAuthor' }),
      get: Base.get.extend({ requestInit: { headers: { 'X-Version': '2' } } }),
    }));
    const fake = fakeFetch(() => json([]));
    await Extended.byAuthor.run([{ author: 'ann' }] as any, { fetch: fake.fetch });
    fake.respond(() => json({ id: '1' }));
    await Extended.get.run([{ group: 'g', id: 1 }], { fetch: fake.fetch });
    assert.deepEqual(fake.calls.map(shape), [
      { method: 'GET', url: `${prefix}/authors/ann/posts`, headers: {}, body: undefined },
      { method: 'GET', url: `${prefix}/g/posts/1`, headers: { 'X-Version': '2' }, body: undefined },
    ]);
    assert.ok(Extended.byAuthor.push, 'derived members follow the new list');
    // extend can be chained
    const again = Extended.extend('ping', { path: '/ping' });
    assert.equal(typeof again.byAuthor, 'function');
    assert.equal(typeof again.ping, 'function');
  });

  it('a user function can wrap createResource: default Endpoint, then getList with another schema', async () => {
    class ApiEndpoint extends RestEndpoint {
      override async getRequestInit(body: unknown): Promise<RequestInit> {
        return { ...(await super.getRequestInit(body)), credentials: 'same-origin' };
      }
    }
    function createApiResource<const P extends string>(options: { path: P; schema: typeof Post }) {
      return createResource({
        urlPrefix: prefix,
        Endpoint: ApiEndpoint,
        path: options.path,
        schema: options.schema,
      }).extend({
        getList: {
          schema: {
            results: new Collection([options.schema]),
            total: 0,
            limit: 0,
            skip: 0,
          },
        },
      });
    }
    const Posts = createApiResource({ path: '/posts/:id', schema: Post });
    const fake = fakeFetch(() => json({ results: [], total: 0, limit: 10, skip: 0 }));
    await Posts.getList.run([{ skip: 10 }] as any, { fetch: fake.fetch });
    assert.equal(fake.only().url, `${prefix}/posts?skip=10`);
    assert.equal(fake.only().init.credentials, 'same-origin');
    assert.ok((Posts.getList as unknown) instanceof ApiEndpoint);
    const schema = Posts.getList.schema as { results: Collection };
    assert.equal(Posts.getList.push.schema, schema.results.push);
    fake.respond(() => json({ id: '9' }));
    await Posts.getList.push.run([{ title: 'x' }] as any, { fetch: fake.fetch });
    assert.equal(fake.calls[1]!.method, 'POST');
    assert.equal(fake.calls[1]!.url, `${prefix}/posts`);
  });
});

describe('batch delete pattern', () => {
  it('maps the input ids to { id } objects from an empty response', async () => {
    const batchDelete = new RestEndpoint({
      urlPrefix: prefix,
      path: '/posts',
      method: 'DELETE',
      body: [] as string[],
      schema: [new Invalidate(Post)],
      process(_empty: unknown, _params: unknown, ids: string[]) {
        return ids.map((id) => ({ id }));
      },
    });
    const fake = fakeFetch(() => text('', ''));
    const value = await batchDelete.run([{}, ['1', '2']], { fetch: fake.fetch });
    assert.deepEqual(value, [{ id: '1' }, { id: '2' }]);
    assert.deepEqual(shape(fake.only()), {
      method: 'DELETE',
      url: `${prefix}/posts`,
      headers: JSON_HEADERS,
      body: '["1","2"]',
    });
    const [invalidate] = batchDelete.schema;
    assert.deepEqual(
      (value as object[]).map((item) => invalidate.pkOf(item)),
      ['1', '2'],
    );
  });
});

describe('createResource errors in a production build', () => {
  it('keep the facts and leave the advice to development', () => {
    const saved = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      const { get: _get, ...withoutGet } = createResource({ path: '/todos/:id', schema: Post });
      const extend = createResource({ path: '/todos/:id', schema: Post }).extend as (
        ...args: unknown[]
      ) => unknown;
      const seen: string[] = [];
      for (const make of [
        () => createResource({} as never),
        () => createResource({ path: '/todos/:id' } as never),
        () => createResource({ path: '/todos', schema: Post }),
        () => new Union({}),
        () => extend.call(withoutGet, 'search', {}),
      ]) {
        try {
          make();
          seen.push('no error');
        } catch (error) {
          seen.push((error as Error).message);
        }
      }
      assert.deepEqual(seen, [
        'createResource needs a path template.',
        'createResource({ path: "/todos/:id" }) needs a schema.',
        'Path "/todos" has no parameter.',
        'schema.Union needs at least one entity type',
        'extend("search"): the resource has no "get" member.',
      ]);
    } finally {
      process.env.NODE_ENV = saved;
    }
  });
});
