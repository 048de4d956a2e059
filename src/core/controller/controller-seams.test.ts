// Issue 14: the seams of the redesigned core (events, managers, entity writes, batch, observers,
// abort), each with the failure it fixes.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Controller } from './controller.js';
import type { ControllerEvent } from './events.js';
import type { Manager } from './manager.js';
import { ExpiryStatus } from '../protocol/types.js';
import { dehydrate, hydrate } from '../hydration.js';
import { flush } from './test-utils/fake-fetch.js';
import { fakeEndpoint } from './test-utils/fake-endpoint.js';
import { Author, Todo, todoEndpoints } from './test-utils/entities.js';
import { failOnUnhandledRejection, setup } from './test-utils/harness.js';

failOnUnhandledRejection();

describe('managers and events', () => {
  it('a manager reads what the built-in ones read through the public API: reads(), now(), timers', () => {
    let seen: { key: string; subscribers: number; args?: readonly unknown[] }[] = [];
    let clock = 0;
    let timers: unknown;
    const watcher: Manager = {
      attach(controller) {
        timers = controller.timers;
        const look = () => {
          clock = controller.now();
          seen = [...controller.reads()].map(({ key, subscribers, shown }) => ({
            key,
            subscribers,
            args: shown?.args,
          }));
        };
        return controller.events.subscribe((event) => event.type === 'subscription' && look());
      },
    };
    const { controller, clock: fake } = setup({ managers: [watcher] });
    const { get: getTodo } = todoEndpoints();
    fake.advance(1234);
    const stop = controller.subscribe(getTodo, { id: '1' });
    assert.deepEqual(seen, [{ key: 'GET /todos/1', subscribers: 1, args: [{ id: '1' }] }]);
    assert.equal(clock, fake.now());
    assert.equal(timers, controller.timers);
    stop();
    assert.deepEqual(seen, [{ key: 'GET /todos/1', subscribers: 0, args: [{ id: '1' }] }]);
  });

  it('a user-written manager sees every action and request, and can dispatch', async () => {
    const seen: string[] = [];
    let detached = false;
    const logger: Manager = {
      attach(controller) {
        const stop = controller.events.subscribe((event: ControllerEvent) => {
          if (event.type === 'action') seen.push(event.action.type);
          else if (event.type === 'request') seen.push(`${event.phase} ${event.key}`);
          // It may write: a created todo invalidates the cached list.
          if (event.type === 'action' && event.action.type === 'response/set') {
            if (event.action.key.startsWith('POST')) {
              controller.dispatch({ type: 'invalidate', keys: ['GET /todos'] });
            }
          }
        });
        return () => {
          stop();
          detached = true;
        };
      },
    };
    const { controller, server } = setup({ managers: [logger] });
    const { get, getList, create } = todoEndpoints();
    const read = controller.fetch(get, { id: '1' });
    server.take().respond(200, { id: '1', title: 'a' });
    await read;
    controller.setResponse(getList, [{ id: '1' }]);
    const made = controller.fetch(create, {}, { title: 'b' });
    server.take().respond(200, { id: '2', title: 'b' });
    await made;
    assert.deepEqual(seen, [
      'start GET /todos/1',
      'response/set',
      'settle GET /todos/1',
      'response/set',
      'start POST /todos',
      'response/set',
      'invalidate',
      'settle POST /todos',
    ]);
    assert.equal(controller.getResponse(getList).expiryStatus, ExpiryStatus.Invalid);
    controller.dispose();
    assert.ok(detached);
  });

  it('inFlight() lists the requests started and not settled, with the ids of their events', async () => {
    const { controller, server } = setup();
    const { get, update } = todoEndpoints();
    const started: number[] = [];
    controller.events.subscribe((event) => {
      if (event.type === 'request' && event.phase === 'start') started.push(event.id);
    });
    const read = controller.fetch(get, { id: '1' });
    const write = controller.fetch(update, { id: '2' }, { title: 'x' });
    assert.deepEqual(
      controller.inFlight().map(({ id, key }) => [id, key]),
      [
        [started[0], 'GET /todos/1'],
        [started[1], 'PATCH /todos/2'],
      ],
    );
    server.take().respond(200, { id: '1' });
    await read;
    assert.deepEqual(
      controller.inFlight().map(({ key }) => key),
      ['PATCH /todos/2'],
    );
    server.take().respond(200, { id: '2' });
    await write;
    assert.deepEqual(controller.inFlight(), []);
  });

  it('listeners hear {action, state} once per change, and once per batch', () => {
    const { controller } = setup();
    const { get } = todoEndpoints();
    const heard: { type: string; count: number }[] = [];
    controller.addListener(({ action, actions, state }) => {
      assert.equal(state, controller.getState(), 'the committed state after the change');
      heard.push({ type: action.type, count: actions.length });
    });
    controller.setResponse(get, { id: '1' }, { id: '1' });
    controller.batch(() => {
      controller.setResponse(get, { id: '2' }, { id: '2' });
      controller.setResponse(get, { id: '3' }, { id: '3' });
      controller.invalidate(get, { id: '1' });
    });
    assert.deepEqual(heard, [
      { type: 'response/set', count: 1 },
      { type: 'invalidate', count: 3 },
    ]);
  });
});

