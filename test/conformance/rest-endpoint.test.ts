// Translated from reactive/data-client packages/rest/src/__tests__/RestEndpoint.ts (runtime cases;
// the type-only cases there are covered by src/core/rest/*.test-d.ts). React hooks become the
// Controller; nock becomes a fake fetch.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Entity, RestEndpoint, createResource, schema } from '../../src/core/index.js';
import { fakeFetch, json, text } from '../../src/core/rest/test-utils/fake-fetch.js';
import type { RecordedRequest } from '../../src/core/rest/test-utils/fake-fetch.js';
import { flush } from '../../src/core/controller/test-utils/fake-fetch.js';
import { failOnUnhandledRejection, setup } from '../../src/core/controller/test-utils/harness.js';
import { differs, plain } from './support.js';

failOnUnhandledRejection();

class User extends Entity {
  id: number | undefined = undefined;
  username = '';
  email = '';
  isAdmin = false;
  pk() {
    return this.id;
  }
  static override key = 'User';
}

class PaginatedArticle extends Entity {
  id: number | undefined = undefined;
  title = '';
  author: number | null = null;
  pk() {
    return this.id;
  }
  static override key = 'PaginatedArticle';
  static override schema = { author: User };
}

class CoolerArticle extends Entity {
  id: number | undefined = undefined;
  title = '';
  content = '';
  tags: string[] = [];
  pk() {
    return this.id;
  }
  static override key = 'CoolerArticle';
}
const CoolerArticleResource = createResource({
  urlPrefix: 'http://test.com',
  path: '/article-cooler/:id',
  schema: CoolerArticle,
});

const getUser = new RestEndpoint({
  path: 'http\\://test.com/user/:id',
  name: 'User.get',
  schema: User,
  method: 'GET',
  searchParams: {} as { extra?: string },
});

const pagedSchema = () => ({
  nextPage: '',
  data: { results: new schema.Collection([PaginatedArticle]) },
});
const firstPage = { nextPage: '2', data: { results: [{ id: 5 }, { id: 3 }] } };
const secondPage = { data: { results: [{ id: 7 }, { id: 8 }] } };

/** A response without any Content-Type (a string body would get text/plain). */
const untyped = (body: string) => new Response(new TextEncoder().encode(body), { status: 200 });

/** A body sent by the endpoint, parsed. */
const sent = (request: RecordedRequest) => JSON.parse(String(request.body));

/** A fetch that answers with `{ ...answer, ...body }` (like the reference's echoing nock). */
const echo = (answer: Record<string, unknown>) =>
  fakeFetch((request) => json({ ...answer, ...(request.body === undefined ? {} : sent(request)) }));

async function answered<T>(
  server: ReturnType<typeof setup>['server'],
  promise: Promise<T>,
  route: string,
  body: unknown,
) {
  await flush();
  server.take(route).respond(200, body);
  return promise;
}

