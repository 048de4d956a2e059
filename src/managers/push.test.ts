import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { applyPushMessage } from './push-message.js';
import { PushManager } from './push.js';
import { eventSource } from './event-source.js';
import type { PushHandlers, PushSource } from './push.js';
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
    const { controller } = await loaded();
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
    const message = (id: unknown) =>
      fake.last.handlers.message({ type: 'delete', entity: 'Item', pk: '9', id } as never);
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
    const { controller } = await loaded();
    const fake = fakeSource();
    const detach = new PushManager({ source: fake.source, entities: { Item } }).attach(controller);
    const errors = await consoleErrors(() =>
      fake.last.handlers.message({ type: 'upsert', entity: 'Nope', data: {}, id: '1' }),
    );
    assert.equal(errors.length, 1);
    assert.match(
      String(errors[0]![0]),
      /PushManager: pushed message 1 \(upsert Nope\) was not applied/,
    );
    assert.match(String(errors[0]![0]), /registry does not have/);
    // Data that does not fit the entity: named by event and entity, and the store keeps its item.
    const bad = await consoleErrors(() =>
      fake.last.handlers.message({
        type: 'upsert',
        entity: 'Item',
        data: { name: 'no id' },
        id: '7',
      }),
    );
    assert.equal(bad.length, 1);
    assert.match(String(bad[0]![0]), /pushed message 7 \(upsert Item\) was not applied/);
    assert.match(String(bad[0]![0]), /Item/);
    assert.deepEqual(names(controller), ['one', 'two']);
    fake.last.handlers.message({ type: 'delete', entity: 'Item', pk: '1', id: '2' });
    assert.deepEqual(names(controller), ['two']);
    detach();
  });

  it('a null or non-object message is reported; nothing is thrown at the source and the stream goes on', async () => {
    const { controller } = await loaded();
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
      const errors = await consoleErrors(() => fake.last.handlers.message(message as never));
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
