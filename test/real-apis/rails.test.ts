// Rails 6.1 set up as `rails new --api` and its scaffold set it up (test/real-apis/rails), and the
// recipe of docs/guide/your-api.md (recipes/rails.ts) run against it.
import { after, before, beforeEach, describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Controller, NetworkError } from 'resource-elements/core';
import { fieldErrors } from 'resource-elements/forms';
import { Todo, railsResources } from './recipes/rails.js';
import { missingRails, startRails } from './servers.js';
import type { RunningServer } from './servers.js';

const skip = missingRails();

describe('Rails API (scaffold defaults)', { skip }, () => {
  let server: RunningServer;
  let TodoResource: ReturnType<typeof railsResources>;
  let controller: Controller;
  before(async () => {
    server = await startRails();
    TodoResource = railsResources(server.origin);
  });
  after(() => server?.stop());
  beforeEach(() => {
    controller = new Controller({ retry: 0 });
  });
  const ids = () => controller.getResponse(TodoResource.getList, {}).data!.map((t) => t.id);
  const count = async () => ((await (await fetch(`${server.origin}/todos`)).json()) as []).length;

  it('the list loads, with the timestamps as Dates', async () => {
    await fetch(`${server.origin}/todos`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ todo: { title: 'Seeded' } }),
    });
    const todos = await controller.fetch(TodoResource.getList, {});
    assert.equal(todos.length, await count());
    const seeded = todos.find((t) => t.title === 'Seeded');
    assert.ok(seeded instanceof Todo);
    assert.ok(seeded.created_at instanceof Date);
    assert.ok(Math.abs(seeded.created_at.getTime() - Date.now()) < 60_000);
  });

  it('push posts the bare body to /todos, answers 201, and joins the loaded list', async () => {
    const listed = (await controller.fetch(TodoResource.getList, {})).map((t) => t.id);
    const before = await count();
    const created = await controller.fetch(TodoResource.getList.push, { title: 'Buy milk' });
    assert.ok(created instanceof Todo);
    assert.equal(created.title, 'Buy milk');
    // The model's default, filled in by the database.
    assert.equal(created.completed, false);
    assert.deepEqual(ids(), [...listed, created.id]);
    assert.equal(await count(), before + 1, 'one todo created');
  });

  it('partialUpdate (PATCH) and update (PUT) change the todo in the loaded list', async () => {
    const created = await controller.fetch(TodoResource.getList.push, { title: 'Draft' });
    await controller.fetch(TodoResource.getList, {});
    const done = await controller.fetch(
      TodoResource.partialUpdate,
      { id: created.id },
      { completed: true },
    );
    assert.equal(done.completed, true);
    assert.ok(done.updated_at.getTime() >= created.updated_at.getTime());
    await controller.fetch(TodoResource.update, { id: created.id }, { title: 'Final' });
    const listed = controller.getResponse(TodoResource.getList, {}).data!;
    const todo = listed.find((t) => t.id === created.id)!;
    assert.equal(todo.title, 'Final');
    assert.equal(todo.completed, true);
  });

  it('destroy answers 204 and the todo leaves the loaded list', async () => {
    const created = await controller.fetch(TodoResource.getList.push, { title: 'Delete me' });
    await controller.fetch(TodoResource.getList, {});
    assert.ok(ids().includes(created.id));
    await controller.fetch(TodoResource.delete, { id: created.id });
    assert.ok(!ids().includes(created.id));
    assert.equal((await fetch(`${server.origin}/todos/${created.id}`)).status, 404);
  });

  it("a blank title is a 422 with the record's errors, which fieldErrors reads", async () => {
    const error = await controller.fetch(TodoResource.getList.push, { title: '' }).then(
      () => assert.fail('resolved'),
      (error: unknown) => error,
    );
    assert.ok(error instanceof NetworkError);
    assert.equal(error.status, 422);
    // `render json: @todo.errors`: the errors by attribute, with no `errors` key around them.
    assert.deepEqual(error.body, { title: ["can't be blank"] });
    assert.deepEqual(fieldErrors(error), { title: ["can't be blank"] });
  });
});
