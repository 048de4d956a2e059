// FastAPI set up as its own tutorial sets it up (test/real-apis/fastapi), and the recipe of
// docs/guide/your-api.md (recipes/fastapi.ts) run against it.
import { after, before, describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Controller, NetworkError, RestEndpoint } from 'resource-elements/core';
import type { RestGenerics } from 'resource-elements/core';
import { fieldErrors } from 'resource-elements/forms';
import { Task, fastApiResources, login } from './recipes/fastapi.js';
import { missingFrameworks, startFastApi } from './servers.js';
import type { RunningServer } from './servers.js';

const skip = missingFrameworks();

describe('FastAPI (tutorial defaults)', { skip }, () => {
  let server: RunningServer;
  let api: ReturnType<typeof fastApiResources>;
  before(async () => {
    server = await startFastApi();
    api = fastApiResources(server.origin);
    await login(server.origin, 'ann', 'ann-password');
  });
  after(() => server?.stop());

  it('a task created with the default status joins the loaded { status: "todo" } list', async () => {
    const controller = new Controller({ retry: 0 });
    const { TaskResource, TaskHooks } = api;
    await controller.fetch(TaskResource.getList, { status: 'todo' });
    await controller.fetch(TaskResource.getList, { status: 'done' });
    const created = await controller.fetch(TaskHooks.useGetList().push, { title: 'Write' });
    assert.match(created.id, /^[0-9a-f-]{36}$/);
    assert.ok(created instanceof Task);
    assert.ok(created.created instanceof Date);
    assert.equal(created.due, null);
    const ids = (status: string) =>
      controller.getResponse(TaskResource.getList, { status }).data!.map((t) => t.id);
    assert.ok(ids('todo').includes(created.id));
    assert.ok(!ids('done').includes(created.id));
  });

  it('deletes by a parameter named like the route, and the project leaves every list', async () => {
    const controller = new Controller({ retry: 0 });
    const { ProjectResource, ProjectHooks } = api;
    await controller.fetch(ProjectResource.getList);
    await controller.fetch(ProjectHooks.useDelete(), { project_id: 2 });
    const ids = controller.getResponse(ProjectResource.getList).data!.map((p) => p.id);
    assert.deepEqual(ids, [1, 3]);
  });

  it("a 422 gives the form pydantic's message for each field", async () => {
    const controller = new Controller({ retry: 0 });
    const error = await controller.fetch(api.TaskHooks.useGetList().push, { title: '' }).then(
      () => assert.fail('resolved'),
      (error: unknown) => error,
    );
    assert.ok(error instanceof NetworkError);
    assert.equal(error.status, 422);
    assert.deepEqual(fieldErrors(error), {
      title: ['ensure this value has at least 1 characters'],
    });
  });

  it('skip/limit pages with the total from X-Total-Count', async () => {
    const controller = new Controller({ retry: 0 });
    for (const title of ['p1', 'p2', 'p3']) {
      await controller.fetch(api.TaskHooks.useGetList().push, { title, status: 'paged' });
    }
    class TotalEndpoint<O extends RestGenerics = RestGenerics> extends RestEndpoint<O> {
      override async parseResponse(response: Response): Promise<unknown> {
        const items = await super.parseResponse(response);
        return { items, total: Number(response.headers.get('X-Total-Count')) };
      }
    }
    const pageOfTasks = new TotalEndpoint({
      urlPrefix: server.origin,
      path: '/tasks',
      searchParams: {} as { status: string; skip: number; limit: number },
      schema: { items: [Task], total: 0 },
    });
    const page = await controller.fetch(pageOfTasks, { status: 'paged', skip: 0, limit: 2 });
    assert.equal(page.total, 3);
    assert.deepEqual(
      page.items.map((t) => t.title),
      ['p1', 'p2'],
    );
  });

  it('cursor pages: getPage appends the next page to the loaded list', async () => {
    const controller = new Controller({ retry: 0 });
    const first = await controller.fetch(api.tasksByCursor, { limit: 2 });
    assert.equal(first.items.length, 2);
    const next = await controller.fetch(api.tasksByCursor.getPage, {
      limit: 2,
      cursor: first.next_cursor!,
    });
    assert.equal(next.items.length, 4);
    assert.equal(new Set(next.items.map((t) => t.id)).size, 4);
  });

  it('Bearer with expiry: a 401 after it, and a fresh login clears it without a reload', async () => {
    const controller = new Controller({ retry: 0 });
    const { TaskHooks } = api;
    await login(server.origin, 'eve', 'eve-password');
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // Eve's tokens live a second
    await assert.rejects(
      controller.fetch(TaskHooks.useGetList().push, { title: 'Late' }),
      (error: unknown) => error instanceof NetworkError && error.status === 401,
    );
    await login(server.origin, 'eve', 'eve-password');
    const created = await controller.fetch(TaskHooks.useGetList().push, { title: 'On time' });
    assert.equal(created.title, 'On time');
  });
});
