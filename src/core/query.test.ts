// Queries over the store (resource-elements/query): every stored entity of a type, as a function of
// the read's params makes it, read like any endpoint with no request, the same object while what it
// shows is the same, and current after every write.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Entity } from './schema/entity.js';
import { createResource } from './rest/create-resource.js';
import { RestEndpoint } from './rest/rest-endpoint.js';
import { ExpiryStatus } from './protocol/types.js';
import { flush } from './controller/test-utils/fake-fetch.js';
import { failOnUnhandledRejection, setup } from './controller/test-utils/harness.js';
import { queryAll } from './query.js';

failOnUnhandledRejection();

class User extends Entity {
  id = '';
  name = '';
  pk() {
    return this.id;
  }
  static key = 'QueryUser';
}

class Task extends Entity {
  id = '';
  title = '';
  done = false;
  userId = '';
  pk() {
    return this.id;
  }
  static key = 'QueryTask';
}

const prefix = 'https://api.test';
const TaskResource = createResource({
  urlPrefix: prefix,
  path: '/tasks/:id',
  schema: Task,
  searchParams: {} as { userId?: string },
});

/** The open tasks of one user, by title. */
const openTasks = queryAll(Task, (tasks, { userId }: { userId: string }) =>
  tasks
    .filter((task) => !task.done && task.userId === userId)
    .sort((a, b) => a.title.localeCompare(b.title)),
);

const titles = (tasks: readonly Task[] | undefined) => tasks?.map((task) => task.title);

const rows = [
  { id: '1', title: 'walk', done: false, userId: 'u1' },
  { id: '2', title: 'cook', done: false, userId: 'u1' },
  { id: '3', title: 'read', done: true, userId: 'u1' },
  { id: '4', title: 'swim', done: false, userId: 'u2' },
];

/** A Controller whose store holds `rows`, pushed (no request). */
function stored() {
  const harness = setup();
  harness.controller.set([Task], rows);
  return harness;
}

