// OfflineQueueManager against an in-memory storage and Web Locks, a fake server and the real
// Controller (IndexedDB, real locks and reloads are covered by the browser test against the demo).
import { describe, it, mock } from 'node:test';
import { strict as assert } from 'node:assert';
import { OfflineQueueManager } from './offline-queue.js';
import type { OfflineQueueRejection, QueuedMutation } from './offline-queue.js';
import type { PersistStorage } from './storage.js';
import { Item, consoleErrors, flush, memoryStorage, names, prefix } from './test-utils/harness.js';
import { failOnUnhandledRejection, setup } from '../core/controller/test-utils/harness.js';
import { FakeServer } from '../core/controller/test-utils/fake-fetch.js';
import { createResource } from '../core/index.js';

failOnUnhandledRejection();

const Items = createResource({
  urlPrefix: prefix,
  path: '/items/:id',
  schema: Item,
  optimistic: true,
});

/** Web Locks for tabs in one process: one holder per name, the others wait in order. */
function memoryLocks(): LockManager {
  const tails = new Map<string, Promise<unknown>>();
  return {
    request(name: string, work: () => Promise<unknown>) {
      const run = (tails.get(name) ?? Promise.resolve()).then(() => work());
      tails.set(
        name,
        run.catch(() => {}),
      );
      return run;
    },
  } as unknown as LockManager;
}

/**
 * BroadcastChannel for the tabs of one test, in memory: a message reaches the other open channels
 * of its name a task later (setImmediate, which tests that mock setTimeout leave alone).
 */
function memoryChannels(): typeof BroadcastChannel {
  const open = new Set<Channel>();
  class Channel {
    onmessage: ((event: MessageEvent) => void) | null = null;
    constructor(readonly name: string) {
      open.add(this);
    }
    postMessage(data: unknown): void {
      for (const other of open) {
        if (other === this || other.name !== this.name) continue;
        setImmediate(() => {
          if (open.has(other)) other.onmessage?.({ data } as MessageEvent);
        });
      }
    }
    close(): void {
      open.delete(this);
    }
  }
  return Channel as unknown as typeof BroadcastChannel;
}

/**
 * Answers the list read `read` sent (once `wait` has let it reach the server) with item 1 named
 * `one` and item 2 'two', and waits for the read.
 */
async function answerList(
  read: Promise<unknown>,
  server: FakeServer,
  one: string,
  wait: () => Promise<unknown>,
): Promise<void> {
  await wait();
  server.take(`GET ${prefix}/items`).respond(200, [
    { id: '1', name: one },
    { id: '2', name: 'two' },
  ]);
  await read;
}

