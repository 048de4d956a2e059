// Conditional requests: an answer's ETag (or Last-Modified) is kept with the stored response, a
// revalidation of that read sends it as If-None-Match (If-Modified-Since), and a 304 keeps the
// stored data, fresh again, with no body read and nothing normalized. A 304 the library did not
// ask for stays an error (not-modified.test.ts).
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Controller } from '../controller/controller.js';
import { NetworkError } from '../errors.js';
import { ExpiryStatus, NOT_MODIFIED } from '../protocol/types.js';
import { Collection } from '../schema/collection.js';
import { Entity } from '../schema/entity.js';
import { createResource } from './create-resource.js';
import { RestEndpoint } from './rest-endpoint.js';
import { fakeFetch, json } from './test-utils/fake-fetch.js';

class Todo extends Entity {
  id = '';
  title = '';
  pk() {
    return this.id;
  }
  static override key = 'Todo';
}

const TodoResource = createResource({ path: '/api/todos/:id', schema: Todo });
const notModified = () => new Response(null, { status: 304, statusText: 'Not Modified' });
const tagged = (value: unknown, etag = '"v1"') => json(value, 200, { ETag: etag });

function clock(start = 1_000) {
  const time = { now: start };
  return { time, now: () => time.now };
}

describe('conditional requests', () => {
  it('a refetch sends the stored ETag; a 304 keeps the data, fresh again, nothing normalized', async () => {
    const { time, now } = clock();
    const fake = fakeFetch(() => tagged({ id: '1', title: 'stored' }));
    const controller = new Controller({ fetch: fake.fetch, now });
    const first = await controller.fetch(TodoResource.get, { id: '1' });
    assert.equal(fake.calls[0]!.headers['If-None-Match'], undefined, 'the first read asks nothing');
    const key = TodoResource.get.key({ id: '1' });
    assert.equal(controller.getState().meta[key]!.validator, '"v1"');
    const before = controller.getState();
    const read = controller.getResponse(TodoResource.get, { id: '1' });

    time.now += 120_000;
    assert.equal(controller.getResponse(TodoResource.get, { id: '1' }).expiryStatus, 'stale');
    let parsed = 0;
    const counting = TodoResource.get.extend({
      parseResponse(response: Response) {
        parsed++;
        return RestEndpoint.prototype.parseResponse.call(this, response);
      },
    });
    fake.respond(notModified);
    const changes: string[] = [];
    controller.addListener(({ action }) => changes.push(action.type));
    const again = await controller.refetch(counting, { id: '1' });

    assert.equal(fake.calls[1]!.headers['If-None-Match'], '"v1"');
    // Not fetch's 'no-store', which would add `Cache-Control: no-cache` (Express answers 200).
    assert.equal(fake.calls[1]!.init.cache, 'no-cache');
    assert.equal(fake.calls[0]!.init.cache, undefined);
    assert.equal(parsed, 0, 'no body read');
    assert.equal(again, first, 'the same object resolves');
    const after = controller.getState();
    assert.equal(after.entities, before.entities, 'no entity written');
    assert.equal(after.entitiesMeta, before.entitiesMeta, 'nothing normalized');
    assert.equal(after.endpoints, before.endpoints);
    assert.equal(after.meta[key]!.validator, '"v1"', 'the validator is kept');
    assert.ok(after.meta[key]!.date >= time.now, 'dated now');
    const fresh = controller.getResponse(TodoResource.get, { id: '1' });
    assert.equal(fresh.expiryStatus, ExpiryStatus.Valid);
    assert.equal(fresh.data, read.data, 'the value a host shows is the same object');
    assert.deepEqual(changes, ['response/set']);
  });

  it('a new ETag replaces the kept one; an answer without one drops it', async () => {
    const fake = fakeFetch(() => tagged({ id: '1', title: 'one' }));
    const controller = new Controller({ fetch: fake.fetch });
    const key = TodoResource.get.key({ id: '1' });
    await controller.fetch(TodoResource.get, { id: '1' });
    fake.respond((request) => {
      assert.equal(request.headers['If-None-Match'], '"v1"');
      return tagged({ id: '1', title: 'two' }, 'W/"v2"');
    });
    await controller.refetch(TodoResource.get, { id: '1' });
    assert.equal(controller.getResponse(TodoResource.get, { id: '1' }).data?.title, 'two');
    assert.equal(controller.getState().meta[key]!.validator, 'W/"v2"');
    fake.respond(() => json({ id: '1', title: 'three' }));
    await controller.refetch(TodoResource.get, { id: '1' });
    assert.equal(fake.calls[2]!.headers['If-None-Match'], 'W/"v2"');
    assert.equal(controller.getState().meta[key]!.validator, undefined);
    await controller.refetch(TodoResource.get, { id: '1' });
    assert.equal(fake.calls[3]!.headers['If-None-Match'], undefined);
  });

  it('a Last-Modified date is sent back as If-Modified-Since', async () => {
    const date = 'Wed, 21 Oct 2026 07:28:00 GMT';
    const fake = fakeFetch(() => json({ id: '1', title: 'dated' }, 200, { 'Last-Modified': date }));
    const controller = new Controller({ fetch: fake.fetch });
    await controller.fetch(TodoResource.get, { id: '1' });
    fake.respond(notModified);
    await controller.refetch(TodoResource.get, { id: '1' });
    assert.equal(fake.calls[1]!.headers['If-Modified-Since'], date);
    assert.equal(fake.calls[1]!.headers['If-None-Match'], undefined);
    assert.equal(controller.getResponse(TodoResource.get, { id: '1' }).data?.title, 'dated');
  });

  it("the caller's own conditional header wins, and its 304 stays an error", async () => {
    const fake = fakeFetch(() => tagged({ id: '1', title: 'stored' }));
    const controller = new Controller({ fetch: fake.fetch, retry: 0 });
    const own = TodoResource.get.extend({
      requestInit: { headers: { 'if-none-match': '"mine"' } },
    });
    await controller.fetch(own, { id: '1' });
    fake.respond(notModified);
    await assert.rejects(controller.refetch(own, { id: '1' }), NetworkError);
    assert.deepEqual(fake.calls[1]!.headers, { 'if-none-match': '"mine"' });
    assert.equal(controller.getResponse(own, { id: '1' }).data?.title, 'stored');
  });

  it('an invalidated read answered 304 is shown again', async () => {
    const fake = fakeFetch(() => tagged({ id: '1', title: 'stored' }));
    const controller = new Controller({ fetch: fake.fetch });
    await controller.fetch(TodoResource.get, { id: '1' });
    controller.invalidate(TodoResource.get, { id: '1' });
    assert.equal(controller.getResponse(TodoResource.get, { id: '1' }).data, undefined);
    fake.respond(notModified);
    await controller.fetch(TodoResource.get, { id: '1' });
    assert.equal(fake.calls[1]!.headers['If-None-Match'], '"v1"');
    const read = controller.getResponse(TodoResource.get, { id: '1' });
    assert.equal(read.expiryStatus, ExpiryStatus.Valid);
    assert.equal(read.data?.title, 'stored');
  });

  it('a reset forgets the validator: the next read asks for the whole answer', async () => {
    const fake = fakeFetch(() => tagged({ id: '1', title: 'stored' }));
    const controller = new Controller({ fetch: fake.fetch });
    await controller.fetch(TodoResource.get, { id: '1' });
    controller.resetEntireStore();
    await controller.fetch(TodoResource.get, { id: '1' });
    assert.equal(fake.calls[1]!.headers['If-None-Match'], undefined);
  });

  it('a state rendered elsewhere brings its validators (hydration revalidates with a 304)', async () => {
    const server = new Controller({
      fetch: fakeFetch(() => tagged({ id: '1', title: 'ssr' })).fetch,
    });
    await server.fetch(TodoResource.get, { id: '1' });
    const state = JSON.parse(JSON.stringify(server.getState()));
    const fake = fakeFetch(notModified);
    const client = new Controller({ fetch: fake.fetch, initialState: state });
    await client.refetch(TodoResource.get, { id: '1' });
    assert.equal(fake.only().headers['If-None-Match'], '"v1"');
    assert.equal(client.getResponse(TodoResource.get, { id: '1' }).data?.title, 'ssr');
  });

  it('mutations and pages added to a list never ask, and a page keeps no validator', async () => {
    class Post extends Entity {
      id = '';
      pk() {
        return this.id;
      }
      static override key = 'Post';
    }
    const posts = new RestEndpoint({
      path: '/api/posts',
      paginationField: 'page',
      schema: new Collection([Post]),
    });
    const fake = fakeFetch(() => tagged([{ id: '1' }]));
    const controller = new Controller({ fetch: fake.fetch });
    await controller.fetch(posts);
    fake.respond(() => tagged([{ id: '2' }], '"p2"'));
    await controller.fetch(posts.getPage, { page: 2 });
    assert.equal(fake.calls[1]!.headers['If-None-Match'], undefined, 'a page asks nothing');
    assert.equal(controller.getState().meta[posts.key()]!.validator, undefined);
    assert.equal(controller.getResponse(posts).data?.length, 2);

    await controller.fetch(TodoResource.get, { id: '1' }).catch(() => {});
    fake.respond(() => tagged({ id: '1', title: 'x' }));
    await controller.fetch(TodoResource.get, { id: '1' });
    await controller.fetch(TodoResource.partialUpdate, { id: '1' }, { title: 'y' });
    assert.equal(fake.calls.at(-1)!.headers['If-None-Match'], undefined, 'a PATCH asks nothing');
  });

  it('run without a Controller: the context it is given keeps the validator', async () => {
    const fake = fakeFetch(() => tagged({ id: '1', title: 'x' }));
    const context: { fetch: typeof fetch; validator?: string } = { fetch: fake.fetch };
    await TodoResource.get.run([{ id: '1' }], { fetch: fake.fetch });
    await TodoResource.get.run([{ id: '1' }], context);
    assert.equal(fake.calls[1]!.headers['If-None-Match'], undefined);
    assert.equal(context.validator, '"v1"');
    // Given again, it asks: a 304 resolves with NOT_MODIFIED.
    fake.respond(notModified);
    assert.equal(await TodoResource.get.run([{ id: '1' }], context), NOT_MODIFIED);
    assert.equal(fake.calls[2]!.headers['If-None-Match'], '"v1"');
  });
});
