import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { applyPushMessage } from './push-message.js';
import { PushManager } from './push.js';
import { eventSource } from './event-source.js';
import type { PushHandlers, PushSource } from './push.js';
import type { Timers } from '../core/index.js';
import {
  Item,
  ItemResource,
  consoleErrors,
  flush,
  loaded,
  names,
  prefix,
} from './test-utils/harness.js';
import { failOnUnhandledRejection } from '../core/controller/test-utils/harness.js';

failOnUnhandledRejection();

/** A source the test drives: every connection's handlers, and whether it was closed. */
function fakeSource() {
  const connections: { handlers: PushHandlers; closed: boolean }[] = [];
  const source: PushSource = (handlers) => {
    const connection = { handlers, closed: false };
    connections.push(connection);
    return { close: () => void (connection.closed = true) };
  };
  return {
    source,
    connections,
    get last() {
      return connections[connections.length - 1]!;
    },
  };
}

/**
 * A PushManager on a fake source with a 100 ms first delay and `maxDelay`, and `reconnect()`:
 * advances the clock 10 ms at a time until the manager connects again, and returns the wait.
 */
async function backoff(maxDelay: number) {
  const { controller, clock } = await loaded();
  const fake = fakeSource();
  const detach = new PushManager({
    source: fake.source,
    entities: { Item },
    initialDelay: 100,
    maxDelay,
    timers: clock.timers,
  }).attach(controller);
  const reconnect = () => {
    const count = fake.connections.length;
    let waited = 0;
    while (fake.connections.length === count) {
      clock.advance(10);
      waited += 10;
    }
    return waited;
  };
  return { controller, clock, fake, detach, reconnect };
}

describe('applyPushMessage', () => {
  it('an upsert updates every read that shows the entity, with no request', async () => {
    const { controller, server } = await loaded();
    const before = controller.getResponse(ItemResource.get, { id: '1' }).data;
    applyPushMessage(
      controller,
      { Item },
      {
        type: 'upsert',
        entity: 'Item',
        data: { id: '1', name: 'pushed' },
      },
    );
    assert.deepEqual(names(controller), ['pushed', 'two']);
    const after = controller.getResponse(ItemResource.get, { id: '1' }).data as Item;
    assert.notEqual(after, before);
    assert.equal(after.name, 'pushed');
    await flush();
    assert.equal(server.calls.length, 2, 'only the two first reads were requested');
  });

  it('a delete marks the entity INVALID: lists drop it', async () => {
    const { controller } = await loaded();
    applyPushMessage(controller, { Item }, { type: 'delete', entity: 'Item', pk: '2' });
    assert.deepEqual(names(controller), ['one']);
  });

  it('an entity missing from the registry, or an unknown type, throws a message that says so', async () => {
    const { controller } = await loaded();
    assert.throws(
      () => applyPushMessage(controller, { Item }, { type: 'upsert', entity: 'User', data: {} }),
      /names entity "User", which the registry does not have \(it has: Item\)/,
    );
    assert.throws(
      () => applyPushMessage(controller, { Item }, { type: 'move' } as never),
      /Unknown push message type "move"/,
    );
    assert.deepEqual(names(controller), ['one', 'two']);
  });

  it('a delete whose pk is missing, null or not a string or number throws, changing nothing', async () => {
    const { controller } = await loaded();
    const before = controller.getState();
    for (const pk of [undefined, null, { id: '1' }, ['1'], true]) {
      assert.throws(
        () =>
          applyPushMessage(controller, { Item }, { type: 'delete', entity: 'Item', pk } as never),
        /Push message deleting Item has no usable pk \(got .*\): expected a string or a number/,
      );
    }
    assert.equal(
      controller.getState(),
      before,
      'no "undefined" or "[object Object]" entity stored',
    );
    assert.deepEqual(names(controller), ['one', 'two']);
  });
});