describe('rest RestEndpoint.ts', () => {
  describe('RestEndpoint', () => {
    it(
      'testKey should match keys',
      differs('docs/differences.md: no testKey; invalidateAll takes a key test'),
      () => {},
    );

    it('should assign members', () => {
      assert.equal(getUser.path, 'http\\://test.com/user/:id');
      assert.equal(getUser.sideEffect, false);
      assert.equal(getUser.method, 'GET');
      const updateUser = new RestEndpoint({
        path: 'http\\://test.com/user/:id',
        name: 'update',
        schema: User,
        method: 'POST',
      });
      assert.equal(updateUser.sideEffect, true);
    });

    it('only optional path means the arg is not required', () => {
      const ep = new RestEndpoint({ path: '/users/:id?/:group?' });
      assert.equal(ep.url(), '/users');
      assert.equal(ep.url({ id: 5 }), '/users/5');
      assert.equal(ep.url({ id: 5, group: 5 }), '/users/5/5');
    });

    it('should omit optional path params when undefined', () => {
      const ep = new RestEndpoint({ path: '/users/:id?' });
      assert.equal(ep.url({ id: undefined }), '/users');
      assert.equal(ep.url({ id: '5' }), '/users/5');
      assert.equal(ep.url({}), '/users');
      const ep2 = new RestEndpoint({ path: '/users/:id?/:group?' });
      assert.equal(ep2.url({ id: undefined, group: undefined }), '/users');
      assert.equal(ep2.url({ id: '5', group: undefined }), '/users/5');
    });

    it(
      'should allow sideEffect overrides',
      differs(
        'docs/differences.md: Endpoints: every method but GET is a side effect (a POST is never shared or cached as a read)',
      ),
      () => {},
    );

    it('should handle simple urls', () => {
      assert.equal(getUser.url({ id: '5' }), 'http://test.com/user/5');
      assert.equal(getUser.url({ id: '100' }), 'http://test.com/user/100');
    });

    it('should handle multiarg urls', () => {
      const getMyUser = new RestEndpoint({
        path: 'http\\://test.com/groups/:group/users/:id',
        schema: User,
        method: 'GET',
      });
      assert.equal(getMyUser.url({ group: 'big', id: '5' }), 'http://test.com/groups/big/users/5');
      assert.equal(
        getMyUser.url({ group: 'big', id: '100' }),
        'http://test.com/groups/big/users/100',
      );
      assert.throws(() => getMyUser.url({ id: '5' } as never), /group/);
    });

    it('should automatically name methods', () => {
      assert.equal(getUser.name, 'User.get');
      const list = new RestEndpoint({
        urlPrefix: 'http://test.com',
        path: '/article-paginated',
        schema: pagedSchema(),
      });
      // Ours also names the method: `GET http://test.com/article-paginated`.
      assert.match(list.name, /http:\/\/test\.com\/article-paginated$/);
      assert.match(list.extend({ path: '/:something' }).name, /http:\/\/test\.com\/:something$/);
    });

    it('should update on get for a paginated resource', async () => {
      const getArticleList = new RestEndpoint({
        urlPrefix: 'http://test.com',
        path: '/article-paginated',
        schema: pagedSchema(),
        paginationField: 'cursor',
      });
      const { controller, server } = setup();
      await answered(
        server,
        controller.fetch(getArticleList),
        'GET http://test.com/article-paginated',
        firstPage,
      );
      const shown = () =>
        controller.getResponse(getArticleList).data as {
          nextPage?: string;
          data: { results: PaginatedArticle[] };
        };
      assert.equal(shown().nextPage, '2');
      await answered(
        server,
        controller.fetch(getArticleList.getPage, { cursor: shown().nextPage! }),
        'GET http://test.com/article-paginated?cursor=2',
        secondPage,
      );
      assert.deepEqual(
        shown().data.results.map(({ id }) => id),
        [5, 3, 7, 8],
      );
      assert.equal(shown().nextPage, undefined);
    });

    it('should update on get for a paginated resource with parameter in path', async () => {
      const getArticleList2 = new RestEndpoint({
        urlPrefix: 'http://test.com/article-paginated/',
        path: ':group',
        name: 'get',
        schema: pagedSchema(),
        paginationField: 'cursor',
      });
      const { controller, server } = setup();
      await answered(
        server,
        controller.fetch(getArticleList2, { group: 'happy' }),
        'GET http://test.com/article-paginated/happy',
        firstPage,
      );
      await answered(
        server,
        controller.fetch(getArticleList2.getPage, { group: 'happy', cursor: 2 }),
        'GET http://test.com/article-paginated/happy?cursor=2',
        secondPage,
      );
      const shown = controller.getResponse(getArticleList2, { group: 'happy' }).data as {
        data: { results: PaginatedArticle[] };
      };
      assert.deepEqual(
        shown.data.results.map(({ id }) => id),
        [5, 3, 7, 8],
      );
    });

    const getArticleList3 = new RestEndpoint({
      urlPrefix: 'http://test.com',
      path: '/article-paginated',
      schema: pagedSchema(),
      searchParams: {} as { group: string | number },
      paginationField: 'cursor',
    }).extend({ dataExpiryLength: 10000 });

    it(
      'push: should extend name of parent endpoint',
      differs(
        "docs/differences.md: an unnamed list's push, unshift and remove are named after their own request, not the list's GET",
      ),
      () => {},
    );

    it(
      'unshift: should extend name of parent endpoint',
      differs(
        "docs/differences.md: an unnamed list's push, unshift and remove are named after their own request, not the list's GET",
      ),
      () => {},
    );

    it(
      'remove: should extend name of parent endpoint',
      differs(
        "docs/differences.md: an unnamed list's push, unshift and remove are named after their own request, not the list's GET",
      ),
      () => {},
    );
    it(
      'move: should extend name of parent endpoint',
      differs(
        "docs/differences.md: move is a member of the resource (TodoResource.move, a PATCH to the entity's path), not getList.move",
      ),
      () => {},
    );

    // There is no getList.move (docs/differences.md): the reference's `movePath` endpoint is a PATCH
    // to the member's path whose schema is the nested Collection's `move`.
    it('move should work with deeply nested Collection', async () => {
      class GroupedArticle extends Entity {
        id: number | undefined = undefined;
        title = '';
        group = '';
        pk() {
          return this.id;
        }
        static override key = 'GroupedArticle';
      }
      const results = new schema.Collection([GroupedArticle]);
      const getGroupedArticles = new RestEndpoint({
        urlPrefix: 'http://test.com',
        path: '/grouped-articles',
        schema: { nextPage: '', data: { results } },
        searchParams: {} as { group: string },
      });
      const moveArticle = new RestEndpoint({
        urlPrefix: 'http://test.com',
        path: '/grouped-articles/:id',
        method: 'PATCH',
        schema: results.move,
        body: {} as Partial<GroupedArticle>,
      });
      assert.ok(moveArticle.schema);
      assert.equal(moveArticle.method, 'PATCH');

      const { controller, server } = setup();
      controller.setResponse(
        getGroupedArticles,
        { group: 'alpha' },
        {
          nextPage: '2',
          data: {
            results: [
              { id: 1, title: 'Article 1', group: 'alpha' },
              { id: 2, title: 'Article 2', group: 'alpha' },
            ],
          },
        },
      );
      controller.setResponse(
        getGroupedArticles,
        { group: 'beta' },
        { nextPage: '2', data: { results: [{ id: 3, title: 'Article 3', group: 'beta' }] } },
      );
      const titles = (group: string) =>
        (
          controller.getResponse(getGroupedArticles, { group }).data as {
            data: { results: GroupedArticle[] };
          }
        ).data.results.map((article) => article.title);
      assert.equal(titles('alpha').length, 2);
      assert.equal(titles('beta').length, 1);

      // Move article 2 from alpha to beta.
      const body = { id: 2, title: 'Article 2', group: 'beta' };
      const response = await answered(
        server,
        controller.fetch(moveArticle, { id: 2 }, body),
        'PATCH http://test.com/grouped-articles/2',
        // The server echoes the body (the whole article here).
        body,
      );
      // One article, not an array.
      assert.ok(response instanceof GroupedArticle);
      assert.equal(response.title, 'Article 2');
      assert.equal(response.group, 'beta');

      assert.deepEqual(titles('alpha'), ['Article 1']);
      assert.deepEqual(titles('beta').sort(), ['Article 2', 'Article 3']);
    });

    it('getPage: should extend name of parent endpoint', () => {
      assert.ok(getArticleList3.getPage.name.startsWith(getArticleList3.name));
      assert.notEqual(getArticleList3.getPage.name, getArticleList3.name);
    });

    it('getPage: should update on get for a paginated resource with parameter in path', async () => {
      const { controller, server } = setup();
      await answered(
        server,
        controller.fetch(getArticleList3, { group: 'happy' }),
        'GET http://test.com/article-paginated?group=happy',
        firstPage,
      );
      await answered(
        server,
        controller.fetch(getArticleList3.getPage, { group: 'happy', cursor: 2 }),
        'GET http://test.com/article-paginated?group=happy&cursor=2',
        secondPage,
      );
      const shown = controller.getResponse(getArticleList3, { group: 'happy' }).data as {
        data: { results: PaginatedArticle[] };
      };
      assert.deepEqual(
        shown.data.results.map(({ id }) => id),
        [5, 3, 7, 8],
      );
    });

    it('should deduplicate results', async () => {
      const list = new RestEndpoint({
        urlPrefix: 'http://test.com',
        path: '/article-paginated',
        schema: pagedSchema(),
        paginationField: 'cursor',
      });
      const { controller, server } = setup();
      await answered(
        server,
        controller.fetch(list),
        'GET http://test.com/article-paginated',
        firstPage,
      );
      await answered(
        server,
        controller.fetch(list.getPage, { cursor: 2 }),
        'GET http://test.com/article-paginated?cursor=2',
        { data: { results: [{ id: 3 }, { id: 7 }, { id: 8 }] } },
      );
      const shown = controller.getResponse(list).data as { data: { results: PaginatedArticle[] } };
      assert.deepEqual(
        shown.data.results.map(({ id }) => id),
        [5, 3, 7, 8],
      );
    });

    it('should not deep-merge deeply defined entities', async () => {
      class ComplexEntity extends Entity {
        id = '';
        complexThing?: { firstvalue: number; secondthing: { arg?: number; other?: string } } =
          undefined;
        extra = '';
        pk() {
          return this.id;
        }
        static override key = 'ComplexEntity';
      }
      const getComplex = new RestEndpoint({ path: '/complex-thing/:id', schema: ComplexEntity });
      const first = {
        id: '5',
        complexThing: { firstvalue: 233, secondthing: { arg: 88 } },
        extra: 'hi',
      };
      const { controller, server } = setup();
      await answered(
        server,
        controller.fetch(getComplex, { id: '5' }),
        'GET /complex-thing/5',
        first,
      );
      assert.deepEqual(plain(controller.getResponse(getComplex, { id: '5' }).data), first);
      const second = { id: '5', complexThing: { firstvalue: 5, secondthing: { other: 'hi' } } };
      await answered(
        server,
        controller.fetch(getComplex, { id: '5' }),
        'GET /complex-thing/5',
        second,
      );
      assert.deepEqual(plain(controller.getResponse(getComplex, { id: '5' }).data), {
        ...second,
        extra: 'hi',
      });
    });

    it('overriding methods should work', async () => {
      const fake = echo({ id: 5, username: 'bob' });
      const updateUser = new RestEndpoint({
        method: 'PUT',
        path: 'http\\://test.com/user/:id',
        name: 'get',
        schema: User,
        getRequestInit(this: RestEndpoint, body: unknown) {
          const next =
            body && typeof body === 'object' ? { ...body, email: 'always@always.com' } : body;
          return RestEndpoint.prototype.getRequestInit.call(this, next);
        },
      } as never) as unknown as RestEndpoint;
      const response = await updateUser.run(
        [{ id: 5 }, { username: 'micky', email: 'micky@gmail.com' }] as never,
        { fetch: fake.fetch },
      );
      assert.equal(fake.only().url, 'http://test.com/user/5');
      assert.deepEqual(response, { id: 5, username: 'micky', email: 'always@always.com' });
    });

    describe('class extensions', () => {
      class DefaultUser extends User {
        defaultUserExtra = 'yay';
      }
      class MyEndpoint extends RestEndpoint {
        additional = 5;
        constructor(options: any) {
          super({ schema: DefaultUser, ...options });
        }
        override parseResponse(response: Response): Promise<unknown> {
          return super.parseResponse(response);
        }
        override getRequestInit(body: unknown) {
          if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
            return super.getRequestInit({ ...body, email: 'always@always.com' });
          }
          return super.getRequestInit(body);
        }
      }

      it('should work with constructor', async () => {
        const fake = echo({ id: 5, username: 'bob' });
        const updateUser = new MyEndpoint({
          method: 'PUT',
          path: 'http\\://test.com/user/:id',
          name: 'update',
          schema: User,
        });
        const response = await updateUser.run(
          [{ id: 5 }, { username: 'micky', email: 'micky@gmail.com' }] as never,
          { fetch: fake.fetch },
        );
        assert.deepEqual(response, { id: 5, username: 'micky', email: 'always@always.com' });
        assert.equal(updateUser.additional, 5);
      });

      it('setting body in extend should work', async () => {
        const fake = echo({ id: 5, username: 'bob' });
        const updateUser = new MyEndpoint({
          method: 'PUT',
          path: 'http\\://test.com/user/:id',
          name: 'update',
          schema: User,
        }).extend({ body: 5 as unknown, path: 'http\\://test.com/charmer/:charm' });
        const response = await updateUser.run(
          [{ charm: 5 }, { username: 'micky', email: 'micky@gmail.com' }] as never,
          { fetch: fake.fetch },
        );
        assert.equal(fake.only().url, 'http://test.com/charmer/5');
        assert.deepEqual(response, { id: 5, username: 'micky', email: 'always@always.com' });
        assert.equal((updateUser as unknown as MyEndpoint).additional, 5);
        const nobody = updateUser.extend({
          path: 'http\\://test.com/user/:charm',
          body: undefined,
        });
        assert.equal(nobody.url({ charm: 5 }), 'http://test.com/user/5');
      });

      it('setting body in extend should work without path', async () => {
        const fake = echo({ id: 5, username: 'bob' });
        const updateUser = new MyEndpoint({
          method: 'PUT',
          path: 'http\\://test.com/user/:id',
          name: 'update',
          schema: User,
        }).extend({ body: 5 as unknown });
        const response = await updateUser.run(
          [{ id: 5 }, { username: 'micky', email: 'micky@gmail.com' }] as never,
          { fetch: fake.fetch },
        );
        assert.equal(fake.only().url, 'http://test.com/user/5');
        assert.deepEqual(response, { id: 5, username: 'micky', email: 'always@always.com' });
        assert.equal((updateUser as unknown as MyEndpoint).additional, 5);
      });

      it('should work with default schema in class definition', async () => {
        const getDefault = new MyEndpoint({ path: 'http\\://test.com/user/:id', name: 'update' });
        const { controller, server } = setup();
        const user = (await answered(
          server,
          controller.fetch(getDefault as unknown as typeof getUser, { id: 5 }),
          'GET http://test.com/user/5',
          { id: 5, username: 'bob', email: 'bob@gmail.com' },
        )) as DefaultUser;
        assert.ok(user instanceof DefaultUser);
        assert.equal(user.username, 'bob');
        assert.equal(user.defaultUserExtra, 'yay');
        assert.equal(user.email, 'bob@gmail.com');
      });

      it('should work with default path in class definition', async () => {
        class UserEndpoint extends MyEndpoint {
          constructor({ path = 'http\\://test.com/user/:id', ...options }: any) {
            super({ path, ...options });
          }
        }
        const getDefault = new UserEndpoint({ method: 'GET', name: 'update' });
        const { controller, server } = setup();
        const user = (await answered(
          server,
          controller.fetch(getDefault as unknown as typeof getUser, { id: 5 }),
          'GET http://test.com/user/5',
          { id: 5, username: 'bob', email: 'bob@gmail.com' },
        )) as DefaultUser;
        assert.equal(user.username, 'bob');
        assert.equal(user.defaultUserExtra, 'yay');
      });

      it('update should work with extends', async () => {
        const fake = echo({ id: 5, username: 'charles' });
        const updateUser = new MyEndpoint({
          method: 'PUT',
          path: 'http\\://test.com/user/:id',
          name: 'update',
          schema: User,
        }).extend({ path: 'http\\://test.com/:group/user/:id' });
        assert.equal((updateUser as unknown as MyEndpoint).additional, 5);
        assert.equal(updateUser.method, 'PUT');
        const response = await updateUser.run(
          [{ group: '6', id: 5 }, { email: 'micky@gmail.com' }] as never,
          { fetch: fake.fetch },
        );
        assert.equal(fake.only().url, 'http://test.com/6/user/5');
        assert.deepEqual(response, { id: 5, username: 'charles', email: 'always@always.com' });
      });

      it('get should work with extends', async () => {
        class User2 extends Entity {
          id: number | undefined = undefined;
          username2 = '';
          pk() {
            return this.id;
          }
          static override key = 'User2';
        }
        const getUserBase = new MyEndpoint({
          method: 'GET',
          path: 'http\\://test.com/user/:id',
          name: 'getuser',
          schema: User,
        });
        const getUser2 = getUserBase.extend({
          path: 'http\\://test.com/:group/user/:id',
          schema: User2,
        });
        assert.equal(getUserBase.name, 'getuser');
        assert.equal(getUserBase.extend({ method: 'GET' }).name, 'getuser');
        assert.equal(getUser2.name, 'getuser');
        assert.equal((getUser2 as unknown as MyEndpoint).additional, 5);
        assert.equal(getUser2.method, 'GET');
        const fake = fakeFetch(() => json({ id: 5, username2: 'charles' }));
        const user = await getUser2.run([{ group: '6', id: 5 }] as never, { fetch: fake.fetch });
        assert.deepEqual(user, { id: 5, username2: 'charles' });
        // Our query keeps the caller's order (docs/differences.md: only the cache key is sorted).
        const withSearch = getUser2.extend({
          searchParams: {} as { isAdmin?: boolean; sort: string },
        });
        const url = new URL(
          withSearch.url({ group: 'hi', id: 'what', sort: 'desc', isAdmin: true } as never),
        );
        assert.equal(url.origin + url.pathname, 'http://test.com/hi/user/what');
        assert.deepEqual(Object.fromEntries(url.searchParams), { sort: 'desc', isAdmin: 'true' });
        const toUsers = getUserBase.extend({ path: '/users' });
        assert.equal(toUsers.url({ bigger: true } as never), '/users?bigger=true');
        assert.equal(toUsers.url(), '/users');
      });

      it(
        'should work with custom searchToString',
        differs(
          'docs/differences.md: RestEndpoint: no searchToString hook (the query is built by url())',
        ),
        () => {},
      );
    });

    it('extending with name should work', () => {
      const named = CoolerArticleResource.get.extend({ name: 'mything' });
      const moved = CoolerArticleResource.get.extend({ path: '/:bob' });
      assert.equal(CoolerArticleResource.get.name, 'CoolerArticle.get');
      assert.equal(named.name, 'mything');
      assert.equal(moved.name, 'CoolerArticle.get');
    });

    it('should infer default method when sideEffect is set', async () => {
      const endpoint = new RestEndpoint({
        sideEffect: true,
        path: 'http\\://test.com/article-cooler',
        schema: CoolerArticle,
      } as never) as unknown as RestEndpoint;
      assert.equal(endpoint.method, 'POST');
      assert.equal(endpoint.sideEffect, true);
      const fake = fakeFetch((request) => json(sent(request), 201));
      const payload = { id: 1, title: 'hi ho', content: 'whatever', tags: ['a', 'best', 'react'] };
      assert.deepEqual(await endpoint.run([payload] as never, { fetch: fake.fetch }), payload);
      assert.equal(fake.only().method, 'POST');
    });
  });

  describe('RestEndpoint.fetch()', () => {
    const id = 5;
    const run = (
      endpoint: { run(args: never, context: object): Promise<unknown> },
      args: unknown[],
      fake: ReturnType<typeof fakeFetch>,
    ) => endpoint.run(args as never, { fetch: fake.fetch });

    it('should GET', async () => {
      const fake = fakeFetch(() => json({ id, title: 'happy' }));
      const article = (await run(CoolerArticleResource.get, [{ id }], fake)) as { title: string };
      assert.equal(fake.only().url, 'http://test.com/article-cooler/5');
      assert.equal(article.title, 'happy');
    });

    it('should POST', async () => {
      const fake = fakeFetch((request) => json(sent(request), 201));
      const payload = { id: 20, content: 'better task' };
      assert.deepEqual(await run(CoolerArticleResource.getList.push, [payload], fake), payload);
      assert.equal(fake.only().method, 'POST');
      assert.equal(fake.only().url, 'http://test.com/article-cooler');
    });

    it('should PUT with multipart form data', async () => {
      const fake = fakeFetch(() => json({ id: 500, content: 'another' }, 201));
      const body = new FormData();
      body.append('photo', new Blob());
      const article = await run(
        CoolerArticleResource.update.extend({ body: new FormData() }),
        [{ id: '500' }, body],
        fake,
      );
      const request = fake.only();
      assert.equal(request.method, 'PUT');
      assert.ok(request.body instanceof FormData);
      // fetch sets the multipart boundary itself: no JSON Content-Type may be forced on it.
      assert.ok(
        !Object.keys(request.headers).some((name) => name.toLowerCase() === 'content-type'),
      );
      assert.deepEqual(article, { id: 500, content: 'another' });
    });

    it('should DELETE', async () => {
      const fake = fakeFetch(() => json({}));
      const res = await run(CoolerArticleResource.delete, [{ id }], fake);
      assert.equal(fake.only().method, 'DELETE');
      assert.deepEqual(plain(res), { id });
    });

    it('should PUT', async () => {
      const fake = fakeFetch(() => json({ id, title: 'happy', completed: true }));
      const response = await run(
        CoolerArticleResource.update,
        [{ id }, { ...CoolerArticle.fromJS({ id, title: 'happy' }) }],
        fake,
      );
      assert.equal(fake.only().method, 'PUT');
      assert.deepEqual(Object.keys(sent(fake.only())).sort(), ['content', 'id', 'tags', 'title']);
      assert.deepEqual(response, { id, title: 'happy', completed: true });
    });

    it('should PATCH', async () => {
      const fake = fakeFetch(() => json({ id, title: 'happy', completed: false }));
      const response = await run(
        CoolerArticleResource.partialUpdate,
        [{ id }, { title: 'happy' }],
        fake,
      );
      assert.equal(fake.only().method, 'PATCH');
      assert.deepEqual(sent(fake.only()), { title: 'happy' });
      assert.deepEqual(response, { id, title: 'happy', completed: false });
    });

    it('should throw if response is not json', async () => {
      const fake = fakeFetch(() => text('<body>this is html</body>', 'application/json'));
      await assert.rejects(run(CoolerArticleResource.get, [{ id: 6 }], fake), {
        name: 'ResponseFormatError',
      });
    });

    it('should throw if network is down', async () => {
      const fake = fakeFetch(() => {
        throw new TypeError('Network Down');
      });
      await assert.rejects(run(CoolerArticleResource.get, [{ id: 10 }], fake), (error: Error) => {
        assert.match(error.message, /GET http:\/\/test\.com\/article-cooler\/10/);
        assert.match(error.message, /Network Down/);
        // The reference gives it status 500; ours has no status, since no response came.
        assert.equal((error as { status?: number }).status, undefined);
        return true;
      });
    });

    it('should return raw response if status is 204 No Content', async () => {
      const fake = fakeFetch(() => new Response(null, { status: 204 }));
      assert.equal(await run(CoolerArticleResource.get, [{ id: 7 }], fake), null);
    });

    it('should reject if content-type is not json with schema', async () => {
      const fake = fakeFetch(() => text('<body>this is html</body>', 'html/text'));
      await assert.rejects(run(CoolerArticleResource.get, [{ id: 8 }], fake), (error: Error) => {
        assert.equal(error.name, 'ResponseFormatError');
        assert.match(error.message, /article-cooler\/8/);
        return true;
      });
    });

    it('should reject if content-type does not exist with schema', async () => {
      const fake = fakeFetch(() => untyped('<body>this is html</body>'));
      await assert.rejects(run(CoolerArticleResource.get, [{ id: 10 }], fake), {
        name: 'ResponseFormatError',
      });
    });

    it(
      'should return text if content-type is not json with no schema',
      differs(
        'docs/differences.md (a 2xx body that is not JSON is a ResponseFormatError): a body that is neither JSON nor text/plain is a ResponseFormatError, schema or not (an HTML error page must not pass as data)',
      ),
      () => {},
    );

    it(
      'should return text if content-type does not exist with no schema',
      differs(
        'docs/differences.md (a 2xx body that is not JSON is a ResponseFormatError): without a Content-Type the body is read as JSON; HTML there is a ResponseFormatError, schema or not',
      ),
      () => {},
    );

    it('should reject with custom message if content type is set but json parsable', async () => {
      const fake = fakeFetch(() => text(JSON.stringify({ id: 8, title: 'hi' }), 'text'));
      await assert.rejects(run(CoolerArticleResource.get, [{ id: 8 }], fake), (error: Error) => {
        assert.equal(error.name, 'ResponseFormatError');
        assert.match(error.message, /Content-Type/);
        return true;
      });
    });

    it('should still work with empty content-type', async () => {
      const fake = fakeFetch(() => untyped(JSON.stringify({ id: 8, title: 'hi' })));
      assert.deepEqual(await run(CoolerArticleResource.get, [{ id: 8 }], fake), {
        id: 8,
        title: 'hi',
      });
    });

    it('without Collection in schema - endpoint.push schema should be null', () => {
      const noCollection = new RestEndpoint({
        urlPrefix: 'http://test.com/article-paginated/',
        path: ':group',
        name: 'get',
        schema: { nextPage: '', data: { results: [PaginatedArticle] } },
      });
      // The reference keeps a push whose schema is null; ours has no push at all (nothing to add to).
      assert.equal((noCollection as { push?: unknown }).push, undefined);
      assert.equal((noCollection as { unshift?: unknown }).unshift, undefined);
    });
  });
});