/** Lets promise chains, storage, locks and the zero retry delays (timers) run. */
async function settle(rounds = 8) {
  for (let i = 0; i < rounds; i++) {
    await flush();
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

/** `settle()` for a test whose setTimeout is mocked: promise chains, storage and locks only. */
async function settleNow(rounds = 8) {
  for (let i = 0; i < rounds; i++) await flush();
}

/** What a test may change in a tab's queue: its tabs' channels, its wait before a retry. */
interface QueueSetup {
  readonly channels?: typeof BroadcastChannel | null;
  readonly retryDelay?: number;
}

function queueOn(
  storage: PersistStorage,
  locks: LockManager | null,
  { channels = null, retryDelay = 0 }: QueueSetup = {},
) {
  return new OfflineQueueManager({
    mutations: {
      'item.create': { endpoint: Items.getList.push, idempotencyHeader: 'Idempotency-Key' },
      'item.update': Items.partialUpdate,
      'item.rename': { endpoint: Items.update, queueOnNetworkError: true },
    },
    storage,
    locks,
    BroadcastChannel: channels,
    retryDelay: () => retryDelay,
  });
}

/** A "tab": a controller on a fake server (shared by tabs when given), holding items 1 and 2. */
async function tab(
  storage: PersistStorage,
  locks: LockManager | null,
  shared?: FakeServer,
  online = true,
  more: QueueSetup = {},
) {
  const queue = queueOn(storage, locks, more);
  const server = shared ?? new FakeServer();
  // Every Idempotency-Key sent, in order.
  const keys: (string | null)[] = [];
  const fetch: typeof globalThis.fetch = (input, init) => {
    if (init?.method && init.method !== 'GET') {
      keys.push(new Headers(init.headers).get('Idempotency-Key'));
    }
    return server.fetch(input, init);
  };
  const { controller } = setup({ managers: [queue], fetch });
  if (!online) controller.offline();
  await answerList(controller.fetch(Items.getList, {}), server, 'one', flush);
  await settle();
  return { controller, server, queue, keys };
}

/** Two tabs of one browser, offline, on one server, hearing each other over a BroadcastChannel. */
async function twoOpenTabs() {
  const storage = memoryStorage();
  const locks = memoryLocks();
  const server = new FakeServer();
  const channels = memoryChannels();
  const first = await tab(storage, locks, server, false, { channels });
  const second = await tab(storage, locks, server, false, { channels });
  return { first, second, server };
}

const stored = (storage: ReturnType<typeof memoryStorage>) =>
  ((storage.data.get('queue:default') as { mutations: QueuedMutation[] } | undefined)?.mutations ??
    []) as QueuedMutation[];

describe('OfflineQueueManager', () => {
  it('keeps mutations made offline, shown at once, and sends them in order once online', async () => {
    const storage = memoryStorage();
    // No Web Locks (as in a browser without them): the order is this tab's own.
    const { controller, server, queue } = await tab(storage, null);
    controller.offline();
    const created = controller.fetch(Items.getList.push, {}, { name: 'three' });
    const updated = controller.fetch(Items.partialUpdate, { id: '1' }, { name: 'one!' });
    await settle();
    assert.deepEqual(names(controller).slice(0, 2), ['one!', 'two']);
    assert.equal(names(controller).length, 3, 'the created item is shown');
    assert.equal(server.waiting.length, 0, 'nothing sent offline');
    assert.equal(queue.pending, 2);
    assert.deepEqual(
      stored(storage).map((m) => m.name),
      ['item.create', 'item.update'],
    );
    // What waits, with what each changes: a view marks the items from it.
    assert.deepEqual(
      queue.waiting.map((m) => [m.name, m.args]),
      [
        ['item.create', [{}, { name: 'three' }]],
        ['item.update', [{ id: '1' }, { name: 'one!' }]],
      ],
    );

    controller.online();
    await settle();
    const create = server.take(`POST ${prefix}/items`);
    assert.equal(server.waiting.length, 0, 'the update waits for the create to be answered');
    create.respond(201, { id: '3', name: 'three' });
    await settle();
    server.take(`PATCH ${prefix}/items/1`).respond(200, { id: '1', name: 'one!' });
    assert.equal((await created).name, 'three');
    assert.equal((await updated).name, 'one!');
    await settle();
    assert.deepEqual(names(controller), ['one!', 'two', 'three']);
    assert.equal(queue.pending, 0);
    assert.deepEqual(queue.waiting, []);
    assert.ok(
      stored(storage).every((m) => m.answer),
      'answers are kept for the other tabs',
    );
    assert.equal(server.calls.filter((c) => c.method !== 'GET').length, 2);
  });

  it('starts online as its Controller does: navigator.onLine false at start does not hold a mutation back', async () => {
    // Some headless and sandboxed browsers report navigator.onLine false while they reach the
    // server: only the Controller's offline() (the window's offline event) holds mutations.
    const had = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
    Object.defineProperty(globalThis, 'navigator', {
      value: { onLine: false },
      configurable: true,
      writable: true,
    });
    try {
      const { controller, server, queue } = await tab(memoryStorage(), memoryLocks());
      assert.equal(controller.isOnline, true);
      const updated = controller.fetch(Items.partialUpdate, { id: '1' }, { name: 'one!' });
      await settle();
      assert.equal(queue.pending, 0, 'sent at once, not queued');
      server.take(`PATCH ${prefix}/items/1`).respond(200, { id: '1', name: 'one!' });
      assert.equal((await updated).name, 'one!');
    } finally {
      if (had) Object.defineProperty(globalThis, 'navigator', had);
      else delete (globalThis as { navigator?: unknown }).navigator;
    }
  });

  it('a queued mutation shows above reads made while it waits, and its answer is newer than them', async () => {
    const storage = memoryStorage();
    const { controller, server } = await tab(storage, memoryLocks(), undefined, false);
    const updated = controller.fetch(Items.partialUpdate, { id: '1' }, { name: 'one!' });
    await settle();
    // The list read again while the edit waits (a reloaded page does this): the server does not
    // have the edit yet, and must not hide it.
    await answerList(controller.refetch(Items.getList, {}), server, 'one', settle);
    assert.deepEqual(names(controller), ['one!', 'two']);

    controller.online();
    await settle();
    server.take(`PATCH ${prefix}/items/1`).respond(200, { id: '1', name: 'one!' });
    await updated;
    await settle();
    assert.deepEqual(names(controller), ['one!', 'two']);
    const committed = controller.getState().entities.Item as Record<string, { name: string }>;
    assert.equal(
      committed['1']!.name,
      'one!',
      'the answer is newer than the read made while it waited',
    );

    // Dated when it was sent, not "above everything": a later read still wins.
    await answerList(controller.refetch(Items.getList, {}), server, 'renamed elsewhere', settle);
    assert.deepEqual(names(controller), ['renamed elsewhere', 'two']);
  });

  it('sends an idempotency key, the same on every try, and keeps the mutation queued after a 5xx or a connection failure', async () => {
    const storage = memoryStorage();
    const { controller, server, keys } = await tab(storage, memoryLocks(), undefined, false);
    const created = controller.fetch(Items.getList.push, {}, { name: 'three' });
    const after = controller.fetch(Items.partialUpdate, { id: '1' }, { name: 'one!' });
    await settle();
    controller.online();
    await settle();
    const first = server.take(`POST ${prefix}/items`);
    first.respond(503, { message: 'busy' });
    await settle();
    const second = server.take(`POST ${prefix}/items`);
    second.fail(new TypeError('Failed to fetch'));
    await settle();
    assert.deepEqual(
      server.waiting.map((r) => r.method),
      ['POST'],
      'the later mutation waits for the one being retried',
    );
    const third = server.take(`POST ${prefix}/items`);
    third.respond(201, { id: '3', name: 'three' });
    assert.equal((await created).name, 'three');
    await settle();
    server.take(`PATCH ${prefix}/items/1`).respond(200, { id: '1', name: 'one!' });
    await after;
    assert.equal(keys.length, 4);
    assert.match(keys[0]!, /^[\w-]{8,}$/);
    assert.deepEqual(keys.slice(0, 3), [keys[0], keys[0], keys[0]], 'one key for the three tries');
    assert.equal(keys[3], null, 'update asks for no key');
    assert.deepEqual(names(controller), ['one!', 'two', 'three']);
  });

  it('a mutation kept queued after a 5xx stays above the reads made while it waits to retry (#38 item 4)', async () => {
    const storage = memoryStorage();
    const server = new FakeServer();
    const queue = new OfflineQueueManager({
      mutations: { 'item.update': Items.partialUpdate },
      storage,
      locks: memoryLocks(),
      BroadcastChannel: null,
      retryDelay: () => 1_500,
    });
    const { controller, clock } = setup({ managers: [queue], fetch: server.fetch });
    await answerList(controller.fetch(Items.getList, {}), server, 'one', flush);
    controller.offline();
    const updated = controller.fetch(Items.partialUpdate, { id: '1' }, { name: 'one!' });
    await settle();
    clock.advance(1_000);
    // The queue's wait before a retry is on the page's timers: faked here, flushed by hand.
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      controller.online();
      await settleNow();
      server.take(`PATCH ${prefix}/items/1`).respond(503, { message: 'busy' });
      await settleNow();
      assert.equal(queue.pending, 1, 'kept queued after the 5xx');
      assert.deepEqual(names(controller), ['one!', 'two']);

      // The list read again during the backoff: the server has not applied the edit.
      clock.advance(500);
      await answerList(controller.refetch(Items.getList, {}), server, 'one', settleNow);
      assert.equal(queue.pending, 1);
      assert.deepEqual(names(controller), ['one!', 'two'], 'the waiting edit stays above the read');

      mock.timers.tick(1_500);
      await settleNow();
      clock.advance(100);
      server.take(`PATCH ${prefix}/items/1`).respond(200, { id: '1', name: 'one!' });
      assert.equal((await updated).name, 'one!');
      await settleNow();
      assert.equal(queue.pending, 0);
      assert.deepEqual(names(controller), ['one!', 'two']);
    } finally {
      mock.timers.reset();
    }
    // Sent, it is dated when its last try went out: a later read wins as usual.
    clock.advance(100);
    await answerList(controller.refetch(Items.getList, {}), server, 'renamed elsewhere', settle);
    assert.deepEqual(names(controller), ['renamed elsewhere', 'two']);
  });

  it('after a reload shows the queue again, and sends it once online', async () => {
    const storage = memoryStorage();
    const locks = memoryLocks();
    const before = await tab(storage, locks, undefined, false);
    void before.controller
      .fetch(Items.partialUpdate, { id: '2' }, { name: 'two!' })
      .catch(() => {});
    await settle();
    before.controller.dispose();

    // The next page: a new Controller and manager over the same storage, offline again.
    const after = await tab(storage, locks, undefined, false);
    assert.deepEqual(names(after.controller), ['one', 'two!'], 'shown again from the queue');
    assert.equal(after.queue.pending, 1);
    assert.equal(after.server.waiting.length, 0);
    after.controller.online();
    await settle();
    after.server.take(`PATCH ${prefix}/items/2`).respond(200, { id: '2', name: 'two!' });
    await settle();
    assert.equal(after.queue.pending, 0);
    assert.deepEqual(names(after.controller), ['one', 'two!']);
  });

  it('two tabs over one queue: the server gets each mutation once, and both stores end the same', async () => {
    const storage = memoryStorage();
    const locks = memoryLocks();
    const server = new FakeServer();
    const first = await tab(storage, locks, server, false);
    void first.controller.fetch(Items.partialUpdate, { id: '1' }, { name: 'A' }).catch(() => {});
    void first.controller.fetch(Items.partialUpdate, { id: '2' }, { name: 'B' }).catch(() => {});
    await settle();
    // A second tab opens while the first still holds its queue.
    const second = await tab(storage, locks, server, false);
    assert.deepEqual(names(second.controller), ['A', 'B']);

    first.controller.online();
    second.controller.online();
    await settle();
    server.take(`PATCH ${prefix}/items/1`).respond(200, { id: '1', name: 'A' });
    await settle();
    server.take(`PATCH ${prefix}/items/2`).respond(200, { id: '2', name: 'B' });
    await settle(16);
    assert.equal(server.waiting.length, 0, 'the second tab replays the answers, it sends nothing');
    const patches = server.calls.filter((c) => c.method === 'PATCH').map((c) => c.url);
    assert.deepEqual(patches, [`${prefix}/items/1`, `${prefix}/items/2`]);
    assert.deepEqual(names(first.controller), ['A', 'B']);
    assert.deepEqual(names(second.controller), ['A', 'B']);
    assert.equal(first.queue.pending + second.queue.pending, 0);
  });

  it('a tab already open shows a mutation another tab queues, counts it, and drops it once that tab sent it (#38 item 5)', async () => {
    const { first, second, server } = await twoOpenTabs();
    const updated = first.controller.fetch(Items.partialUpdate, { id: '1' }, { name: 'A' });
    await settle();
    assert.deepEqual(names(second.controller), ['A', 'two'], 'its optimistic update shows');
    assert.equal(second.queue.pending, 1, 'counted where it is shown');
    assert.deepEqual(names(first.controller), ['A', 'two']);
    assert.equal(first.queue.pending, 1);

    // Only the first tab comes back online: the second replays its answer, offline as it is.
    first.controller.online();
    await settle();
    server.take(`PATCH ${prefix}/items/1`).respond(200, { id: '1', name: 'A!' });
    assert.equal((await updated).name, 'A!');
    await settle();
    assert.equal(second.queue.pending, 0);
    assert.equal(first.queue.pending, 0);
    assert.deepEqual(names(second.controller), ['A!', 'two'], 'the answer, not the guess');
    assert.deepEqual(names(first.controller), ['A!', 'two']);
    assert.equal(server.calls.filter((call) => call.method === 'PATCH').length, 1);
    assert.deepEqual(second.keys, [], 'the second tab sent nothing');

    // The other way: what the still offline second tab queues, the first sends (once) and both
    // show as the server answered.
    const renamed = second.controller.fetch(Items.partialUpdate, { id: '2' }, { name: 'B' });
    await settle();
    assert.equal(first.queue.pending, 1);
    server.take(`PATCH ${prefix}/items/2`).respond(200, { id: '2', name: 'B!' });
    assert.equal((await renamed).name, 'B!');
    await settle();
    assert.equal(server.waiting.length, 0);
    assert.equal(server.calls.filter((call) => call.method === 'PATCH').length, 2);
    assert.deepEqual(second.keys, [], 'the second tab still sent nothing');
    assert.deepEqual(names(first.controller), ['A!', 'B!']);
    assert.deepEqual(names(second.controller), ['A!', 'B!']);
    assert.equal(first.queue.pending + second.queue.pending, 0);
    first.controller.dispose();
    second.controller.dispose();
  });

  it('a tab waiting to try again replays at once the answer another tab got (#38 item 5)', async () => {
    const storage = memoryStorage();
    const locks = memoryLocks();
    const server = new FakeServer();
    const more = { channels: memoryChannels(), retryDelay: 60_000 };
    const first = await tab(storage, locks, server, false, more);
    const second = await tab(storage, locks, server, false, more);
    const updated = first.controller.fetch(Items.partialUpdate, { id: '1' }, { name: 'A' });
    await settle();
    assert.equal(second.queue.pending, 1);
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      second.controller.online();
      await settleNow();
      server.take(`PATCH ${prefix}/items/1`).respond(503, { message: 'busy' });
      await settleNow();
      assert.equal(second.queue.pending, 1, 'the second tab waits a minute to try again');

      first.controller.online();
      await settleNow();
      server.take(`PATCH ${prefix}/items/1`).respond(200, { id: '1', name: 'A!' });
      assert.equal((await updated).name, 'A!');
      await settleNow(16);
      assert.equal(second.queue.pending, 0, 'replayed without waiting out its minute');
      assert.deepEqual(names(second.controller), ['A!', 'two']);
      assert.equal(server.calls.filter((call) => call.method === 'PATCH').length, 2);
      assert.equal(server.waiting.length, 0);
    } finally {
      mock.timers.reset();
      first.controller.dispose();
      second.controller.dispose();
    }
  });

  it('a tab already open rolls back a mutation another tab queued when the server refuses it (#38 item 5)', async () => {
    const { first, second, server } = await twoOpenTabs();
    const refused = first.controller.fetch(Items.partialUpdate, { id: '1' }, { name: '' });
    refused.catch(() => {});
    await settle();
    assert.deepEqual(names(second.controller), ['', 'two']);
    assert.equal(second.queue.pending, 1);

    await consoleErrors(async () => {
      first.controller.online();
      await settle();
      server.take(`PATCH ${prefix}/items/1`).respond(422, { message: 'name must not be empty' });
      await assert.rejects(refused, { status: 422 });
      await settle();
    });
    assert.equal(second.queue.pending, 0);
    assert.deepEqual(names(second.controller), ['one', 'two'], 'rolled back here too');
    assert.deepEqual(names(first.controller), ['one', 'two']);
    assert.equal(server.calls.filter((call) => call.method === 'PATCH').length, 1);
    first.controller.dispose();
    second.controller.dispose();
  });

  it('a mutation refused (4xx) is rolled back alone and reported; the next one still goes', async () => {
    const storage = memoryStorage();
    const { controller, server, queue } = await tab(storage, memoryLocks(), undefined, false);
    const rejected: OfflineQueueRejection[] = [];
    queue.addEventListener('rejected', (event) =>
      rejected.push((event as CustomEvent<OfflineQueueRejection>).detail),
    );
    const refused = controller.fetch(Items.partialUpdate, { id: '1' }, { name: '' });
    const accepted = controller.fetch(Items.partialUpdate, { id: '2' }, { name: 'two!' });
    await settle();
    assert.deepEqual(names(controller), ['', 'two!']);
    const errors: unknown[] = [];
    const error = console.error;
    console.error = (...args: unknown[]) => void errors.push(args);
    try {
      controller.online();
      await settle();
      server.take(`PATCH ${prefix}/items/1`).respond(422, { message: 'name must not be empty' });
      await assert.rejects(refused, { status: 422 });
      await settle();
      server.take(`PATCH ${prefix}/items/2`).respond(200, { id: '2', name: 'two!' });
      await accepted;
    } finally {
      console.error = error;
    }
    assert.deepEqual(names(controller), ['one', 'two!'], 'only the refused one went back');
    assert.equal(rejected.length, 1);
    assert.equal(rejected[0]!.mutation.name, 'item.update');
    assert.deepEqual(rejected[0]!.mutation.args, [{ id: '1' }, { name: '' }]);
    assert.equal(errors.length, 1, 'told in development');
    assert.match(String((errors[0] as unknown[])[0]), /refused the queued item\.update/);
  });

  it('queues a mutation that opts in when it cannot reach the server; leaves others alone', async () => {
    const storage = memoryStorage();
    const { controller, server, queue } = await tab(storage, memoryLocks());
    const renamed = controller.fetch(Items.update, { id: '1' }, { id: '1', name: 'uno' });
    await settle();
    server.take(`PUT ${prefix}/items/1`).fail(new TypeError('Failed to fetch'));
    await settle();
    assert.equal(queue.pending, 1, 'queued after the connection failure');
    assert.deepEqual(names(controller), ['uno', 'two'], 'its optimistic update shown again');
    server.take(`PUT ${prefix}/items/1`).respond(200, { id: '1', name: 'uno' });
    assert.equal((await renamed).name, 'uno');

    // Not registered: the Controller's own behaviour, rejected as usual.
    const deleted = controller.fetch(Items.delete, { id: '2' });
    await settle();
    server.take(`DELETE ${prefix}/items/2`).fail(new TypeError('Failed to fetch'));
    await assert.rejects(deleted);
    assert.equal(queue.pending, 0);
  });

  it('refuses a mutation entry that is not a mutation endpoint, naming it', () => {
    assert.throws(
      () =>
        new OfflineQueueManager({
          mutations: { 'item.get': Items.get },
          storage: memoryStorage(),
        }),
      /mutations\.item\.get is not a mutation endpoint/,
    );
  });

  it('lets go of the Controller when detached: fetch is its own again', async () => {
    const storage = memoryStorage();
    const queue = queueOn(storage, null);
    const { controller } = setup({ managers: [queue] });
    assert.notEqual(controller.fetch, Object.getPrototypeOf(controller).fetch);
    controller.dispose();
    assert.equal(controller.fetch, Object.getPrototypeOf(controller).fetch);
  });
});
