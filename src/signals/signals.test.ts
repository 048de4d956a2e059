// resource-elements/signals in Node: reads and entities as signal-polyfill signals, watched the
// way @lit-labs/signals watches them (a Signal.subtle.Watcher), against a fake server.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Signal } from 'signal-polyfill';
import { Entity, createResource } from '../core/index.js';
import { flush } from '../core/controller/test-utils/fake-fetch.js';
import { failOnUnhandledRejection, setup } from '../core/controller/test-utils/harness.js';
import { entitySignal, readSignal } from './index.js';
import { keepPrevious, select } from '../views/index.js';

failOnUnhandledRejection();

class Todo extends Entity {
  id = 0;
  title = '';
  done = false;
  pk() {
    return this.id;
  }
  static key = 'Todo';
}

class Author extends Entity {
  id = 0;
  name = '';
  pk() {
    return this.id;
  }
  static key = 'Author';
}

class Note extends Entity {
  id = 0;
  text = '';
  author = Author.fromJS();
  pk() {
    return this.id;
  }
  static key = 'Note';
  static schema = { author: Author };
}

const TodoResource = createResource({
  urlPrefix: 'https://api.test',
  path: '/todos/:id',
  schema: Todo,
  searchParams: {} as { done?: boolean },
});

/** Watches `signal` as a Lit binding would: notified when dirty, reads it again afterwards. */
function watch<T>(signal: Signal.Computed<T>) {
  let dirty = 0;
  const watcher = new Signal.subtle.Watcher(() => {
    dirty++;
    queueMicrotask(() => watcher.watch());
  });
  watcher.watch(signal);
  signal.get();
  return {
    get dirty() {
      return dirty;
    },
    stop: () => watcher.unwatch(signal),
  };
}

