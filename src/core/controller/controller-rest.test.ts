// The Controller with the real RestEndpoint and createResource (not the fake endpoint).
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Entity } from '../schema/entity.js';
import { createResource } from '../rest/create-resource.js';
import { ExpiryStatus } from '../protocol/types.js';
import { flush } from './test-utils/fake-fetch.js';
import type { FakeServer } from './test-utils/fake-fetch.js';
import { failOnUnhandledRejection, setup, withoutErrors } from './test-utils/harness.js';

failOnUnhandledRejection();

/** RestEndpoint prepares its request asynchronously (getRequestInit may be async). */
async function arrived(server: FakeServer): Promise<FakeServer> {
  await flush();
  return server;
}

class Post extends Entity {
  id = '';
  title = '';
  author = '';
  pk() {
    return this.id;
  }
  static override key = 'Post';
}

const prefix = 'https://api.test';
const PostResource = createResource({
  urlPrefix: prefix,
  path: '/posts/:id',
  schema: Post,
  searchParams: {} as { author?: string },
  body: {} as { title?: string; author?: string },
  paginationField: 'page',
  optimistic: true,
});

const ids = (data: unknown) => (data as Post[]).map((post) => post.id);

describe('Controller with createResource', () => {
  it('get: one request for identical concurrent calls, resolves with a Post', async () => {
    const { controller, server } = setup();
    const calls = [1, '1', 1].map((id) => controller.fetch(PostResource.get, { id }));
    await flush();
    assert.equal(server.calls.length, 1);
    (await arrived(server)).take(`GET ${prefix}/posts/1`).respond(200, { id: '1', title: 'a' });
    const [post] = await Promise.all(calls);
    assert.ok(post instanceof Post);
    assert.equal(controller.getResponse(PostResource.get, { id: 1 }).data, post);
  });

  it('getList, push, and getPage merging into the list', async (t) => {
    const { controller, server } = setup();
    const reported = t.mock.method(console, 'error', () => {});
    const list = controller.fetch(PostResource.getList, { author: 'ann' });
    (await arrived(server))
      .take(`GET ${prefix}/posts?author=ann`)
      .respond(200, [{ id: '1', author: 'ann' }]);
    await list;
    // The optimistic guess of a create has no pk (the server assigns it): it shows at once under
    // a placeholder pk, nothing is reported, and the server's answer replaces it (issue 15 item 10).
    const created = controller.fetch(PostResource.getList.push, { author: 'ann' }, { title: 'n' });
    const shown = controller.getResponse(PostResource.getList, { author: 'ann' }).data as Post[];
    assert.deepEqual(
      shown.map((post) => post.title),
      ['', 'n'],
    );
    (await arrived(server))
      .take(`POST ${prefix}/posts?author=ann`)
      .respond(201, { id: '2', author: 'ann' });
    assert.equal(((await created) as Post).id, '2');
    assert.equal(reported.mock.callCount(), 0);
    assert.deepEqual(ids(controller.getResponse(PostResource.getList, { author: 'ann' }).data), [
      '1',
      '2',
    ]);
    const page = controller.fetch(PostResource.getList.getPage, { author: 'ann', page: 2 });
    (await arrived(server))
      .take(`GET ${prefix}/posts?author=ann&page=2`)
      .respond(200, [{ id: '3', author: 'ann' }]);
    await page;
    assert.deepEqual(ids(controller.getResponse(PostResource.getList, { author: 'ann' }).data), [
      '1',
      '2',
      '3',
    ]);
  });

  it('optimistic partialUpdate rolls back exactly on a NetworkError', async () => {
    const { controller, server } = setup();
    controller.setResponse(PostResource.get, { id: 1 }, { id: '1', title: 'a' });
    const before = controller.getState();
    const shown = controller.getResponse(PostResource.get, { id: 1 }).data;
    const promise = controller.fetch(PostResource.partialUpdate, { id: 1 }, { title: 'b' });
    assert.equal((controller.getResponse(PostResource.get, { id: 1 }).data as Post).title, 'b');
    (await arrived(server)).take(`PATCH ${prefix}/posts/1`).respond(500, { message: 'down' });
    await assert.rejects(promise, { name: 'NetworkError', status: 500 });
    assert.deepEqual(withoutErrors(controller.getState()), withoutErrors(before));
    assert.equal(controller.getResponse(PostResource.get, { id: 1 }).data, shown);
    assert.equal(
      (controller.getError(PostResource.partialUpdate, { id: 1 }, { title: 'b' }) as Error).name,
      'NetworkError',
    );
  });

  it('optimistic move: both lists change at once, and a refusal restores them exactly', async () => {
    const { controller, server } = setup();
    controller.setResponse(PostResource.getList, { author: 'ann' }, [
      { id: '1', author: 'ann' },
      { id: '2', author: 'ann' },
      { id: '3', author: 'ann' },
    ]);
    controller.setResponse(PostResource.getList, { author: 'bob' }, [{ id: '4', author: 'bob' }]);
    const list = (author: string) =>
      ids(controller.getResponse(PostResource.getList, { author }).data);
    const before = controller.getState();
    const shownAnn = controller.getResponse(PostResource.getList, { author: 'ann' }).data;

    const refused = controller.fetch(PostResource.move, { id: '2' }, { author: 'bob' });
    assert.deepEqual(
      [list('ann'), list('bob')],
      [
        ['1', '3'],
        ['4', '2'],
      ],
      'shown before any answer',
    );
    (await arrived(server)).take(`PATCH ${prefix}/posts/2`).respond(409, { message: 'no' });
    await assert.rejects(refused, { status: 409 });
    assert.deepEqual(withoutErrors(controller.getState()), withoutErrors(before));
    assert.deepEqual([list('ann'), list('bob')], [['1', '2', '3'], ['4']], 'back in its old place');
    assert.equal(controller.getResponse(PostResource.getList, { author: 'ann' }).data, shownAnn);

    const accepted = controller.fetch(PostResource.move, { id: '2' }, { author: 'bob' });
    (await arrived(server))
      .take(`PATCH ${prefix}/posts/2`)
      .respond(200, { id: '2', author: 'bob' });
    assert.equal(((await accepted) as Post).author, 'bob');
    assert.deepEqual(
      [list('ann'), list('bob')],
      [
        ['1', '3'],
        ['4', '2'],
      ],
      'committed as shown',
    );
    await flush();
    assert.deepEqual(
      server.calls.map((call) => `${call.method} ${call.url}`),
      [`PATCH ${prefix}/posts/2`, `PATCH ${prefix}/posts/2`],
      'one request per move, no list fetched again',
    );
  });

  it('optimistic delete: INVALID at once, and a 204 resolves with a Post built from the params', async () => {
    const { controller, server } = setup();
    controller.setResponse(PostResource.getList, {}, [{ id: '1' }, { id: '2' }]);
    controller.setResponse(PostResource.get, { id: 1 }, { id: '1' });
    const promise = controller.fetch(PostResource.delete, { id: 1 });
    assert.equal(
      controller.getResponse(PostResource.get, { id: 1 }).expiryStatus,
      ExpiryStatus.Invalid,
    );
    assert.deepEqual(ids(controller.getResponse(PostResource.getList, {}).data), ['2']);
    (await arrived(server)).take(`DELETE ${prefix}/posts/1`).respond(204);
    const removed = await promise;
    assert.ok(removed instanceof Post);
    assert.equal(String((removed as Post).id), '1');
    assert.deepEqual(ids(controller.getResponse(PostResource.getList, {}).data), ['2']);
  });

  it('a body that is not JSON is an error readable from the store; data stays', async () => {
    const { controller, server } = setup();
    controller.setResponse(PostResource.get, { id: 1 }, { id: '1', title: 'a' });
    const before = controller.getState();
    controller.fetchIfStale(PostResource.get, { id: 1 }); // fresh: nothing
    await flush();
    assert.equal(server.calls.length, 0);
    const promise = controller.fetch(PostResource.get, { id: 1 });
    (await arrived(server)).take().respondText(200, '<html>');
    await assert.rejects(promise);
    assert.deepEqual(withoutErrors(controller.getState()), withoutErrors(before));
    assert.ok(controller.getError(PostResource.get, { id: 1 }) instanceof Error);
  });
});