describe('entity-level writes', () => {
  it('set(Entity, value) updates every read that shows the entity, with no request', () => {
    const { controller, server } = setup();
    const { get, getList } = todoEndpoints();
    controller.setResponse(getList, [
      { id: '1', title: 'one' },
      { id: '2', title: 'two' },
    ]);
    controller.setResponse(get, { id: '1' }, { id: '1', title: 'one' });
    const list = controller.getResponse(getList).data as Todo[];
    controller.set(Todo, { id: '1', title: 'pushed', author: { id: 'a', name: 'Ann' } });
    const after = controller.getResponse(getList).data as Todo[];
    assert.notEqual(after, list);
    assert.equal(after[0]!.title, 'pushed');
    assert.equal(after[0]!.author?.name, 'Ann');
    assert.equal(after[1], list[1], 'the other row keeps its identity');
    assert.equal((controller.getResponse(get, { id: '1' }).data as Todo).title, 'pushed');
    assert.equal(server.calls.length, 0);
  });

  it('set and invalidate(Entity) tell listeners and readers, also when tables are written in place', () => {
    // The store owns the tables a response wrote, and updates them in place: the entity write
    // must still count as a change (it did not: readers of a pushed entity stayed stale).
    const { controller } = setup();
    const { getList } = todoEndpoints();
    controller.setResponse(getList, [
      { id: '1', title: 'one' },
      { id: '2', title: 'two' },
    ]);
    const heard: string[] = [];
    controller.addListener(({ action }) => heard.push(action.type));
    const observer = controller.observe(getList);
    let told = 0;
    observer.subscribe(() => told++);
    controller.set(Todo, { id: '1', title: 'pushed' });
    assert.deepEqual(heard, ['entities/set']);
    assert.equal(told, 1);
    assert.equal((observer.result.data as Todo[])[0]!.title, 'pushed');
    controller.invalidate(Todo, '2');
    assert.deepEqual(heard, ['entities/set', 'entities/set']);
    assert.equal(told, 2);
    assert.deepEqual(
      (observer.result.data as Todo[]).map((todo) => todo.id),
      ['1'],
    );
  });

  it('invalidate(Entity, pk) drops it from lists and sends its own read back to pending', () => {
    const { controller } = setup();
    const { get, getList } = todoEndpoints();
    controller.setResponse(getList, [{ id: '1' }, { id: '2' }]);
    controller.setResponse(get, { id: '1' }, { id: '1' });
    controller.invalidate(Todo, '1');
    assert.deepEqual(
      (controller.getResponse(getList).data as Todo[]).map((todo) => todo.id),
      ['2'],
    );
    assert.equal(controller.getResponse(get, { id: '1' }).expiryStatus, ExpiryStatus.Invalid);
  });

  it('a pushed value that does not fit is a clear error and changes nothing', () => {
    const { controller } = setup();
    const { getList } = todoEndpoints();
    controller.setResponse(getList, [{ id: '1' }]);
    const before = controller.getState();
    assert.throws(() => controller.set(Todo, { title: 'no id' }), /Todo/);
    assert.equal(controller.getState(), before);
  });
});