describe('PushManager', () => {
  it('applies messages from its source and remembers the last id', async () => {
    const { controller, clock } = await loaded();
    const fake = fakeSource();
    const manager = new PushManager({ source: fake.source, entities: { Item } });
    const detach = manager.attach(controller);
    assert.equal(fake.connections.length, 1);
    assert.equal(fake.last.handlers.lastEventId, undefined);
    fake.last.handlers.message({
      type: 'upsert',
      entity: 'Item',
      data: { id: '2', name: 'deux' },
      id: 'e-7',
    });
    clock.advance(0);
    assert.deepEqual(names(controller), ['one', 'deux']);
    assert.equal(manager.lastEventId, 'e-7');
    detach();
  });

  it('a numeric message id (a WebSocket server counting its messages) is the id to resume after', async () => {
    const { controller, clock } = await loaded();
    const fake = fakeSource();
    const manager = new PushManager({
      source: fake.source,
      entities: { Item },
      timers: clock.timers,
    });
    const detach = manager.attach(controller);
    // JSON.parse gives what the server sent: the type says string, a socket's JSON may say 41.
    const message = (id: unknown) => {
      fake.last.handlers.message({ type: 'delete', entity: 'Item', pk: '9', id } as never);
      clock.advance(0);
    };
    message(41);
    assert.equal(manager.lastEventId, '41');
    message(0);
    assert.equal(manager.lastEventId, '0', 'zero is an id too');
    // Not an id: the last one stays.
    for (const bad of [Number.NaN, Infinity, null, {}, true]) message(bad);
    assert.equal(manager.lastEventId, '0');
    fake.last.handlers.error();
    clock.advance(1000);
    assert.equal(fake.connections.length, 2);
    assert.equal(fake.last.handlers.lastEventId, '0', 'the new connection resumes after it');
    detach();
  });

  it('a message it cannot apply is reported on the console; the stream goes on', async () => {
    const { controller, clock } = await loaded();
    const fake = fakeSource();
    const detach = new PushManager({ source: fake.source, entities: { Item } }).attach(controller);
    const errors = await consoleErrors(() => {
      fake.last.handlers.message({ type: 'upsert', entity: 'Nope', data: {}, id: '1' });
      clock.advance(0);
    });
    assert.equal(errors.length, 1);
    assert.match(
      String(errors[0]![0]),
      /PushManager: pushed message 1 \(upsert Nope\) was not applied/,
    );
    assert.match(String(errors[0]![0]), /registry does not have/);
    // Data that does not fit the entity: named by event and entity, and the store keeps its item.
    const bad = await consoleErrors(() => {
      fake.last.handlers.message({
        type: 'upsert',
        entity: 'Item',
        data: { name: 'no id' },
        id: '7',
      });
      clock.advance(0);
    });
    assert.equal(bad.length, 1);
    assert.match(String(bad[0]![0]), /pushed message 7 \(upsert Item\) was not applied/);
    assert.match(String(bad[0]![0]), /Item/);
    assert.deepEqual(names(controller), ['one', 'two']);
    fake.last.handlers.message({ type: 'delete', entity: 'Item', pk: '1', id: '2' });
    clock.advance(0);
    assert.deepEqual(names(controller), ['two']);
    detach();
  });

  it('a null or non-object message is reported; nothing is thrown at the source and the stream goes on', async () => {
    const { controller, clock } = await loaded();
    const fake = fakeSource();
    const manager = new PushManager({ source: fake.source, entities: { Item } });
    const detach = manager.attach(controller);
    fake.last.handlers.message({
      type: 'upsert',
      entity: 'Item',
      data: { id: '1', name: 'a' },
      id: '1',
    });
    for (const message of [null, undefined, 5, 'text']) {
      const errors = await consoleErrors(() => {
        fake.last.handlers.message(message as never);
        clock.advance(0);
      });
      assert.equal(errors.length, 1);
      assert.match(
        String(errors[0]![0]),
        /pushed message .* was not applied \(A push message must be an object/,
      );
    }
    assert.equal(manager.lastEventId, '1');
    fake.last.handlers.message({
      type: 'upsert',
      entity: 'Item',
      data: { id: '1', name: 'b' },
      id: '2',
    });
    clock.advance(0);
    assert.deepEqual(names(controller), ['b', 'two']);
    assert.equal(manager.lastEventId, '2');
    detach();
  });

  it('reconnects with exponential backoff, resuming after the last id; open starts over', async () => {
    const { controller, clock, fake, detach, reconnect } = await backoff(350);
    fake.last.handlers.open();
    fake.last.handlers.message({ type: 'delete', entity: 'Item', pk: '2', id: 'a-1' });
    fake.last.handlers.error();
    assert.equal(fake.connections[0]!.closed, true, 'the lost connection is closed');
    const delays: number[] = [];
    for (let attempt = 0; attempt < 4; attempt++) {
      delays.push(reconnect());
      assert.equal(fake.last.handlers.lastEventId, 'a-1');
      fake.last.handlers.error();
    }
    assert.deepEqual(delays, [100, 200, 350, 350]);
    clock.advance(350);
    fake.last.handlers.open();
    fake.last.handlers.error();
    const count = fake.connections.length;
    clock.advance(100);
    assert.equal(fake.connections.length, count + 1, 'after an open, the first delay again');
    // A handler of a closed connection changes nothing.
    fake.connections[0]!.handlers.message({ type: 'delete', entity: 'Item', pk: '1' });
    assert.deepEqual(names(controller), ['one']);
    detach();
  });

  it('a server that accepts and at once closes gets ever longer waits, until a connection stays up', async () => {
    const { clock, fake, detach, reconnect } = await backoff(1000);
    /** Each connection opens, then drops at once; the wait before the next one. */
    const flap = () => {
      fake.last.handlers.open();
      fake.last.handlers.error();
      return reconnect();
    };
    const delays = Array.from({ length: 6 }, flap);
    assert.deepEqual(delays, [100, 200, 400, 800, 1000, 1000]);
    // Up for 5 s: the drops are forgotten, and a drop after that waits the first delay.
    fake.last.handlers.open();
    clock.advance(5000);
    assert.equal(flap(), 100);
    // An open while the timer that says "stable" runs starts no second one.
    fake.last.handlers.open();
    const timers = clock.pending;
    fake.last.handlers.open();
    assert.equal(clock.pending, timers);
    detach();
    assert.equal(clock.pending, timers - 1, 'detach stops the stable timer too');
  });

  it('after a gap, refetches what is shown, invalidates the rest, and forgets the last id', async () => {
    const { controller, server, clock } = await loaded();
    const fake = fakeSource();
    const detach = new PushManager({
      source: fake.source,
      entities: { Item },
      timers: clock.timers,
    }).attach(controller);
    const unsubscribe = controller.subscribe(ItemResource.getList, {});
    fake.last.handlers.message({ type: 'delete', entity: 'Item', pk: '9', id: 'x-1' });
    fake.last.handlers.message({ type: 'gap' });
    clock.advance(0);
    await flush();
    assert.deepEqual(
      server.waiting.map((request) => `${request.method} ${request.url}`),
      [`GET ${prefix}/items`],
      'the shown list is fetched again; nothing else',
    );
    assert.deepEqual(names(controller), ['one', 'two'], 'the shown list stays while it refreshes');
    assert.equal(
      controller.getResponse(ItemResource.get, { id: '1' }).expiryStatus,
      'invalid',
      'what nobody shows is fetched when next shown',
    );
    server.take().respond(200, [{ id: '1', name: 'one' }]);
    await flush();
    assert.deepEqual(names(controller), ['one']);
    fake.last.handlers.error();
    clock.advance(1000);
    assert.equal(fake.last.handlers.lastEventId, undefined);
    unsubscribe();
    detach();
  });

  it('detach closes the connection and cancels a pending reconnect', async () => {
    const { controller, clock } = await loaded();
    const fake = fakeSource();
    const detach = new PushManager({
      source: fake.source,
      entities: { Item },
      timers: clock.timers,
    }).attach(controller);
    const timersBefore = clock.pending;
    fake.last.handlers.error();
    assert.equal(clock.pending, timersBefore + 1);
    detach();
    assert.equal(clock.pending, timersBefore);
    clock.advance(60_000);
    assert.equal(fake.connections.length, 1);
    const again = new PushManager({ source: fake.source, entities: { Item } }).attach(controller);
    again();
    assert.equal(fake.last.closed, true);
    assert.equal(controller.events.size, 3, 'only the built-in managers listen');
  });

  it('after detach, a late call from the connection it closed changes nothing', async () => {
    // A source whose close is not instant (a socket with a message queued, a worker's port)
    // may still call the handlers it was given.
    const { controller, clock } = await loaded();
    const fake = fakeSource();
    const push = new PushManager({ source: fake.source, entities: { Item }, timers: clock.timers });
    const detach = push.attach(controller);
    fake.last.handlers.message({ type: 'delete', entity: 'Item', pk: '9', id: 'a-1' });
    clock.advance(0);
    const { handlers } = fake.last;
    detach();
    const before = controller.getState();
    const timers = clock.pending;
    handlers.open();
    handlers.message({
      type: 'upsert',
      entity: 'Item',
      data: { id: '1', name: 'late' },
      id: 'a-2',
    });
    handlers.message({ type: 'gap' });
    assert.deepEqual(names(controller), ['one', 'two']);
    assert.equal(controller.getState(), before, 'the store is as detach left it');
    assert.equal(push.lastEventId, 'a-1', 'a re-attach resumes after what was applied');
    assert.equal(clock.pending, timers, 'no timer is left running');
    handlers.error();
    assert.equal(clock.pending, timers, 'no reconnect is scheduled');
    assert.equal(fake.connections.length, 1);
  });
});

/** Timers that run only when the test says, one task at a time, in the order they were set. */
function tasks() {
  const queue = new Map<number, () => void>();
  let next = 0;
  return {
    timers: {
      setTimeout: (callback: () => void) => {
        queue.set(++next, callback);
        return next;
      },
      clearTimeout: (handle: unknown) => void queue.delete(handle as number),
    },
    get pending() {
      return queue.size;
    },
    /** Runs the oldest pending task. */
    runNext() {
      const [id, callback] = queue.entries().next().value!;
      queue.delete(id);
      callback();
    },
  };
}

describe('PushManager: messages that arrive together', () => {
  /** A loaded store, a PushManager on a fake source, and every commit's actions. */
  async function burst(options: Parameters<typeof loaded>[0] & { timers?: Timers } = {}) {
    const { timers, ...controllerOptions } = options;
    const harness = await loaded(controllerOptions);
    const { controller, clock } = harness;
    const fake = fakeSource();
    const push = new PushManager({
      source: fake.source,
      entities: { Item },
      timers: timers ?? clock.timers,
    });
    const detach = push.attach(controller);
    const commits: string[][] = [];
    controller.addListener(({ actions }) => commits.push(actions.map((action) => action.type)));
    const upsert = (id: string, name: string, eventId: string) =>
      fake.last.handlers.message({
        type: 'upsert',
        entity: 'Item',
        data: { id, name },
        id: eventId,
      });
    return { ...harness, fake, push, detach, commits, upsert };
  }

  it('a burst delivered in one task lands in one commit, in order, after the task', async () => {
    const { controller, clock, push, detach, commits, upsert } = await burst();
    for (let i = 0; i < 200; i++) upsert(i % 2 ? '2' : '1', `n-${i}`, `b-${i}`);
    assert.equal(commits.length, 0, 'nothing is applied while the task that delivers runs');
    assert.deepEqual(names(controller), ['one', 'two']);
    assert.equal(push.lastEventId, undefined, 'the id is of a message applied, none yet');
    clock.advance(0);
    assert.equal(commits.length, 1, 'one commit for the whole burst');
    assert.equal(commits[0]!.length, 200, 'every message is in it');
    assert.deepEqual(names(controller), ['n-198', 'n-199'], 'the last value of each item wins');
    assert.equal(push.lastEventId, 'b-199');
    detach();
  });

  it('a message that cannot be applied is reported alone: the others of its burst land', async () => {
    const { controller, clock, fake, push, detach, commits, upsert } = await burst();
    const errors = await consoleErrors(() => {
      upsert('1', 'first', '1');
      fake.last.handlers.message({ type: 'upsert', entity: 'Nope', data: {}, id: '2' });
      fake.last.handlers.message({ type: 'upsert', entity: 'Item', data: { name: 'x' }, id: '3' });
      fake.last.handlers.message(null as never);
      fake.last.handlers.message({ type: 'delete', entity: 'Item', pk: '2', id: '4' });
      clock.advance(0);
    });
    assert.deepEqual(
      errors.map((call) => /pushed message (\S+)/.exec(String(call[0]))?.[1]),
      ['2', '3', 'null'],
      'each bad message is reported once',
    );
    assert.deepEqual(names(controller), ['first'], 'the good ones before and after it land');
    assert.deepEqual(commits, [['entities/set', 'entities/set']], 'in one commit');
    assert.equal(push.lastEventId, '4');
    detach();
  });

  it('a gap inside a burst keeps its place: updates before it, the refetch, updates after', async () => {
    const { controller, clock, server, push, detach, commits, upsert, fake } = await burst();
    const unsubscribe = controller.subscribe(ItemResource.getList, {});
    upsert('1', 'before', 'g-1');
    fake.last.handlers.message({ type: 'gap' });
    upsert('2', 'after', 'g-2');
    clock.advance(0);
    assert.deepEqual(commits, [['entities/set', 'invalidate', 'entities/set']]);
    assert.equal(push.lastEventId, 'g-2', 'the id of the message after the gap');
    await flush();
    assert.deepEqual(
      server.waiting.map((request) => `${request.method} ${request.url}`),
      [`GET ${prefix}/items`],
      'the shown list is fetched again',
    );
    upsert('1', 'again', 'g-3');
    fake.last.handlers.message({ type: 'reset' });
    clock.advance(0);
    assert.equal(push.lastEventId, undefined, 'a gap or reset last: no id to resume after');
    fake.last.handlers.error();
    clock.advance(1000);
    assert.equal(fake.last.handlers.lastEventId, undefined);
    server.take().respond(200, [{ id: '1', name: 'one' }]);
    await flush();
    unsubscribe();
    detach();
  });

  it('a long burst is applied in slices, each its own commit and task; the id follows what is applied', async () => {
    // The Controller's clock moves 1 ms each time it is read: a slice ends after SLICE ms of it.
    let now = 0;
    const queue = tasks();
    const { controller, push, detach, commits, upsert } = await burst({
      now: () => ++now,
      timers: queue.timers,
    });
    const ids = Array.from({ length: 30 }, (_, i) => `s-${i}`);
    ids.forEach((id, i) => upsert(i % 2 ? '2' : '1', id, id));
    assert.equal(queue.pending, 1, 'one timer for the burst');
    queue.runNext();
    const first = commits[0]!.length;
    assert.equal(commits.length, 1);
    assert.ok(first > 0 && first < 30, `a first slice of ${first} messages`);
    assert.equal(push.lastEventId, ids[first - 1], 'the id of the last message applied');
    assert.equal(names(controller).includes(ids[first - 1]!), true);
    assert.equal(queue.pending, 1, 'the rest waits for the next task');
    let runs = 1;
    while (queue.pending > 0) {
      queue.runNext();
      runs++;
    }
    assert.ok(runs > 2, 'more than two slices');
    assert.equal(commits.length, runs, 'one commit per slice');
    assert.equal(commits.flat().length, 30, 'every message once');
    assert.deepEqual(names(controller), ['s-28', 's-29']);
    assert.equal(push.lastEventId, 's-29');
    detach();
  });

  it('a connection that drops with messages queued: they land first; the next one resumes after them', async () => {
    let now = 0;
    const queue = tasks();
    const { controller, fake, push, detach, commits, upsert } = await burst({
      now: () => ++now,
      timers: queue.timers,
    });
    for (let i = 0; i < 30; i++) upsert(i % 2 ? '2' : '1', `s-${i}`, `s-${i}`);
    queue.runNext();
    fake.last.handlers.error();
    assert.equal(fake.connections.length, 1);
    // The rest of the burst and the reconnect, in the order they were scheduled.
    while (fake.connections.length === 1) queue.runNext();
    assert.notEqual(push.lastEventId, 's-29', 'some of the burst is still queued');
    assert.equal(fake.last.handlers.lastEventId, 's-29', 'what is queued will land: no replay');
    upsert('1', 'new', 'n-1');
    while (queue.pending > 0) queue.runNext();
    assert.equal(commits.flat().length, 31, 'every message once');
    assert.deepEqual(names(controller), ['new', 's-29'], 'the new connection after the old one');
    assert.equal(push.lastEventId, 'n-1');
    detach();
  });

  it('detach drops what is queued: the store stays, the id is the last applied, a re-attach resumes there', async () => {
    const { controller, clock, fake, push, detach, commits, upsert } = await burst();
    upsert('1', 'applied', 'a-1');
    clock.advance(0);
    const timers = clock.pending;
    upsert('1', 'queued', 'a-2');
    upsert('2', 'queued', 'a-3');
    assert.equal(clock.pending, timers + 1);
    const before = controller.getState();
    detach();
    assert.equal(clock.pending, timers, 'the flush timer is cleared');
    clock.advance(60_000);
    assert.equal(controller.getState(), before, 'nothing queued lands after detach');
    assert.equal(commits.length, 1);
    assert.equal(push.lastEventId, 'a-1');
    const again = push.attach(controller);
    assert.equal(fake.last.handlers.lastEventId, 'a-1', 'the server sends a-2 and a-3 again');
    again();
  });

  it('a listener that detaches the manager while told of a slice ends the burst there', async () => {
    let now = 0;
    const queue = tasks();
    const { controller, push, detach, commits, upsert } = await burst({
      now: () => ++now,
      timers: queue.timers,
    });
    controller.addListener(() => detach());
    for (let i = 0; i < 30; i++) upsert('1', `s-${i}`, `s-${i}`);
    queue.runNext();
    assert.equal(commits.length, 1);
    assert.equal(queue.pending, 0, 'no further slice is scheduled');
    assert.equal(push.lastEventId, `s-${commits[0]!.length - 1}`);
  });

  it('a message handed over while a slice is told of waits with the rest, on one timer', async () => {
    let now = 0;
    const queue = tasks();
    const { controller, push, detach, commits, upsert } = await burst({
      now: () => ++now,
      timers: queue.timers,
    });
    // A source that delivers from inside a store listener (a worker port, a test double).
    let echoed = false;
    controller.addListener(() => {
      if (!echoed) upsert('2', 'echo', 'echo');
      echoed = true;
    });
    for (let i = 0; i < 30; i++) upsert('1', `s-${i}`, `s-${i}`);
    queue.runNext();
    assert.equal(queue.pending, 1, 'one timer for what is left, the echo included');
    while (queue.pending > 0) queue.runNext();
    assert.equal(commits.flat().length, 31);
    assert.deepEqual(names(controller), ['s-29', 'echo']);
    assert.equal(push.lastEventId, 'echo', 'received last, applied last');
    detach();
    assert.equal(queue.pending, 0);
  });
});

describe('eventSource', () => {
  /** A stand-in for the browser's EventSource: the test fires its events. */
  function fakeEventSources() {
    const opened: FakeEventSource[] = [];
    class FakeEventSource {
      onopen: (() => void) | null = null;
      onerror: (() => void) | null = null;
      onmessage: ((event: { data: string; lastEventId: string }) => void) | null = null;
      closed = false;
      constructor(readonly url: string) {
        opened.push(this);
      }
      close() {
        this.closed = true;
      }
    }
    return { opened, EventSource: FakeEventSource as unknown as typeof EventSource };
  }

  it('an event that is not JSON, or JSON null, is reported with the URL and event id; the stream goes on', async () => {
    const { controller, clock } = await loaded();
    const fake = fakeEventSources();
    const manager = new PushManager({
      source: eventSource('/api/events', { EventSource: fake.EventSource }),
      entities: { Item },
      timers: clock.timers,
    });
    const detach = manager.attach(controller);
    const stream = fake.opened[0]!;
    stream.onopen!();
    const errors = await consoleErrors(() => {
      stream.onmessage!({ data: '{"type":"upsert",', lastEventId: 'e-1' });
      stream.onmessage!({ data: 'null', lastEventId: 'e-2' });
      clock.advance(0);
    });
    assert.equal(errors.length, 2);
    assert.match(
      String(errors[0]![0]),
      /eventSource: \/api\/events sent an event \(id e-1\) that is not JSON; it was skipped/,
    );
    assert.match(String(errors[1]![0]), /pushed message null was not applied/);
    stream.onmessage!({
      data: JSON.stringify({ type: 'upsert', entity: 'Item', data: { id: '1', name: 'live' } }),
      lastEventId: 'e-3',
    });
    clock.advance(0);
    assert.deepEqual(names(controller), ['live', 'two']);
    assert.equal(manager.lastEventId, 'e-3');
    // Dropped: closed, and the next connection resumes after the last id applied.
    stream.onerror!();
    assert.equal(stream.closed, true);
    clock.advance(1000);
    assert.equal(fake.opened.length, 2);
    assert.equal(fake.opened[1]!.url, '/api/events?lastEventId=e-3');
    detach();
    assert.equal(fake.opened[1]!.closed, true);
  });

  it('an event that is not JSON is reported without the query of the URL (it may hold a token)', async () => {
    const { controller, clock } = await loaded();
    const fake = fakeEventSources();
    // EventSource cannot send headers: a token in the query is how many streams are opened.
    const url = 'https://api.test/events?access_token=s3cret-token&v=2';
    const detach = new PushManager({
      source: eventSource(url, { EventSource: fake.EventSource }),
      entities: { Item },
      timers: clock.timers,
    }).attach(controller);
    assert.equal(fake.opened[0]!.url, url, 'the stream itself is opened with the token');
    const errors = await consoleErrors(() => {
      fake.opened[0]!.onmessage!({ data: '<html>', lastEventId: 'e-1' });
    });
    const text = errors.flat().map(String).join(' ');
    assert.doesNotMatch(text, /s3cret/);
    assert.match(
      text,
      /eventSource: https:\/\/api\.test\/events sent an event \(id e-1\) that is not JSON/,
    );
    detach();
  });
});
