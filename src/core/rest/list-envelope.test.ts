// docs/guide/resources.md "A list in an envelope" and docs/guide/pagination.md "A total or a next
// link in a header": getList's Collection inside an envelope, on createResource and on a
// parseResponse override that builds the envelope from response headers.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Controller } from '../controller/controller.js';
import { Collection } from '../schema/collection.js';
import { Entity } from '../schema/entity.js';
import { createResource } from './create-resource.js';
import type { RestGenerics } from './endpoint-types.js';
import { RestEndpoint } from './rest-endpoint.js';
import { fakeFetch, json, type RecordedRequest } from './test-utils/fake-fetch.js';

class Todo extends Entity {
  id = '';
  userId = 0;
  title = '';
  pk() {
    return this.id;
  }
  static override key = 'Todo';
}

/** POST answers with a new todo, PATCH with todo 1 moved to user 2, GET with page 1 or 2. */
function api() {
  let next = 10;
  return ({ method, url, body }: RecordedRequest) => {
    if (method === 'POST') return json({ id: String(next++), ...JSON.parse(body as string) });
    if (method === 'PATCH') return json({ id: '1', userId: 2, title: 'a' });
    return url.includes('page=2')
      ? json({ count: 3, next: null, previous: '/api/todos?userId=1', results: [todo('3')] })
      : json({
          count: 3,
          next: '/api/todos?userId=1&page=2',
          previous: null,
          results: [todo('1'), todo('2')],
        });
  };
}
const todo = (id: string) => ({ id, userId: 1, title: id });

describe('a list in an envelope on createResource', () => {
  const DrfTodoResource = createResource({
    path: '/api/todos/:id',
    schema: Todo,
    searchParams: {} as { userId?: number },
    body: {} as { title: string; userId: number },
    paginationField: 'page',
  }).extend({
    getList: {
      schema: {
        count: 0,
        next: null as string | null,
        previous: null as string | null,
        results: new Collection([Todo]),
      },
    },
  });

  it('push, unshift, remove and getPage find the Collection in it', async () => {
    const controller = new Controller({ fetch: fakeFetch(api()).fetch });
    const page = () => controller.getResponse(DrfTodoResource.getList, { userId: 1 }).data!;
    const ids = () => page().results.map((member) => member.id);

    const first = await controller.fetch(DrfTodoResource.getList, { userId: 1 });
    assert.equal(first.count, 3);
    assert.deepEqual(ids(), ['1', '2']);

    const milk = await controller.fetch(
      DrfTodoResource.getList.push,
      { userId: 1 },
      { title: 'milk', userId: 1 },
    );
    assert.ok(milk instanceof Todo, 'push resolves with the created entity, not an envelope');
    await controller.fetch(DrfTodoResource.getList.unshift, { title: 'bank', userId: 1 });
    assert.deepEqual(ids(), ['11', '1', '2', '10']);
    assert.equal(page().count, 3, "the envelope's other fields are the server's");

    await controller.fetch(DrfTodoResource.getList.getPage, { userId: 1, page: 2 });
    assert.deepEqual(ids(), ['11', '1', '2', '10', '3']);
    assert.equal(page().next, null, 'next comes from the newest page');

    const moved = await controller.fetch(
      DrfTodoResource.getList.remove,
      { userId: 1 },
      { id: '1' },
    );
    assert.equal(moved.userId, 2);
    assert.deepEqual(ids(), ['11', '2', '10', '3']);
  });
});

describe('a total and a next link from response headers', () => {
  class HeaderPagedEndpoint<O extends RestGenerics = RestGenerics> extends RestEndpoint<O> {
    override async parseResponse(response: Response) {
      const value = await super.parseResponse(response);
      if (this.method !== 'GET') return value;
      const next = /<([^>]*)>;\s*rel="?next"?/.exec(response.headers.get('Link') ?? '');
      return {
        items: value,
        total: Number(response.headers.get('X-Total-Count') ?? 0),
        next: next ? next[1]! : null,
      };
    }
  }
  const getTodoPages = new HeaderPagedEndpoint({
    path: '/api/todos',
    schema: { items: new Collection([Todo]), total: 0, next: null as string | null },
    searchParams: {} as { userId?: number },
    paginationField: '_page',
  });

  it('reads X-Total-Count and Link; push is left alone; getPage is wrapped too', async () => {
    const fake = fakeFetch(({ method, url }) =>
      method === 'POST'
        ? json({ id: '9', userId: 1, title: 'new' })
        : url.includes('_page=2')
          ? json([todo('3')], 200, { 'X-Total-Count': '3' })
          : json([todo('1'), todo('2')], 200, {
              'X-Total-Count': '3',
              Link: '</api/todos?_page=9>; rel="last", </api/todos?userId=1&_page=2>; rel="next"',
            }),
    );
    const controller = new Controller({ fetch: fake.fetch });
    const list = await controller.fetch(getTodoPages, { userId: 1 });
    assert.equal(list.total, 3);
    assert.equal(list.next, '/api/todos?userId=1&_page=2');

    const created = await controller.fetch(getTodoPages.push, { userId: 1 }, { title: 'new' });
    assert.ok(created instanceof Todo);
    await controller.fetch(getTodoPages.getPage, { userId: 1, _page: 2 });
    const data = controller.getResponse(getTodoPages, { userId: 1 }).data!;
    assert.deepEqual(
      data.items.map((member) => member.id),
      ['1', '2', '9', '3'],
    );
    assert.equal(data.next, null);
    assert.deepEqual(
      fake.calls.map(({ method, url }) => `${method} ${url}`),
      ['GET /api/todos?userId=1', 'POST /api/todos?userId=1', 'GET /api/todos?userId=1&_page=2'],
    );
  });
});