describe('dehydrate and hydrate', () => {
  it('dehydrate → JSON → hydrate into a fresh live Controller gives identical reads with zero requests', async () => {
    const first = setup();
    const { get, getList } = todoEndpoints();
    const list = first.controller.fetch(getList);
    first.server.take().respond(200, [
      { id: '1', title: 'a', author: { id: 'x', name: 'Xu' } },
      { id: '2', title: 'b' },
    ]);
    await list;
    const one = first.controller.fetch(get, { id: '1' });
    first.server.take().respond(200, { id: '1', title: 'a', author: { id: 'x', name: 'Xu' } });
    await one;
    const json = JSON.stringify(dehydrate(first.controller));

    const second = setup();
    second.clock.advance(1_000);
    hydrate(second.controller, JSON.parse(json));
    for (const [endpoint, args] of [
      [getList, []],
      [get, [{ id: '1' }]],
    ] as const) {
      const before = first.controller.getResponse(endpoint, ...(args as []));
      const after = second.controller.getResponse(endpoint, ...(args as []));
      assert.deepEqual(
        JSON.parse(JSON.stringify(after.data)),
        JSON.parse(JSON.stringify(before.data)),
      );
      assert.equal(after.expiresAt, before.expiresAt, 'expiry continues from the server fetch');
      assert.equal(after.expiryStatus, ExpiryStatus.Valid);
    }
    const reader = second.controller.observe(get, { id: '1' });
    const stop = reader.subscribe(() => {});
    assert.equal(reader.result.status, 'complete');
    stop();
    assert.equal(second.server.calls.length, 0, 'nothing prefetched is fetched again');
  });

  it('hydrating an older state over newer data keeps the newer data; errors travel as plain data', async () => {
    const { controller, server, clock } = setup();
    const { get } = todoEndpoints();
    controller.setResponse(get, { id: '1' }, { id: '1', title: 'old' });
    const old = JSON.parse(JSON.stringify(dehydrate(controller)));
    clock.advance(10);
    controller.setResponse(get, { id: '1' }, { id: '1', title: 'new' });
    hydrate(controller, old);
    assert.equal((controller.getResponse(get, { id: '1' }).data as Todo).title, 'new');
    const failing = controller.fetch(get, { id: '9' });
    server.take().respond(404, { error: 'gone' });
    await assert.rejects(failing);
    const state = JSON.parse(JSON.stringify(dehydrate(controller)));
    assert.deepEqual(state.errors['GET /todos/9'].error, {
      name: 'FakeHttpError',
      message: 'HTTP 404',
      status: 404,
    });
  });
});

describe('dehydrate and hydrate: expiry of never', () => {
  it('dataExpiryLength and errorExpiryLength of Infinity survive JSON: same reads, no request', async () => {
    const first = setup({ retry: 0 });
    const forever = fakeEndpoint({
      path: '/todos/:id',
      schema: Todo,
      dataExpiryLength: Infinity,
      errorExpiryLength: Infinity,
    });
    const list = fakeEndpoint({ path: '/todos', schema: [Todo], dataExpiryLength: Infinity });
    first.controller.setResponse(list, [{ id: '1', title: 'a' }]);
    first.controller.setResponse(forever, { id: '2' }, { id: '2', title: 'b' });
    const failing = first.controller.fetch(forever, { id: '9' });
    first.server.take().respond(500, {});
    await assert.rejects(failing);
    const json = JSON.stringify(dehydrate(first.controller));

    const second = setup();
    second.clock.advance(365 * 24 * 3600_000);
    hydrate(second.controller, JSON.parse(json));
    for (const args of [{ id: '1' }, { id: '2' }, { id: '9' }]) {
      const before = first.controller.getResponse(forever, args);
      const after = second.controller.getResponse(forever, args);
      assert.equal(after.expiryStatus, before.expiryStatus, args.id);
      assert.equal(
        (after.data as Todo | undefined)?.title,
        (before.data as Todo | undefined)?.title,
      );
      assert.equal(after.error === undefined, before.error === undefined, args.id);
      const reader = second.controller.observe(forever, args);
      reader.subscribe(() => {})();
    }
    assert.equal(second.controller.getResponse(list).expiryStatus, ExpiryStatus.Valid);
    assert.equal(second.server.calls.length, 0);
  });
});