describe('readSignal', () => {
  it('fetches while watched, shows the answer, and releases its subscription when unwatched', async () => {
    const { controller, server } = setup();
    const todo = readSignal(controller, TodoResource.get, { id: 1 });
    // Not watched: nothing is fetched or subscribed.
    assert.equal(todo.get().status, 'pending');
    await flush();
    assert.equal(server.calls.length, 0);
    assert.equal(controller.stats().subscriptions, 0);

    const watched = watch(todo);
    await flush();
    assert.equal(server.calls.length, 1);
    assert.equal(controller.stats().subscriptions, 1);
    server.take('GET https://api.test/todos/1').respond(200, { id: 1, title: 'Buy milk' });
    await flush();
    const state = todo.get();
    assert.equal(state.status, 'complete');
    assert.ok(state.value instanceof Todo);
    assert.equal(state.value.title, 'Buy milk');
    assert.equal(state.error, undefined);
    assert.ok(watched.dirty >= 1);
    // Nothing changed: the same object.
    assert.equal(todo.get(), state);

    watched.stop();
    assert.equal(controller.stats().subscriptions, 0);
    assert.equal(controller.stats().listeners, 0, 'no store listener left');
  });

  it('read while unwatched, shows what the store holds now, and fetches nothing (#38 item 3)', async () => {
    const { controller, server } = setup();
    const todos = readSignal(controller, TodoResource.getList, {});
    assert.equal(todos.get().status, 'pending');

    const fetching = controller.fetch(TodoResource.getList, {});
    await flush();
    server.take('GET https://api.test/todos').respond(200, [{ id: 1, title: 'one' }]);
    await fetching;
    const state = todos.get();
    assert.equal(state.status, 'complete');
    assert.deepEqual(
      state.value?.map((todo) => todo.title),
      ['one'],
    );
    assert.equal(todos.get(), state, 'the same object while nothing changed');

    controller.set(Todo, { id: 1, title: 'one, renamed' });
    assert.equal(todos.get().value?.[0]?.title, 'one, renamed');

    controller.invalidate(TodoResource.getList, {});
    assert.equal(todos.get().status, 'pending');
    await flush();
    assert.equal(server.calls.length, 1, 'only the fetch made above');
    assert.equal(controller.stats().subscriptions, 0);
    assert.equal(controller.stats().listeners, 0);
  });

  it('shows what the store holds when it starts being watched after unwatched reads', async () => {
    const { controller, server } = setup();
    const todo = readSignal(controller, TodoResource.get, { id: 1 });
    assert.equal(todo.get().status, 'pending');
    controller.setResponse(TodoResource.get, { id: 1 }, { id: 1, title: 'stored' });
    const watched = watch(todo);
    assert.equal(todo.get().status, 'complete');
    assert.equal(todo.get().value?.title, 'stored');
    await flush();
    assert.equal(server.calls.length, 0, 'fresh: nothing to fetch');
    const dirty = watched.dirty;
    controller.set(Todo, { id: 1, title: 'renamed' });
    assert.equal(watched.dirty, dirty + 1);
    assert.equal(todo.get().value?.title, 'renamed');
    watched.stop();
  });

  it('follows args given as a function of signals, and reads nothing for null', async () => {
    const { controller, server } = setup();
    const id = new Signal.State<number | null>(1);
    const todo = readSignal(controller, TodoResource.get, () => {
      const at = id.get();
      return at === null ? null : { id: at };
    });
    const watched = watch(todo);
    await flush();
    server.take('GET https://api.test/todos/1').respond(200, { id: 1, title: 'one' });
    await flush();
    assert.equal(todo.get().value?.title, 'one');

    id.set(2);
    assert.equal(todo.get().status, 'pending');
    await flush();
    server.take('GET https://api.test/todos/2').respond(200, { id: 2, title: 'two' });
    await flush();
    assert.equal(todo.get().value?.title, 'two');
    assert.equal(controller.stats().subscriptions, 1, 'the read of id 1 was released');

    id.set(null);
    assert.equal(todo.get().status, 'pending');
    assert.equal(controller.stats().subscriptions, 0);
    await flush();
    assert.equal(server.calls.length, 2);
    watched.stop();
  });

  it('takes a view: the last value stays, previous and refreshing, while new args load', async () => {
    const { controller, server } = setup();
    const id = new Signal.State(1);
    const todo = readSignal(controller, TodoResource.get, () => ({ id: id.get() }), {
      view: keepPrevious,
    });
    const watched = watch(todo);
    await flush();
    server.take('GET https://api.test/todos/1').respond(200, { id: 1, title: 'one' });
    await flush();
    const one = todo.get().value;
    assert.equal(one?.title, 'one');

    id.set(2);
    // Read as a render would: the read of id 2 starts, and the last value stays.
    assert.equal(todo.get().value, one);
    await flush();
    const state = todo.get();
    assert.equal(state.status, 'complete');
    assert.equal(state.value, one);
    assert.equal(state.previous, true);
    assert.equal(state.refreshing, true);
    server.take('GET https://api.test/todos/2').respond(200, { id: 2, title: 'two' });
    await flush();
    assert.equal(todo.get().value?.title, 'two');
    assert.equal(todo.get().previous, false);
    assert.equal(todo.get().refreshing, false);
    watched.stop();
  });

  it('takes a select view: a new state only when the selected result changes', async () => {
    const { controller, server } = setup();
    const done = readSignal(
      controller,
      TodoResource.getList,
      {},
      {
        view: select((todos: Todo[]) => todos.filter((todo) => todo.done).length),
      },
    );
    const watched = watch(done);
    await flush();
    server.take('GET https://api.test/todos').respond(200, [
      { id: 1, title: 'a', done: true },
      { id: 2, title: 'b', done: false },
    ]);
    await flush();
    const state = done.get();
    assert.equal(state.value, 1);
    controller.set(Todo, { id: 2, title: 'renamed' });
    assert.equal(done.get(), state, 'a title edit: the same state');
    controller.set(Todo, { id: 2, done: true });
    assert.equal(done.get().value, 2);
    watched.stop();
  });

  it('shows a failure as its error, and refetch() asks again', async () => {
    const { controller, server } = setup();
    const todo = readSignal(controller, TodoResource.get, { id: 3 });
    const watched = watch(todo);
    await flush();
    server.take().respond(404, { message: 'gone' });
    await flush();
    assert.equal(todo.get().status, 'error');
    assert.match(String((todo.get().error as Error).message), /404/);

    const again = todo.refetch();
    await flush();
    server.take('GET https://api.test/todos/3').respond(200, { id: 3, title: 'back' });
    await again;
    assert.equal(todo.get().status, 'complete');
    assert.equal(todo.get().value?.title, 'back');
    watched.stop();
  });

  it('shows an error thrown while making the args, and fetches nothing', async () => {
    const { controller, server } = setup();
    const todo = readSignal(controller, TodoResource.get, () => {
      throw new RangeError('no id yet');
    });
    const watched = watch(todo);
    await flush();
    assert.equal(todo.get().status, 'error');
    assert.equal((todo.get().error as Error).message, 'no id yet');
    assert.equal(server.calls.length, 0);
    watched.stop();
  });
});

