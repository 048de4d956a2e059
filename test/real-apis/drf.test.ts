// Django REST Framework set up as its own tutorial sets it up (test/real-apis/drf), and the
// recipe of docs/guide/your-api.md (recipes/drf.ts) run against it.
import { after, before, beforeEach, describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Controller, NetworkError, createResource } from 'resource-elements/core';
import { fieldErrors } from 'resource-elements/forms';
import { Todo, drfResources, session } from './recipes/drf.js';
import { missingFrameworks, startDrf, statusRecordingFetch } from './servers.js';
import type { RunningServer } from './servers.js';

const skip = missingFrameworks();

describe('Django REST Framework (tutorial defaults)', { skip }, () => {
  let server: RunningServer;
  let api: ReturnType<typeof drfResources>;
  let controller: Controller;
  before(async () => {
    server = await startDrf();
    api = drfResources(server.origin);
  });
  after(() => server?.stop());
  beforeEach(() => {
    session.token = 'ann-token';
    controller = new Controller({ retry: 0 });
  });
  const ids = (args: object) =>
    controller.getResponse(api.TodoResource.getList, args as never).data!.results.map((t) => t.id);

  it('push keeps the trailing slash, creates one todo and files it into the lists it fits', async () => {
    const { TodoResource, TodoHooks } = api;
    const open = await controller.fetch(TodoResource.getList, { completed: false });
    const mine = await controller.fetch(TodoResource.getList, { owner: 1 });
    await controller.fetch(TodoResource.getList, { owner: 2 });
    const created = await controller.fetch(TodoHooks.useGetList().push, { title: 'Buy milk' });
    assert.equal(created.title, 'Buy milk');
    assert.ok(created instanceof Todo);
    // The server set completed (its default) and the owner (the login): both decide.
    assert.deepEqual(ids({ completed: false }), [...open.results.map((t) => t.id), created.id]);
    assert.deepEqual(ids({ owner: 1 }), [...mine.results.map((t) => t.id), created.id]);
    assert.ok(!ids({ owner: 2 }).includes(created.id));
    const listed = (await (await fetch(`${server.origin}/api/todos/`)).json()) as { count: number };
    assert.equal(listed.count, open.count + 1, 'one todo created');
  });

  it('a mutation answered by a redirect rejects naming both URLs, and stores nothing', async () => {
    // The template without DRF's slash: Django answers the POST with a 301, fetch follows it
    // with a GET of the list.
    const NoSlash = createResource({
      path: `${server.origin}/api/todos/:id`,
      schema: Todo,
      requestInit: { headers: { Authorization: 'Token ann-token' } },
    });
    const before = controller.getState();
    const count = async () =>
      ((await (await fetch(`${server.origin}/api/todos/`)).json()) as { count: number }).count;
    const created = await count();
    await assert.rejects(
      controller.fetch(NoSlash.getList.push, { title: 'Lost' }),
      (error: Error) => {
        assert.match(
          error.message,
          /^POST http:\/\/127\.0\.0\.1:\d+\/api\/todos was redirected to http:\/\/127\.0\.0\.1:\d+\/api\/todos\//,
        );
        return true;
      },
    );
    assert.deepEqual(controller.getState().entities, before.entities);
    assert.equal(await count(), created, 'the server created nothing');
  });

  it('created is a Date, and the state keeps the text DRF sent', async () => {
    const created = await controller.fetch(api.TodoHooks.useGetList().push, { title: 'Dated' });
    assert.ok(created.created instanceof Date);
    assert.ok(Math.abs(created.created.getTime() - Date.now()) < 60_000);
    const stored = controller.getState().entities.Todo![String(created.id)] as { created: unknown };
    assert.equal(typeof stored.created, 'string');
    const again = new Controller({
      initialState: JSON.parse(JSON.stringify(controller.getState())),
    });
    const read = again.getResponse(api.TodoResource.get, { id: created.id }).data!;
    assert.equal(read.created.getTime(), created.created.getTime());
  });

  it("a blank title gives the form DRF's message for its field", async () => {
    const error = await controller.fetch(api.TodoHooks.useGetList().push, { title: '' }).then(
      () => assert.fail('resolved'),
      (error: unknown) => error,
    );
    assert.ok(error instanceof NetworkError);
    assert.equal(error.status, 400);
    assert.deepEqual(fieldErrors(error), { title: ['This field may not be blank.'] });
  });

  it('a todo leaves the loaded lists after a PATCH to the todo (the router has no list PATCH)', async () => {
    const created = await controller.fetch(api.TodoHooks.useGetList().push, { title: 'Hide me' });
    await controller.fetch(api.TodoResource.getList, { completed: false });
    assert.ok(ids({ completed: false }).includes(created.id));
    await controller.fetch(api.hide(), { id: created.id }, { completed: true });
    assert.ok(!ids({ completed: false }).includes(created.id));
  });

  it('delete with the slash invalidates the todo and drops it from every list', async () => {
    const created = await controller.fetch(api.TodoHooks.useGetList().push, { title: 'Delete me' });
    await controller.fetch(api.TodoResource.getList, {});
    await controller.fetch(api.TodoHooks.useDelete(), { id: created.id });
    assert.ok(!ids({}).includes(created.id));
    assert.equal((await fetch(`${server.origin}/api/todos/${created.id}/`)).status, 404);
  });

  it("a wrong token is a 401 with DRF's detail; a new login clears it without a reload", async () => {
    session.token = 'expired';
    await assert.rejects(
      controller.fetch(api.TodoHooks.useGetList().push, { title: 'x' }),
      (error: unknown) =>
        error instanceof NetworkError &&
        error.status === 401 &&
        /Invalid token/.test(error.message),
    );
    session.token = 'ann-token';
    const created = await controller.fetch(api.TodoHooks.useGetList().push, { title: 'Signed in' });
    assert.equal(created.title, 'Signed in');
  });

  it("a refetch asks with the ETag of Django's ConditionalGetMiddleware and keeps the 304", async () => {
    const { fetch: recording, statuses } = statusRecordingFetch();
    const counting = new Controller({ retry: 0, fetch: recording });
    const list = await counting.fetch(api.TodoResource.getList, { owner: 1 });
    const before = counting.getState();
    const again = await counting.refetch(api.TodoResource.getList, { owner: 1 });
    assert.deepEqual(statuses, [200, 304]);
    assert.equal(again, list, 'the stored page, the same object');
    assert.equal(counting.getState().entities, before.entities, 'nothing normalized');
  });
});