describe('queryAll: a query over the store', () => {
  it('reads every stored entity of its type, filtered and sorted by its params, with no request', async () => {
    const { controller, server } = stored();
    const read = controller.getResponse(openTasks, { userId: 'u1' });
    assert.deepEqual(titles(read.data), ['cook', 'walk']);
    assert.ok(read.data!.every((task) => task instanceof Task));
    assert.equal(read.expiryStatus, ExpiryStatus.Valid);
    assert.deepEqual(titles(controller.getResponse(openTasks, { userId: 'u2' }).data), ['swim']);
    assert.equal(controller.fetchIfStale(openTasks, { userId: 'u1' }), undefined);
    assert.equal(controller.revalidate(openTasks, { userId: 'u1' }), undefined);
    await flush();
    assert.equal(server.calls.length, 0, 'nothing was sent');
  });

  it('without select: every stored entity; an empty store reads as an empty list, fresh', () => {
    const { controller } = setup();
    const allTasks = queryAll(Task);
    const empty = controller.getResponse(allTasks);
    assert.deepEqual(empty.data, []);
    assert.equal(empty.expiryStatus, ExpiryStatus.Valid);
    controller.set([Task], rows);
    assert.deepEqual(titles(controller.getResponse(allTasks).data)?.sort(), [
      'cook',
      'read',
      'swim',
      'walk',
    ]);
  });

  it('is the same object while nothing it shows changed, and select runs only when a member did', () => {
    const { controller } = setup();
    let runs = 0;
    const counted = queryAll(Task, (tasks, { userId }: { userId: string }) => {
      runs++;
      return tasks.filter((task) => task.userId === userId && !task.done);
    });
    controller.set([Task], rows);
    const first = controller.getResponse(counted, { userId: 'u1' }).data;
    assert.equal(runs, 1);
    // Read again (a new params object, the same key): the answer made before.
    assert.equal(controller.getResponse(counted, { userId: 'u1' }).data, first);
    assert.equal(runs, 1, 'no member changed: select did not run again');
    // Another type written: no member changed.
    controller.set(User, { id: 'u1', name: 'Ann' });
    assert.equal(controller.getResponse(counted, { userId: 'u1' }).data, first);
    assert.equal(runs, 1);
    // A task written with the values it has: the stored object is kept, nothing changed.
    controller.set(Task, rows[0]);
    assert.equal(controller.getResponse(counted, { userId: 'u1' }).data, first);
    // Another user's task changed: select runs, and its result is the same, so it is the same
    // object.
    controller.set(Task, { ...rows[3], title: 'dive' });
    assert.equal(controller.getResponse(counted, { userId: 'u1' }).data, first);
    assert.equal(runs, 2);
    // A member changed (a field the filter does not read): a new list with the new instance.
    controller.set(Task, { ...rows[1], title: 'bake' });
    const second = controller.getResponse(counted, { userId: 'u1' }).data!;
    assert.notEqual(second, first);
    assert.deepEqual(titles(second), ['walk', 'bake']);
    assert.equal(second[0], first![0], 'the unchanged member is the same instance');
  });

  it('follows every write: a push, an update’s answer, a delete, an invalidation', async () => {
    const { controller, server } = stored();
    const read = () => titles(controller.getResponse(openTasks, { userId: 'u1' }).data);
    controller.set(Task, { id: '5', title: 'clean', done: false, userId: 'u1' });
    assert.deepEqual(read(), ['clean', 'cook', 'walk'], 'a pushed task joins, sorted');

    const update = controller.fetch(TaskResource.partialUpdate, { id: '2' }, { done: true });
    await flush();
    server.take(`PATCH ${prefix}/tasks/2`).respond(200, { ...rows[1], done: true });
    await update;
    assert.deepEqual(read(), ['clean', 'walk'], 'the answer of an update moves it out');

    const removal = controller.fetch(TaskResource.delete, { id: '1' });
    await flush();
    server.take(`DELETE ${prefix}/tasks/1`).respond(204);
    await removal;
    assert.deepEqual(read(), ['clean'], 'a deleted task (INVALID) leaves');

    controller.invalidate(Task, '5');
    assert.deepEqual(read(), [], 'so does one marked INVALID');
    controller.set(Task, { id: '5', title: 'clean', done: false, userId: 'u1' });
    assert.deepEqual(read(), ['clean'], 'and it comes back when written again');
  });

  it('shows a pending optimistic update at once, and the rollback when it fails', async () => {
    const { controller, server } = stored();
    const Optimistic = createResource({
      urlPrefix: prefix,
      path: '/tasks/:id',
      schema: Task,
      optimistic: true,
    });
    const read = () => titles(controller.getResponse(openTasks, { userId: 'u1' }).data);
    const before = controller.getResponse(openTasks, { userId: 'u1' }).data;
    const update = controller.fetch(Optimistic.partialUpdate, { id: '1' }, { done: true });
    assert.deepEqual(read(), ['cook'], 'applied at once');
    await flush();
    server.take(`PATCH ${prefix}/tasks/1`).respond(500, { detail: 'no' });
    await assert.rejects(update);
    assert.equal(
      controller.getResponse(openTasks, { userId: 'u1' }).data,
      before,
      'rolled back: the list as it was, the same object',
    );
  });

  it('is filled by a fetch of a list (an All endpoint), then read without a request', async () => {
    const { controller, server } = setup();
    assert.deepEqual(controller.getResponse(openTasks, { userId: 'u1' }).data, []);
    const getAll = new RestEndpoint({ urlPrefix: prefix, path: '/tasks', schema: [Task] });
    const all = controller.fetch(getAll);
    await flush();
    server.take(`GET ${prefix}/tasks`).respond(200, rows);
    await all;
    assert.deepEqual(titles(controller.getResponse(openTasks, { userId: 'u1' }).data), [
      'cook',
      'walk',
    ]);
    // A resource's list (a Collection) fills it the same way.
    const list = controller.fetch(TaskResource.getList, { userId: 'u2' });
    await flush();
    server
      .take(`GET ${prefix}/tasks?userId=u2`)
      .respond(200, [{ id: '6', title: 'row', done: false, userId: 'u2' }]);
    await list;
    assert.deepEqual(titles(controller.getResponse(openTasks, { userId: 'u2' }).data), [
      'row',
      'swim',
    ]);
    assert.equal(server.calls.length, 2, 'only the two lists were requested');
  });

  it('reads through a ResponseObserver: complete at once, nothing sent, told only of its changes', async () => {
    const { controller, server } = stored();
    const observer = controller.observe(openTasks, { userId: 'u1' });
    let told = 0;
    const stop = observer.subscribe(() => told++);
    await flush();
    assert.equal(observer.result.status, 'complete');
    assert.deepEqual(titles(observer.result.data), ['cook', 'walk']);
    assert.equal(observer.result.refreshing, false);
    controller.set(User, { id: 'u1', name: 'Ann' });
    controller.set(Task, { ...rows[3], title: 'dive' });
    assert.equal(told, 0, 'writes that change nothing it shows tell it nothing');
    controller.set(Task, { ...rows[0], done: true });
    assert.equal(told, 1);
    assert.deepEqual(titles(observer.result.data), ['cook']);
    controller.focus();
    controller.online();
    await flush();
    assert.equal(server.calls.length, 0, 'no request, not even on focus or online');
    stop();
  });

  it('fetch() of a query rejects, naming it, and sends nothing', async () => {
    const { controller, server } = stored();
    const named = queryAll(Task, (tasks) => tasks.length, { name: 'taskCount' });
    await assert.rejects(controller.fetch(named), {
      name: 'TypeError',
      message: /^QUERY taskCount is read from the store and sends no request/,
    });
    await assert.rejects(named(), /QUERY taskCount/);
    assert.equal(server.calls.length, 0);
    assert.equal(controller.getResponse(named).data, 4);
  });

  it('refuses bad input with errors that say what and where', () => {
    const { controller } = stored();
    assert.throws(() => queryAll({} as never), {
      name: 'TypeError',
      message: /^queryAll: the first argument must be an Entity class, got an object/,
    });
    assert.throws(() => queryAll(Task, 'done' as never), {
      message: /^queryAll\(QueryTask\): select must be a function, got a string/,
    });
    const named = queryAll(Task, (tasks, _params: object) => tasks, { name: 'tasks' });
    assert.throws(() => controller.getResponse(named, 5 as never), {
      message: /^QUERY tasks: params must be an object, got a number/,
    });
    assert.throws(() => controller.getResponse(named, { by: { order: () => 0 } }), {
      message: /^QUERY tasks: params\.by\.order is a function/,
    });
    assert.throws(() => controller.getResponse(named, { at: [new Map()] }), {
      message: /^QUERY tasks: params\.at\[0\] is a Map/,
    });
    // The params of one key are one key, whatever their order; undefined members are left out.
    assert.equal(named.key({ a: 1, b: 'x', c: undefined }), named.key({ b: 'x', a: 1 }));
    assert.notEqual(named.key({ a: 1 }), named.key({ a: '1' }), 'a number is not its string');
  });

  it('a select that throws or returns undefined fails the read, naming the query', () => {
    const { controller } = stored();
    const broken = queryAll(
      Task,
      (tasks) => (tasks[0] as unknown as { owner: { name: string } }).owner.name,
      { name: 'owners' },
    );
    assert.throws(() => controller.getResponse(broken), {
      name: 'TypeError',
      message: /^QUERY owners: its data could not be read: Cannot read properties of undefined/,
    });
    const first = queryAll(Task, (tasks) => tasks.find((task) => task.title === 'none'), {
      name: 'firstNone',
    });
    assert.throws(() => controller.getResponse(first), {
      message: /^QUERY firstNone: its data could not be read: select returned undefined/,
    });
    const observer = controller.observe(first);
    const stop = observer.subscribe(() => {});
    assert.equal(observer.result.status, 'error', 'a reader shows the failure');
    assert.match(String((observer.result.error as Error).message), /select returned undefined/);
    stop();
  });
});
