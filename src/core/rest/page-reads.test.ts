// A list with `paginationField` read page by page (previous / next buttons): a `getList` read that
// passes the page is its own read (its own request, its own data), while `getList.getPage` still
// appends to the list fetched without the page.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Entity } from '../schema/entity.js';
import * as schema from '../schema/namespace.js';
import { createResource } from './create-resource.js';
import { RestEndpoint } from './rest-endpoint.js';
import { storeKey } from '../protocol/store-key.js';
import { flush } from '../controller/test-utils/fake-fetch.js';
import type { FakeServer } from '../controller/test-utils/fake-fetch.js';
import { failOnUnhandledRejection, setup } from '../controller/test-utils/harness.js';

failOnUnhandledRejection();

class Post extends Entity {
  id = '';
  group = '';
  title = '';
  pk() {
    return this.id;
  }
  static override key = 'Post';
}

const prefix = 'https://api.test';
// As the pagination guide sets it up.
const PostResource = createResource({
  urlPrefix: prefix,
  path: '/api/:group/posts/:id',
  schema: Post,
  paginationField: 'page',
});
const { getList } = PostResource;

const posts = (...ids: string[]) => ids.map((id) => ({ id, group: 'news', title: `post ${id}` }));
const ids = (data: unknown) => (data as Post[] | undefined)?.map((post) => post.id);

/** Answers the one request waiting for `url` (RestEndpoint prepares its request asynchronously). */
async function answer(server: FakeServer, url: string, body: unknown): Promise<void> {
  await flush();
  server.take(`GET ${prefix}${url}`).respond(200, body);
  await flush();
}

describe('getList with the page in its args', () => {
  it('page 2 is its own read: a request for page 2, and page 2 shown', async () => {
    const { controller, server } = setup();
    const first = controller.fetch(getList, { group: 'news', page: 1 });
    await answer(server, '/api/news/posts?page=1', posts('1', '2'));
    await first;
    // The Next button: what a ResourceController reads before it fetches.
    const next = controller.getResponse(getList, { group: 'news', page: 2 });
    assert.equal(next.data, undefined, 'nothing is stored for page 2 yet');
    assert.equal(next.expiryStatus, 'invalid', 'so it is fetched');
    const second = controller.fetchIfStale(getList, { group: 'news', page: 2 });
    await answer(server, '/api/news/posts?page=2', posts('3', '4'));
    assert.deepEqual(ids(await second), ['3', '4']);
    assert.deepEqual(ids(controller.getResponse(getList, { group: 'news', page: 2 }).data), [
      '3',
      '4',
    ]);
    assert.deepEqual(
      ids(controller.getResponse(getList, { group: 'news', page: 1 }).data),
      ['1', '2'],
      'page 1 is still page 1',
    );
    assert.equal(server.calls.length, 2);
  });

  it('each page has its own store key; getPage is stored on the list without the page', () => {
    assert.notEqual(
      storeKey(getList, [{ group: 'news', page: 2 }]),
      storeKey(getList, [{ group: 'news' }]),
    );
    assert.equal(
      storeKey(getList.getPage, [{ group: 'news', page: 2 }]),
      storeKey(getList, [{ group: 'news' }]),
    );
  });

  it('getPage still appends to the list read without the page, and leaves the page reads alone', async () => {
    const { controller, server } = setup();
    const list = controller.fetch(getList, { group: 'news' });
    await answer(server, '/api/news/posts', posts('1', '2'));
    await list;
    const page2 = controller.fetch(getList, { group: 'news', page: 2 });
    await answer(server, '/api/news/posts?page=2', posts('3', '4'));
    await page2;
    const more = controller.fetch(getList.getPage, { group: 'news', page: 2 });
    await answer(server, '/api/news/posts?page=2', posts('3', '4', '2'));
    await more;
    assert.deepEqual(
      ids(controller.getResponse(getList, { group: 'news' }).data),
      ['1', '2', '3', '4'],
      'appended, no post twice',
    );
    assert.deepEqual(
      ids(controller.getResponse(getList, { group: 'news', page: 2 }).data),
      ['3', '4'],
      'the page read is not the merged list',
    );
    assert.deepEqual(
      ids(controller.getResponse(getList.getPage, { group: 'news', page: 2 }).data),
      ['1', '2', '3', '4'],
      'getPage reads the list it appends to',
    );
  });

  it('a page read and the merged list share entities: an update of a post shows in both', async () => {
    const { controller, server } = setup();
    const list = controller.fetch(getList, { group: 'news' });
    await answer(server, '/api/news/posts', posts('1', '2'));
    await list;
    const page = controller.fetch(getList, { group: 'news', page: 1 });
    await answer(server, '/api/news/posts?page=1', posts('1', '2'));
    await page;
    controller.set(Post, { id: '2', group: 'news', title: 'renamed' });
    for (const args of [{ group: 'news' }, { group: 'news', page: 1 }]) {
      const data = controller.getResponse(getList, args).data as Post[];
      assert.equal(data[1]!.title, 'renamed');
    }
  });

  it('an envelope endpoint with paginationField: a page read is its own, getPage appends', async () => {
    const getPostPage = new RestEndpoint({
      urlPrefix: prefix,
      path: '/api/:group/posts',
      schema: { results: new schema.Collection([Post]), next: null as number | null },
      paginationField: 'page',
    });
    const { controller, server } = setup();
    const first = controller.fetch(getPostPage, { group: 'news' });
    await answer(server, '/api/news/posts', { results: posts('1'), next: 2 });
    await first;
    const second = controller.fetch(getPostPage, { group: 'news', page: 2 });
    await answer(server, '/api/news/posts?page=2', { results: posts('2'), next: null });
    const page2 = await second;
    assert.deepEqual(ids(page2.results), ['2']);
    assert.equal(page2.next, null);
    assert.equal(controller.getResponse(getPostPage, { group: 'news' }).data?.next, 2);
    const more = controller.fetch(getPostPage.getPage, { group: 'news', page: 2 });
    await answer(server, '/api/news/posts?page=2', { results: posts('2'), next: null });
    await more;
    const merged = controller.getResponse(getPostPage, { group: 'news' }).data;
    assert.deepEqual(ids(merged?.results), ['1', '2']);
    assert.equal(merged?.next, null, 'the envelope comes from the newest page');
  });
});
