// Two controllers, as two tabs would have, joined by Node's own BroadcastChannel.
import { afterEach, describe, it, mock } from 'node:test';
import { strict as assert } from 'node:assert';
import { TabSyncManager } from './tab-sync.js';
import { setup, failOnUnhandledRejection } from '../core/controller/test-utils/harness.js';
import { todoEndpoints } from '../core/controller/test-utils/entities.js';
import type { Todo } from '../core/controller/test-utils/entities.js';
import type { Controller } from '../core/index.js';
import { flush } from './test-utils/harness.js';

failOnUnhandledRejection();

let channelCount = 0;

/** A BroadcastChannel that counts what is open and what it posts. */
function countingChannel() {
  const counts = { open: 0, posted: [] as unknown[] };
  class Counting extends BroadcastChannel {
    #closed = false;
    constructor(name: string) {
      super(name);
      counts.open++;
    }
    override postMessage(message: unknown): void {
      counts.posted.push(message);
      super.postMessage(message);
    }
    override close(): void {
      if (!this.#closed) counts.open--;
      this.#closed = true;
      super.close();
    }
  }
  return { counts, BroadcastChannel: Counting as typeof BroadcastChannel };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  assert.fail(`timed out waiting until ${what}`);
}

const api = todoEndpoints({ optimistic: true });

/** Controllers to dispose after each test, pass or fail: an open channel keeps Node running. */
const open: { dispose(): void }[] = [];
afterEach(() => open.splice(0).forEach((controller) => controller.dispose()));

/** Two "tabs" on one channel; `a` has the todo list loaded. */
async function twoTabs() {
  const channel = `test-${process.pid}-${++channelCount}`;
  const counting = countingChannel();
  const options = { channel, BroadcastChannel: counting.BroadcastChannel };
  const a = setup({ managers: [new TabSyncManager(options)] });
  const b = setup({ managers: [new TabSyncManager(options)] });
  open.push(a.controller, b.controller);
  const titles = (tab: typeof a) =>
    ((tab.controller.getResponse(api.getList).data as Todo[] | undefined) ?? []).map(
      (todo) => todo.title,
    );
  return { a, b: { ...b, channel }, titles, counts: counting.counts };
}

async function loadList(tab: ReturnType<typeof setup>) {
  const list = tab.controller.fetch(api.getList);
  await flush();
  tab.server.take('GET /todos').respond(200, [
    { id: '1', title: 'one' },
    { id: '2', title: 'two' },
  ]);
  await list;
}

describe('TabSyncManager', () => {
  it('a response one tab fetched is shown in the other with no request', async () => {
    const { a, b, titles } = await twoTabs();
    await loadList(a);
    await until(() => titles(b).length === 2, 'tab b has the list');
    assert.deepEqual(titles(b), ['one', 'two']);
    assert.equal(b.controller.getResponse(api.getList).expiryStatus, 'valid');
    assert.equal(b.controller.fetchIfStale(api.getList), undefined, 'b has nothing to fetch');
    assert.equal(b.server.calls.length, 0);
  });

  it('a committed change travels, a pending optimistic one does not, and nothing echoes', async () => {
    const { a, b, titles, counts } = await twoTabs();
    await loadList(a);
    await until(() => titles(b).length === 2, 'tab b has the list');
    const sent = counts.posted.length;
    assert.equal(sent, 1, 'a sent its list; b sent nothing back');

    const update = a.controller.fetch(api.update, { id: '1' }, { title: 'changed' });
    assert.deepEqual(titles(a), ['changed', 'two'], 'a shows its optimistic change');
    await flush();
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(titles(b), ['one', 'two'], 'b does not see an uncommitted change');
    assert.equal(counts.posted.length, sent);

    a.server.take('PATCH /todos/1').respond(200, { id: '1', title: 'changed' });
    await update;
    await until(() => titles(b)[0] === 'changed', 'b sees the committed change');
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(counts.posted.length, sent + 1, 'one message; the receiver sent none back');
    assert.equal(b.server.calls.length, 0);
  });

  it('an answer older than the stored entity still shares what it added to it', async () => {
    const { a, b } = await twoTabs();
    const list = a.controller.fetch(api.getList);
    await flush();
    a.clock.advance(10);
    // Newer than the list request: it wins where the two differ.
    a.controller.setResponse(api.get, { id: '1' }, { id: '1', title: 'newer' });
    const shown = () => b.controller.getResponse(api.get, { id: '1' }).data as Todo | undefined;
    await until(() => shown()?.title === 'newer', 'tab b has todo 1');
    // The older answer adds a field the stored entity lacks: the entity changes, its meta does not.
    a.server.take('GET /todos').respond(200, [{ id: '1', title: 'older', completed: true }]);
    await list;
    const inA = a.controller.getResponse(api.get, { id: '1' }).data as Todo;
    assert.deepEqual([inA.title, inA.completed], ['newer', true]);
    await until(() => shown()?.completed === true, 'tab b has what the older answer added');
    assert.equal(shown()!.title, 'newer');
  });

  it('while attached, the store logs what each write wrote; detached, it stops', () => {
    const tab = setup();
    open.push(tab.controller);
    const { store } = tab.controller;
    const written = (id: string) => {
      tab.controller.setResponse(api.get, { id }, { id, title: `todo ${id}` });
      const state = tab.controller.getState();
      const log = store.writtenBy(state);
      return log && [...log.get(state.entities.Todo!)!];
    };
    assert.equal(written('7'), undefined, 'nobody asked for the log yet');
    const detach = new TabSyncManager({ channel: `test-${process.pid}-log` }).attach(
      tab.controller,
    );
    assert.deepEqual(written('9'), ['9']);
    // Another reader of the log: tab sync's detach must end its own request only.
    const stopOther = store.logWrites();
    detach();
    detach();
    assert.deepEqual(written('10'), ['10'], 'once, however often detach is called');
    stopOther();
    assert.equal(written('11'), undefined);
  });

  it('a write a manager listed before it makes while hearing of another does not hide the first', async () => {
    const channel = `test-${process.pid}-${++channelCount}`;
    // Listed first: hears of each write before tab sync does, and reacts with a write of its own.
    const linker = {
      attach: (controller: Controller) =>
        controller.events.subscribe((event) => {
          if (event.type !== 'action' || event.action.type !== 'response/set') return;
          if (event.action.key.startsWith('GET /todos/'))
            controller.invalidateAll((key) => key === 'GET /todos');
        }),
    };
    const a = setup({ managers: [linker, new TabSyncManager({ channel })] });
    const b = setup({ managers: [new TabSyncManager({ channel })] });
    open.push(a.controller, b.controller);
    a.controller.setResponse(api.getList, {}, [{ id: '2', title: 'two' }]);
    a.controller.setResponse(api.get, { id: '1' }, { id: '1', title: 'one' });
    const shown = () => b.controller.getResponse(api.get, { id: '1' }).data as Todo | undefined;
    await until(() => shown()?.title === 'one', 'tab b has todo 1');
  });

  it('a deletion (INVALID) travels and drops the entity from the other tab’s list', async () => {
    const { a, b, titles } = await twoTabs();
    await loadList(a);
    await until(() => titles(b).length === 2, 'tab b has the list');
    const removed = a.controller.fetch(api.remove, { id: '2' });
    await flush();
    a.server.take('DELETE /todos/2').respond(200, { id: '2' });
    await removed;
    await until(() => titles(b).length === 1, 'b dropped todo 2');
    assert.deepEqual(titles(b), ['one']);
    assert.equal(b.server.calls.length, 0);
  });

  it('a reset travels once, without an echo', async () => {
    const { a, b, titles, counts } = await twoTabs();
    await loadList(a);
    await until(() => titles(b).length === 2, 'tab b has the list');
    b.controller.resetEntireStore();
    await until(() => titles(a).length === 0, 'a was reset too');
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(
      counts.posted.map((message) => (message as { type: string }).type),
      ['state', 'reset'],
    );
  });

  it('a change another tab sent before it heard of this tab’s reset (a logout) is not merged', async () => {
    const { a, b, titles } = await twoTabs();
    await loadList(b); // b's change is on its way to a…
    a.clock.advance(10);
    a.controller.resetEntireStore(); // …when a logs out, before it arrives
    await until(() => b.controller.getState().lastReset > 0, 'b heard of the reset');
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(titles(b), []);
    assert.deepEqual(titles(a), [], 'a holds nothing of the user who logged out');
    assert.deepEqual(a.controller.getState().entities, {});
    // What is fetched after the reset still travels.
    b.clock.advance(20);
    await loadList(b);
    await until(() => titles(a).length === 2, 'a has the list fetched after the reset');
  });

  it('a message that is not a change, or a change that does not fit, is reported and changes nothing', async () => {
    const { a, b, titles } = await twoTabs();
    await loadList(a);
    await until(() => titles(b).length === 2, 'tab b has the list');
    const before = b.controller.getState();
    // Another version of the app, or anything else, on the same channel.
    const outsider = new BroadcastChannel(b.channel);
    const messages: [unknown, RegExp][] = [
      [null, /ignored a message on channel "test-.*" that is not a change \(null\)/],
      ['hello', /that is not a change \("hello"\)/],
      [{ type: 'patch', v: 2 }, /that is not a change \(\{"type":"patch","v":2\}\)/],
      [{ type: 'state', state: null }, /The state at its root is not an object/],
      [
        { type: 'state', state: { entities: { Todo: [{ id: '1' }] } } },
        /entities\["Todo"\] is not/,
      ],
      [
        { type: 'state', state: { entities: { Todo: { '1': null } }, entitiesMeta: {} } },
        /The state at entities\["Todo"\]\["1"\] is not an object/,
      ],
    ];
    const spy = mock.method(console, 'error', () => {});
    try {
      for (const [message] of messages) outsider.postMessage(message);
      // Both tabs hear the outsider: each reports every message once.
      const expected = 2 * messages.length;
      await until(() => spy.mock.callCount() >= expected, 'every message was reported');
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      spy.mock.restore();
    }
    const errors = spy.mock.calls.map((call) => call.arguments);
    outsider.close();
    const texts = errors.map((args) => `${String(args[0])} ${String(args[1])}`);
    assert.equal(texts.length, 2 * messages.length, texts.join('\n'));
    for (const [message, pattern] of messages) {
      const matching = texts.filter((text) => pattern.test(text));
      assert.equal(matching.length, 2, `${JSON.stringify(message)}: ${texts.join('\n')}`);
    }
    assert.equal(b.controller.getState(), before, 'the store is as it was');
    assert.deepEqual(titles(b), ['one', 'two']);
    // The channel still works.
    const update = a.controller.fetch(api.update, { id: '1' }, { title: 'changed' });
    await flush();
    a.server.take('PATCH /todos/1').respond(200, { id: '1', title: 'changed' });
    await update;
    await until(() => titles(b)[0] === 'changed', 'b sees the next change');
  });

  it('an entity structured clone refuses stays in its tab: the rest of the change is shared, reported once', async () => {
    const { a, b, titles } = await twoTabs();
    const deep: Record<string, unknown> = {};
    let level = deep;
    for (let i = 0; i < 10_000; i++) level = level.next = {};
    const errors: unknown[][] = [];
    const spy = mock.method(console, 'error', (...args: unknown[]) => void errors.push(args));
    try {
      // JSON cannot carry it either, so it comes as a write (a push, a process() would give it).
      a.controller.setResponse(api.getList, [
        { id: '1', title: 'one' },
        { id: '2', title: 'two', notes: deep },
        { id: '3', title: 'three' },
      ] as never);
      // Before: the whole change failed to post (the console said so), and tab b got none of it.
      await until(() => titles(b).length === 2, 'tab b has the list without todo 2');
      assert.deepEqual(titles(b), ['one', 'three']);
      a.controller.set(api.get.schema, { id: '1', title: 'one, edited' });
      a.controller.set(api.get.schema, { id: '2', title: 'two, edited', notes: deep });
      await until(() => titles(b)[0] === 'one, edited', 'the next change arrives too');
    } finally {
      spy.mock.restore();
    }
    assert.equal(errors.length, 1, errors.map(String).join('\n'));
    assert.match(
      String(errors[0]![0]),
      /TabSyncManager: Todo 2 could not be shared with the other tabs \(structured clone refused it\); the rest of the change was\./,
    );
    assert.deepEqual(
      (a.controller.getResponse(api.getList).data as Todo[]).map((todo) => todo.title),
      ['one, edited', 'two, edited', 'three'],
      'the tab that fetched keeps it all',
    );
  });

  it('detaching closes the channel and stops listening', async () => {
    const { a, b, counts } = await twoTabs();
    assert.equal(counts.open, 2);
    const listeners = a.controller.events.size;
    a.controller.dispose();
    b.controller.dispose();
    assert.equal(counts.open, 0);
    assert.equal(a.controller.events.size, listeners - 4, 'no manager listens any more');
  });
});
