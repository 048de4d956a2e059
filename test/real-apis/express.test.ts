// Express set up as its guide sets it up, with express-validator (test/real-apis/express), and the
// recipe of docs/guide/your-api.md (recipes/express.ts) run against it.
import { after, before, beforeEach, describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Controller, NetworkError } from 'resource-elements/core';
import { fieldErrors } from 'resource-elements/forms';
import { Todo, expressResources } from './recipes/express.js';
import { missingExpress, startExpress, statusRecordingFetch } from './servers.js';
import type { RunningServer } from './servers.js';

const skip = missingExpress();

describe('Express with express-validator (guide defaults)', { skip }, () => {
  let server: RunningServer;
  let TodoResource: ReturnType<typeof expressResources>;
  let controller: Controller;
  before(async () => {
    server = await startExpress();
    TodoResource = expressResources(server.origin);
  });
  after(() => server?.stop());
  beforeEach(() => {
    controller = new Controller({ retry: 0 });
  });
  const ids = (args: object) =>
    controller.getResponse(TodoResource.getList, args as never).data!.items.map((t) => t.id);
  /** Straight to the server, as another client would. */
  const send = async (method: string, path: string, body?: object) => {
    const response = await fetch(server.origin + path, {
      method,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    assert.ok(response.ok, `${method} ${path}: ${response.status}\n${server.output()}`);
    return response.status === 204 ? undefined : ((await response.json()) as Todo);
  };

  it('a page of the list with the total of X-Total-Count; getPage appends the next page', async () => {
    for (const title of ['p1', 'p2', 'p3']) await send('POST', '/api/todos', { title });
    const all = await fetch(`${server.origin}/api/todos?limit=1000`);
    const total = ((await all.json()) as []).length;
    const first = await controller.fetch(TodoResource.getList, { limit: 2 });
    assert.equal(first.total, total);
    assert.equal(first.items.length, 2);
    assert.ok(first.items[0] instanceof Todo);
    assert.ok(first.items[0].createdAt instanceof Date);
    const grown = await controller.fetch(TodoResource.getList.getPage, { limit: 2, page: 2 });
    assert.equal(grown.items.length, Math.min(4, total));
    assert.equal(new Set(grown.items.map((t) => t.id)).size, grown.items.length);
  });

  it('push posts to the path without a slash, answers 201, and joins the lists it fits', async () => {
    const open = await controller.fetch(TodoResource.getList, { completed: false });
    await controller.fetch(TodoResource.getList, { completed: true });
    const created = await controller.fetch(TodoResource.getList.push, { title: 'Buy milk' });
    assert.ok(created instanceof Todo);
    assert.equal(typeof created.id, 'number');
    assert.equal(created.title, 'Buy milk');
    assert.ok(Math.abs(created.createdAt.getTime() - Date.now()) < 60_000);
    // completed came from the server's default: the todo joins the open list, not the done one.
    assert.deepEqual(ids({ completed: false }), [...open.items.map((t) => t.id), created.id]);
    assert.ok(!ids({ completed: true }).includes(created.id));
    assert.equal((await fetch(`${server.origin}/api/todos/${created.id}`)).status, 200);
  });

  it('update and partialUpdate change the todo wherever it is listed', async () => {
    const created = await controller.fetch(TodoResource.getList.push, { title: 'Draft' });
    await controller.fetch(TodoResource.getList, {});
    await controller.fetch(TodoResource.update, { id: created.id }, { title: 'Final' });
    const title = () =>
      controller.getResponse(TodoResource.getList, {}).data!.items.find((t) => t.id === created.id)
        ?.title;
    assert.equal(title(), 'Final');
    const done = await controller.fetch(
      TodoResource.partialUpdate,
      { id: created.id },
      { completed: true },
    );
    assert.equal(done.completed, true);
    assert.equal(done.title, 'Final');
    assert.equal(((await send('GET', `/api/todos/${created.id}`)) as Todo).completed, true);
  });

  it('delete answers 204 and the todo leaves every loaded list', async () => {
    const created = await controller.fetch(TodoResource.getList.push, { title: 'Delete me' });
    await controller.fetch(TodoResource.getList, {});
    await controller.fetch(TodoResource.getList, { completed: false });
    assert.ok(ids({}).includes(created.id));
    await controller.fetch(TodoResource.delete, { id: created.id });
    assert.ok(!ids({}).includes(created.id));
    assert.ok(!ids({ completed: false }).includes(created.id));
    assert.equal((await fetch(`${server.origin}/api/todos/${created.id}`)).status, 404);
  });

  it('a blank title is a 422 whose express-validator errors fieldErrors reads', async () => {
    const error = await controller.fetch(TodoResource.getList.push, { title: '  ' }).then(
      () => assert.fail('resolved'),
      (error: unknown) => error,
    );
    assert.ok(error instanceof NetworkError);
    assert.equal(error.status, 422);
    assert.deepEqual(error.body, {
      errors: [
        { type: 'field', value: '', msg: 'Title is required', path: 'title', location: 'body' },
      ],
    });
    assert.deepEqual(fieldErrors(error), { title: ['Title is required'] });
  });

  it("revalidating a read after another client's change shows the change (weak ETags left on)", async () => {
    const created = await send('POST', '/api/todos', { title: 'Before' });
    const path = `/api/todos/${created!.id}`;
    const read = await controller.fetch(TodoResource.get, { id: created!.id });
    assert.equal(read.title, 'Before');
    const etag = (await fetch(server.origin + path)).headers.get('ETag');
    assert.match(etag ?? '', /^W\//, 'Express sends a weak ETag');
    await send('PATCH', path, { title: 'After' });
    controller.invalidate(TodoResource.get, { id: created!.id });
    const again = await controller.revalidate(TodoResource.get, { id: created!.id });
    assert.equal(again?.title, 'After');
    assert.equal(
      controller.getResponse(TodoResource.get, { id: created!.id }).data!.title,
      'After',
    );
    assert.notEqual((await fetch(server.origin + path)).headers.get('ETag'), etag);
  });

  it('a read made conditional by hand rejects on the 304 and keeps the stored todo', async () => {
    const created = await send('POST', '/api/todos', { title: 'Unchanged' });
    const path = `/api/todos/${created!.id}`;
    const etag = (await fetch(server.origin + path)).headers.get('ETag')!;
    // With fetch's default cache mode, a request with If-None-Match also carries
    // Cache-Control: no-cache (the Fetch standard's rule), and Express answers that with a 200.
    const plain = await fetch(server.origin + path, { headers: { 'If-None-Match': etag } });
    assert.equal(plain.status, 200);
    // cache: 'no-cache' sends Cache-Control: max-age=0 instead, which Express answers with a 304.
    const stored = await controller.fetch(TodoResource.get, { id: created!.id });
    const conditional = TodoResource.get.extend({
      requestInit: { cache: 'no-cache', headers: { 'If-None-Match': etag } },
    });
    await assert.rejects(
      controller.fetch(conditional, { id: created!.id }),
      (error: unknown) =>
        error instanceof NetworkError && error.status === 304 && error.body === undefined,
    );
    assert.equal(controller.getResponse(TodoResource.get, { id: created!.id }).data, stored);
  });

  it('a refetch asks with the ETag: Express answers 304, nothing is read or written', async () => {
    const { fetch: recording, statuses } = statusRecordingFetch();
    const counting = new Controller({ retry: 0, fetch: recording });
    const created = await send('POST', '/api/todos', { title: 'Unchanged' });
    const first = await counting.fetch(TodoResource.get, { id: created!.id });
    const before = counting.getState();
    const again = await counting.refetch(TodoResource.get, { id: created!.id });
    assert.deepEqual(statuses, [200, 304]);
    assert.equal(again, first, 'the stored todo, the same object');
    assert.equal(counting.getState().entitiesMeta, before.entitiesMeta, 'nothing normalized');
    // Changed by another client: the ETag no longer matches, the new todo comes in full.
    await send('PATCH', `/api/todos/${created!.id}`, { title: 'Changed' });
    const changed = await counting.refetch(TodoResource.get, { id: created!.id });
    assert.deepEqual(statuses, [200, 304, 200]);
    assert.equal(changed.title, 'Changed');
  });
});