describe('entitySignal', () => {
  it('holds the instance every read shows, changes only when that entity changes, and never fetches', async () => {
    const { controller, server } = setup();
    controller.setResponse(TodoResource.getList, {}, [
      { id: 1, title: 'one' },
      { id: 2, title: 'two' },
    ]);
    const one = entitySignal(controller, Todo, { id: 1 });
    const two = entitySignal(controller, Todo, () => ({ id: 2 }));
    const watchedOne = watch(one);
    const watchedTwo = watch(two);
    const first = one.get()!;
    assert.equal(first.title, 'one');
    const list = controller.getResponse(TodoResource.getList, {}).data!;
    assert.equal(list[0], first, 'the same instance the list shows');

    controller.set(Todo, { id: 2, title: 'two, renamed' });
    await flush();
    assert.equal(two.get()!.title, 'two, renamed');
    assert.equal(one.get(), first, 'the other entity keeps its instance');

    controller.set(Todo, { id: 1, title: 'one, renamed' });
    assert.equal(one.get()!.title, 'one, renamed');

    assert.equal(controller.stats().listeners, 1, 'one store listener for both');
    watchedOne.stop();
    assert.equal(controller.stats().listeners, 1);
    watchedTwo.stop();
    assert.equal(controller.stats().listeners, 0, 'released when the last is unwatched');
    await flush();
    assert.equal(server.calls.length, 0);
  });

  it('read while unwatched, shows the entity the store holds now (#38 item 3)', () => {
    const { controller } = setup();
    const todo = entitySignal(controller, Todo, { id: 1 });
    assert.equal(todo.get(), undefined);
    controller.set(Todo, { id: 1, title: 'one' });
    const first = todo.get();
    assert.equal(first?.title, 'one');
    assert.equal(todo.get(), first, 'the same instance while nothing changed');
    controller.set(Todo, { id: 1, title: 'one, renamed' });
    assert.equal(todo.get()?.title, 'one, renamed');
    assert.equal(controller.stats().listeners, 0, 'no store listener while unwatched');

    // Watched after that, it starts from what the store holds.
    controller.set(Todo, { id: 1, title: 'before watching' });
    const watched = watch(todo);
    assert.equal(todo.get()?.title, 'before watching');
    watched.stop();
  });

  it('is undefined for an entity the store does not hold, until one arrives, and after a delete', async () => {
    const { controller, server } = setup();
    const todo = entitySignal(controller, Todo, { id: 7 });
    const watched = watch(todo);
    assert.equal(todo.get(), undefined);
    controller.set(Todo, { id: 7, title: 'seven' });
    assert.equal(todo.get()?.title, 'seven');

    const deleting = controller.fetch(TodoResource.delete, { id: 7 });
    await flush();
    server.take('DELETE https://api.test/todos/7').respond(204);
    await deleting;
    assert.equal(todo.get(), undefined);
    watched.stop();
  });

  it('shows an optimistic update at once, and the stored value again when it is rolled back', async () => {
    const { controller, server } = setup();
    const Optimistic = TodoResource.extend({ partialUpdate: { optimistic: true } });
    controller.set(Todo, { id: 1, title: 'one', done: false });
    const todo = entitySignal(controller, Todo, { id: 1 });
    const watched = watch(todo);
    const stored = todo.get();
    const update = controller.fetch(Optimistic.partialUpdate, { id: 1 }, { done: true });
    assert.equal(todo.get()?.done, true);
    await flush();
    server.take('PATCH https://api.test/todos/1').respond(500, { message: 'no' });
    await assert.rejects(update);
    assert.equal(todo.get(), stored);
    watched.stop();
  });

  it('changes when an entity it nests changes, though its own stored object did not', () => {
    const { controller } = setup();
    controller.set(Note, { id: 1, text: 'hello', author: { id: 5, name: 'Ada' } });
    const note = entitySignal(controller, Note, { id: 1 });
    const watched = watch(note);
    const before = note.get()!;
    assert.equal(before.author.name, 'Ada');
    controller.set(Author, { id: 5, name: 'Ada L.' });
    const after = note.get()!;
    assert.notEqual(after, before);
    assert.equal(after.author.name, 'Ada L.');
    assert.ok(watched.dirty >= 1);
    watched.stop();
  });

  it('is dirtied only when its own entity changed, not by every change to the store', () => {
    const { controller } = setup();
    controller.set(
      [Todo],
      [
        { id: 1, title: 'one' },
        { id: 2, title: 'two' },
      ],
    );
    const one = entitySignal(controller, Todo, { id: 1 });
    const watched = watch(one);
    const dirty = watched.dirty;
    controller.set(Todo, { id: 2, title: 'two, renamed' });
    controller.set(Note, { id: 3, text: 'elsewhere' });
    assert.equal(watched.dirty, dirty);
    controller.set(Todo, { id: 1, title: 'one, renamed' });
    assert.equal(watched.dirty, dirty + 1);
    watched.stop();
  });
});
