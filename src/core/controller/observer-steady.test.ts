// A steady screen: a reader keeps the last data while the read of new args loads (the
// `keepPrevious` view), says when a request of its read is in flight while it shows data
// (`refreshing`), and shows what a `select` view makes of the data, told only when that changes.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { ResponseObserver } from './response-observer.js';
import { failOnUnhandledRejection, setup } from './test-utils/harness.js';
import { flush } from './test-utils/fake-fetch.js';
import { Todo, todoEndpoints } from './test-utils/entities.js';
import { keepPrevious, select } from '../views.js';

failOnUnhandledRejection();

const titles = (todos: readonly Todo[] | undefined) => todos?.map((todo) => todo.title);

describe('the keepPrevious view', () => {
  it('shows the last data, marked previous, while the read of new args loads', async () => {
    const { controller, server } = setup();
    const { getList } = todoEndpoints();
    const observer = new ResponseObserver(controller, {
      view: keepPrevious,
    });
    observer.setRead(getList, { q: 'a' });
    const statuses: string[] = [];
    const stop = observer.subscribe(() => statuses.push(observer.result.status));
    await flush();
    server.take('GET /todos?q=a').respond(200, [{ id: '1', title: 'apple' }]);
    await flush();
    const first = observer.result.data;
    assert.deepEqual(titles(first), ['apple']);

    observer.setRead(getList, { q: 'ap' });
    assert.equal(observer.result.status, 'complete', 'no pending state between the two');
    assert.equal(observer.result.data, first, 'the same object: nothing renders again for it');
    assert.equal(observer.result.previous, true);
    await flush();
    assert.equal(observer.result.refreshing, true, 'the read of the new args is in flight');
    server.take('GET /todos?q=ap').respond(200, [
      { id: '1', title: 'apple' },
      { id: '2', title: 'apricot' },
    ]);
    await flush();
    assert.deepEqual(titles(observer.result.data), ['apple', 'apricot']);
    assert.equal(observer.result.previous, false);
    assert.equal(observer.result.refreshing, false);
    assert.ok(!statuses.includes('pending'), `never pending after the first load: ${statuses}`);
    stop();
  });

  it('without it, a reader of new args is pending (what it did before)', async () => {
    const { controller, server } = setup();
    const { getList } = todoEndpoints();
    const observer = controller.observe(getList, { q: 'a' });
    const stop = observer.subscribe(() => {});
    await flush();
    server.take('GET /todos?q=a').respond(200, [{ id: '1', title: 'apple' }]);
    await flush();
    observer.setRead(getList, { q: 'ap' });
    assert.equal(observer.result.status, 'pending');
    assert.equal(observer.result.data, undefined);
    assert.equal(observer.result.previous, false);
    stop();
    await flush();
  });

  it('shows an error of the new args as an error, and aborts a read nobody needs any more', async () => {
    const { controller, server } = setup({ retry: 0 });
    const { getList } = todoEndpoints({ retry: 0 });
    const observer = new ResponseObserver(controller, {
      view: keepPrevious,
    });
    observer.setRead(getList, { q: 'a' });
    const stop = observer.subscribe(() => {});
    await flush();
    server.take('GET /todos?q=a').respond(200, [{ id: '1', title: 'apple' }]);
    await flush();
    observer.setRead(getList, { q: 'ap' });
    await flush();
    const superseded = server.take('GET /todos?q=ap');
    observer.setRead(getList, { q: 'app' });
    await flush();
    assert.equal(superseded.signal?.aborted, true, 'the read of "ap" is aborted');
    assert.deepEqual(titles(observer.result.data), ['apple'], 'still the last data shown');
    server.take('GET /todos?q=app').respond(500, { detail: 'down' });
    await flush();
    assert.equal(observer.result.status, 'error');
    assert.equal(observer.result.data, undefined);
    assert.equal(observer.result.previous, false);
    stop();
  });
});

describe('refreshing', () => {
  it('is true while a request of the read is in flight and data is shown, and told both ways', async () => {
    const { controller, server } = setup();
    const { get } = todoEndpoints();
    const observer = controller.observe(get, { id: '1' });
    let told = 0;
    const stop = observer.subscribe(() => told++);
    await flush();
    assert.equal(observer.result.refreshing, false, 'nothing shown yet: loading, not refreshing');
    server.take('GET /todos/1').respond(200, { id: '1', title: 'a' });
    await flush();
    assert.equal(observer.result.refreshing, false);
    const data = observer.result.data;

    told = 0;
    // A refetch another reader starts (a poll, a reload button elsewhere) is this read's too.
    const other = controller.refetch(get, { id: '1' });
    await flush();
    assert.equal(observer.result.refreshing, true);
    assert.equal(observer.result.data, data);
    assert.equal(told, 1);
    server.take('GET /todos/1').respond(200, { id: '1', title: 'a' });
    await other;
    await flush();
    assert.equal(observer.result.refreshing, false);
    assert.equal(observer.result.data, data, 'the same data: only the flag changed');
    assert.equal(told, 2, 'told once when it started and once when it ended');
    stop();
  });
});

describe('a select view', () => {
  it('shows what it makes of the data, runs only for new data, and tells only of a new result', async () => {
    const { controller, server } = setup();
    const { getList } = todoEndpoints();
    let runs = 0;
    const observer = new ResponseObserver(controller, {
      view: select((todos: Todo[]) => {
        runs++;
        return todos.filter((todo) => todo.completed).length;
      }),
    });
    observer.setRead(getList, {});
    let told = 0;
    const stop = observer.subscribe(() => told++);
    await flush();
    server.take('GET /todos').respond(200, [
      { id: '1', title: 'a', completed: true },
      { id: '2', title: 'b', completed: false },
    ]);
    await flush();
    assert.equal(observer.result.data, 1);
    assert.equal(runs, 1);
    told = 0;

    controller.set(Todo, { id: '2', title: 'b, renamed' });
    assert.equal(runs, 2, 'the list is a new object: select runs');
    assert.equal(told, 0, 'the count is the same: the reader is not told');
    controller.set(Todo, { id: '1', title: 'unrelated', completed: true });
    controller.set(Todo, { id: '2', completed: true });
    assert.equal(observer.result.data, 2);
    assert.equal(told, 1);
    const before = runs;
    observer.setRead(getList, {});
    assert.equal(runs, before, 'the same data: select is not run again');
    stop();
  });

  it('keeps the last object when the result is deeply the same', async () => {
    const { controller, server } = setup();
    const { getList } = todoEndpoints();
    const observer = new ResponseObserver(controller, {
      view: select((todos: Todo[]) => todos.map((todo) => todo.id)),
    });
    observer.setRead(getList, {});
    const stop = observer.subscribe(() => {});
    await flush();
    server.take('GET /todos').respond(200, [{ id: '1', title: 'a' }]);
    await flush();
    const ids = observer.result.data;
    assert.deepEqual(ids, ['1']);
    controller.set(Todo, { id: '1', title: 'b' });
    assert.equal(observer.result.data, ids);
    stop();
  });
});