describe('hydrate: a state from elsewhere', () => {
  /** A state with todo 1, as a Controller fetched it at `at`. */
  function stateAt(at: number, title = 'theirs') {
    const other = setup();
    other.clock.advance(at - other.clock.now());
    const { get } = todoEndpoints();
    other.controller.setResponse(get, { id: '1' }, { id: '1', title });
    return JSON.parse(JSON.stringify(dehydrate(other.controller)));
  }

  it('a state that is not a store state is refused naming the part that does not fit; nothing changes', () => {
    const { controller } = setup();
    const { get } = todoEndpoints();
    controller.setResponse(get, { id: '2' }, { id: '2', title: 'ours' });
    const good = stateAt(0);
    const key = Object.keys(good.meta)[0]!;
    const cases: [unknown, RegExp][] = [
      [null, /The state at its root is not an object/],
      [[], /The state at its root is not an object/],
      [{ ...good, entities: [] }, /The state at entities is not an object/],
      [{ ...good, entities: { Todo: 'x' } }, /The state at entities\["Todo"\] is not an object/],
      [
        { ...good, entities: { Todo: { '1': null } } },
        /entities\["Todo"\]\["1"\] is not an object/,
      ],
      [{ ...good, entities: { Todo: { '1': 'x' } } }, /entities\["Todo"\]\["1"\] is not an object/],
      [{ ...good, endpoints: 'x' }, /The state at endpoints is not an object/],
      [{ ...good, meta: { [key]: null } }, /The state at meta\[".*"\] is not an object/],
      [
        { ...good, meta: { [key]: { date: 1, fetchedAt: 'b', expiresAt: 1 } } },
        /meta\[".*"\]\.fetchedAt is not a number/,
      ],
      [{ ...good, meta: { [key]: {} } }, /meta\[".*"\]\.date is not a number/],
      [
        { ...good, meta: { [key]: { date: 1, fetchedAt: 1, expiresAt: 1, validator: 5 } } },
        /meta\[".*"\]\.validator is not a string/,
      ],
      [{ ...good, errors: 'x' }, /The state at errors is not an object/],
      [{ ...good, errors: { [key]: null } }, /The state at errors\[".*"\] is not an object/],
      [
        { ...good, entitiesMeta: { Todo: { '1': null } } },
        /entitiesMeta\["Todo"\]\["1"\] is not an object/,
      ],
      [{ ...good, lastReset: 'x' }, /The state at lastReset is not a number/],
    ];
    for (const [state, message] of cases) {
      const before = controller.getState();
      assert.throws(
        () => hydrate(controller, state as never),
        (error: unknown) => {
          assert.ok(error instanceof TypeError);
          assert.match(error.message, message);
          return true;
        },
      );
      assert.equal(controller.getState(), before, `${JSON.stringify(state)} changed nothing`);
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    hydrate(controller, good);
    assert.equal((controller.getResponse(get, { id: '1' }).data as Todo).title, 'theirs');
    assert.equal((controller.getResponse(get, { id: '2' }).data as Todo).title, 'ours');
  });

  it("a state from a clock ahead of ours (a server's) counts as fetched now: what we fetch, set or delete later wins", async () => {
    const { controller, server, clock } = setup();
    const { get } = todoEndpoints();
    const ahead = stateAt(clock.now() + 60_000);
    const expiresAt = Object.values(ahead.meta as Record<string, { expiresAt: number }>)[0]!
      .expiresAt;
    hydrate(controller, ahead);
    assert.equal((controller.getResponse(get, { id: '1' }).data as Todo).title, 'theirs');
    // Fresh for as long as it was to be from its fetch, not a minute longer for the clocks.
    assert.equal(controller.getResponse(get, { id: '1' }).expiresAt, expiresAt - 60_000);
    assert.equal(controller.getResponse(get, { id: '1' }).expiryStatus, ExpiryStatus.Valid);
    clock.advance(expiresAt - 60_000 - clock.now() + 1);
    assert.equal(controller.getResponse(get, { id: '1' }).expiryStatus, ExpiryStatus.Stale);
    clock.advance(1);
    controller.set(Todo, { id: '1', title: 'pushed here' });
    assert.equal((controller.getResponse(get, { id: '1' }).data as Todo).title, 'pushed here');
    clock.advance(1);
    const refetch = controller.fetch(get, { id: '1' });
    server.take().respond(200, { id: '1', title: 'fetched here' });
    await refetch;
    assert.equal((controller.getResponse(get, { id: '1' }).data as Todo).title, 'fetched here');
    clock.advance(1);
    controller.invalidate(Todo, '1');
    assert.equal(controller.getResponse(get, { id: '1' }).expiryStatus, ExpiryStatus.Invalid);
  });

  it('a state with fetch times far in the future (tampered) cannot pin its data', () => {
    const { controller } = setup();
    const { get } = todoEndpoints();
    const pinned = stateAt(0);
    for (const table of Object.values(
      pinned.entitiesMeta as Record<string, Record<string, { fetchedAt: number }>>,
    ))
      for (const meta of Object.values(table)) meta.fetchedAt = 1e308;
    for (const meta of Object.values(pinned.meta as Record<string, { fetchedAt: number }>))
      meta.fetchedAt = 1e308;
    hydrate(controller, pinned);
    controller.set(Todo, { id: '1', title: 'ours' });
    assert.equal((controller.getResponse(get, { id: '1' }).data as Todo).title, 'ours');
  });
});

describe('ordering by request, not by millisecond', () => {
  it('two updates started in the same millisecond, answered in reverse: the later one wins', async () => {
    const { controller, server } = setup();
    const { update, get } = todoEndpoints();
    const first = controller.fetch(update, { id: '1' }, { title: 'first' });
    const second = controller.fetch(update, { id: '1' }, { title: 'second' });
    server.waiting[1]!.respond(200, { id: '1', title: 'second' });
    await second;
    server.take().respond(200, { id: '1', title: 'first' });
    await first;
    assert.equal((controller.getResponse(get, { id: '1' }).data as Todo).title, 'second');
  });

  it('an older list answered after a newer detail (same millisecond) does not overwrite it', async () => {
    const { controller, server } = setup();
    const { get, getList } = todoEndpoints();
    const list = controller.fetch(getList);
    const detail = controller.fetch(get, { id: '1' });
    server.take('GET /todos/1').respond(200, { id: '1', title: 'fresh' });
    await detail;
    server.take('GET /todos').respond(200, [{ id: '1', title: 'stale' }]);
    await list;
    assert.equal((controller.getResponse(getList).data as Todo[])[0]!.title, 'fresh');
  });
});

describe('requests nobody needs are aborted', () => {
  it('the last subscriber leaving aborts a read it started; a shared one survives one leaving', async () => {
    const { controller, server } = setup();
    const { get } = todoEndpoints();
    const a = controller.observe(get, { id: '1' });
    const b = controller.observe(get, { id: '1' });
    const stopA = a.subscribe(() => {});
    const stopB = b.subscribe(() => {});
    assert.equal(server.calls.length, 1, 'one request for both readers');
    const signal = server.calls[0]!.signal!;
    stopA();
    await flush();
    assert.equal(signal.aborted, false, 'the other reader still needs it');
    stopB();
    await flush();
    assert.equal(signal.aborted, true);
    assert.equal(controller.stats().inFlight, 0);
    assert.equal(controller.getResponse(get, { id: '1' }).error, undefined, 'no error stored');
  });

  it('a reader whose args change aborts the old read; an awaited fetch is never aborted', async () => {
    const { controller, server } = setup();
    const { get } = todoEndpoints();
    const reader = controller.observe(get, { id: '1' });
    const stop = reader.subscribe(() => {});
    const awaited = controller.fetch(get, { id: '7' });
    reader.setRead(get, { id: '2' });
    await flush();
    assert.equal(server.calls[0]!.signal!.aborted, true);
    assert.equal(server.calls.at(-1)!.url, '/todos/2');
    stop();
    controller.resetEntireStore();
    await flush();
    assert.equal(server.calls[1]!.signal!.aborted, false, 'a caller awaits /todos/7');
    server.take('GET /todos/7').respond(200, { id: '7' });
    assert.equal(((await awaited) as Todo).id, '7');
  });

  it('a reset aborts the reads nobody awaits', async () => {
    const { controller, server } = setup();
    const { get } = todoEndpoints();
    void controller.fetchIfStale(get, { id: '1' });
    controller.resetEntireStore();
    await flush();
    assert.equal(server.calls[0]!.signal!.aborted, true);
    assert.equal(controller.stats().inFlight, 0);
  });
});

describe('bad args in a reader', () => {
  it('shows the endpoint’s own error, sends nothing and throws nothing', () => {
    const { controller, server } = setup();
    const strict = fakeEndpoint({ path: '/todos/:id', schema: Todo });
    const picky = Object.assign((...args: unknown[]) => strict(...args), strict, {
      key: (params: { id?: string }) => {
        if (!params?.id) throw new TypeError('GET /todos/:id: the parameter "id" is empty');
        return strict.key(params);
      },
    });
    const reader = controller.observe(picky, { id: '' });
    const stop = reader.subscribe(() => {});
    assert.equal(reader.result.status, 'error');
    assert.match((reader.result.error as Error).message, /"id" is empty/);
    assert.equal(server.calls.length, 0);
    reader.setRead(picky, { id: '3' });
    assert.equal(reader.result.status, 'pending');
    assert.equal(server.calls.length, 1);
    stop();
  });
});

describe('garbage collection of a held read served from a list', () => {
  it('keeps the entity and the entities it points to after the list is collected', async () => {
    const { controller, clock } = setup({ gcTime: 1_000 });
    const { get, getList } = todoEndpoints();
    controller.setResponse(getList, [{ id: '1', title: 'a', author: { id: 'x', name: 'Xu' } }]);
    const reader = controller.observe(get, { id: '1' });
    const stop = reader.subscribe(() => {});
    clock.advance(5_000);
    assert.deepEqual(controller.getState().endpoints, {}, 'the list is collected');
    const todo = reader.result.data as Todo;
    assert.equal(todo.author?.name, 'Xu');
    assert.ok(controller.getState().entities.Author?.x, 'the author is kept');
    stop();
    void Author;
  });
});

describe('timers', () => {
  it('a gcTime of 30 days arms one timer, not a 1 ms loop', () => {
    let armed = 0;
    const delays: number[] = [];
    const timers = {
      setTimeout: (_callback: () => void, ms: number) => {
        armed++;
        delays.push(ms);
        return armed;
      },
      clearTimeout: () => {},
    };
    const controller = new Controller({ timers, gcTime: 30 * 24 * 3600_000 });
    controller.setResponse(todoEndpoints().get, { id: '1' }, { id: '1' });
    assert.equal(armed, 1);
    assert.equal(delays[0], 2 ** 31 - 1, 'clamped to what hosts honour');
  });

  it('an endpoint timeout runs on the controller’s timers and is clamped', async () => {
    const { controller, clock } = setup();
    const { RestEndpoint } = await import('../rest/rest-endpoint.js');
    const never: typeof fetch = (_url, init) =>
      new Promise((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)),
      );
    const slow = new RestEndpoint({ path: '/slow', timeout: 5_000 });
    const huge = new RestEndpoint({ path: '/huge', timeout: 2 ** 31 });
    const local = new Controller({ fetch: never, now: clock.now, timers: clock.timers });
    const failing = local.fetch(slow);
    const waiting = local.fetch(huge);
    waiting.catch(() => {});
    await flush();
    clock.advance(4_999);
    await flush();
    clock.advance(1);
    await assert.rejects(failing, { name: 'TimeoutError' });
    clock.advance(1_000_000);
    await flush();
    assert.equal(local.stats().inFlight, 1, 'a 2^31 ms timeout has not fired');
    void controller;
  });
});
