// What the Controller does per store key: invalidation reaches every key it stores (answered or
// failed, once each), a request's `settle` event tells what its caller sees, whatever runs a key
// again runs it with the endpoint its readers hold now, the "only if needed" calls never throw,
// and a read of nothing leaves no record behind.
import { beforeEach, describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Entity } from '../schema/entity.js';
import { INVALID } from '../schema/types.js';
import { ExpiryStatus } from '../protocol/types.js';
import type { EndpointLike } from '../protocol/types.js';
import type { ControllerEvent } from './events.js';
import { failOnUnhandledRejection, setup } from './test-utils/harness.js';
import { flush } from './test-utils/fake-fetch.js';
import { fakeEndpoint } from './test-utils/fake-endpoint.js';
import { todoEndpoints, Todo } from './test-utils/entities.js';

failOnUnhandledRejection();

const requestsOf = (events: ControllerEvent[], phase: 'start' | 'settle') =>
  events.filter(
    (event): event is Extract<ControllerEvent, { type: 'request' }> =>
      event.type === 'request' && event.phase === phase,
  );

describe('invalidateAll', () => {
  it('reaches a read that only ever failed (a 401 before a login)', async () => {
    const { controller, server } = setup({ retry: 0 });
    const { get } = todoEndpoints({ retry: 0 });
    const failing = controller.fetch(get, { id: '1' });
    await flush();
    server.take('GET /todos/1').respond(401, { detail: 'Not signed in' });
    await assert.rejects(failing);
    assert.ok(controller.getResponse(get, { id: '1' }).error, 'the 401 is shown');

    controller.invalidateAll(() => true);

    assert.equal(controller.getResponse(get, { id: '1' }).error, undefined, 'the 401 is gone');
    // …so a reader fetches it again at once instead of showing the 401 until it expires.
    assert.notEqual(controller.fetchIfStale(get, { id: '1' }), undefined);
    await flush();
    server.take('GET /todos/1').respond(200, { id: '1', title: 'Signed in' });
  });

  it('drops the answers of the reads in flight of every key it reaches', async () => {
    const { controller, server } = setup({ retry: 0 });
    const { get } = todoEndpoints({ retry: 0 });
    const old = controller.fetch(get, { id: '1' });
    await flush();
    controller.invalidateAll(() => true);
    const fresh = controller.fetch(get, { id: '1' });
    await flush();
    assert.equal(server.waiting.length, 2, 'the read after the invalidation is sent, not joined');
    server.take('GET /todos/1').respond(200, { id: '1', title: 'with the old token' });
    await old;
    assert.equal(controller.getResponse(get, { id: '1' }).expiryStatus, ExpiryStatus.Invalid);
    server.take('GET /todos/1').respond(200, { id: '1', title: 'with the new token' });
    assert.equal((await fresh).title, 'with the new token');
  });
});

describe('invalidate(endpoint, …)', () => {
  it('outdates the key once: one sequence step, one release', async () => {
    const { controller, server } = setup();
    const { get } = todoEndpoints();
    controller.setResponse(get, { id: '1' }, { id: '1', title: 'a' });
    const events: ControllerEvent[] = [];
    controller.events.subscribe((event) => void events.push(event));
    const before = controller.fetch(get, { id: '2' });
    await flush();
    controller.invalidate(get, { id: '1' });
    // A request started now is numbered right after the invalidation's one step.
    const after = controller.fetch(get, { id: '3' });
    const [first, second] = requestsOf(events, 'start');
    assert.equal(second!.id - first!.id, 2, 'the invalidation took one number, not two');
    await flush();
    server.take('GET /todos/2').respond(200, { id: '2' });
    server.take('GET /todos/3').respond(200, { id: '3' });
    await Promise.all([before, after]);
  });
});

describe('the settle event', () => {
  class Food extends Entity {
    id = '';
    pk() {
      return this.id;
    }
    static key = 'Food';
  }
  class Menu extends Entity {
    id = '';
    food = Food.fromJS();
    pk() {
      return this.id;
    }
    static key = 'Menu';
    static schema = { food: Food };
  }

  it('says ok: false for an answer its caller gets as a rejection', async () => {
    const { controller, server } = setup({ retry: 0 });
    const getMenu = fakeEndpoint({ path: '/menus/:id', schema: Menu, retry: 0 });
    // The food is deleted: the menu that requires it cannot be shown.
    controller.set(Food, { id: 'f' });
    controller.invalidate(Food, 'f');
    const events: ControllerEvent[] = [];
    controller.events.subscribe((event) => void events.push(event));
    const read = controller.fetch(getMenu, { id: 'm' });
    await flush();
    server.take('GET /menus/m').respond(200, { id: 'm', food: 'f' });
    const error = await read.then(
      () => assert.fail('the read resolved'),
      (error: unknown) => error,
    );
    const [settle] = requestsOf(events, 'settle');
    assert.equal(settle!.ok, false);
    assert.equal(settle!.error, error);
  });
});

describe('what runs a key again', () => {
  /** Two endpoint objects of one store key, as a hook makes after a token change. */
  const withToken = (token: string): EndpointLike =>
    Object.assign(fakeEndpoint({ path: '/todos/:id', schema: Todo, pollFrequency: 1_000 }), {
      token,
    });
  const tokensSent = (events: ControllerEvent[]) =>
    requestsOf(events, 'start').map(({ endpoint }) => (endpoint as { token?: string }).token);

  it('polls with the endpoint the reader holds now, not the one it was first given', async () => {
    const { controller, server, clock } = setup();
    const events: ControllerEvent[] = [];
    controller.events.subscribe((event) => void events.push(event));
    const observer = controller.observe(withToken('old'), { id: '1' });
    const stop = observer.subscribe(() => {});
    await flush();
    server.take('GET /todos/1').respond(200, { id: '1' });
    await flush();
    observer.setRead(withToken('new'), { id: '1' });
    for (let tick = 0; tick < 3; tick++) {
      clock.advance(1_000);
      await flush();
      server.take('GET /todos/1').respond(200, { id: '1' });
      await flush();
    }
    assert.deepEqual(tokensSent(events), ['old', 'new', 'new', 'new']);
    stop();
  });

  it('revalidates (back online) with the endpoint the reader holds now', async () => {
    const { controller, server } = setup();
    const events: ControllerEvent[] = [];
    controller.events.subscribe((event) => void events.push(event));
    const observer = controller.observe(withToken('old'), { id: '1' });
    const stop = observer.subscribe(() => {});
    await flush();
    server.take('GET /todos/1').respond(401, {});
    await flush();
    observer.setRead(withToken('new'), { id: '1' });
    controller.offline();
    controller.online();
    await flush();
    server.take('GET /todos/1').respond(200, { id: '1' });
    await flush();
    assert.deepEqual(tokensSent(events), ['old', 'new']);
    stop();
  });

  it('keeps polling on time while the reader is handed new endpoint objects', async () => {
    const { controller, server, clock } = setup();
    const observer = controller.observe(withToken('a'), { id: '1' });
    const stop = observer.subscribe(() => {});
    await flush();
    server.take('GET /todos/1').respond(200, { id: '1' });
    await flush();
    // A host that updates every 400 ms with a new endpoint object must not restart the timer.
    for (let update = 0; update < 3; update++) {
      clock.advance(400);
      observer.setRead(withToken(`t${update}`), { id: '1' });
    }
    await flush();
    assert.equal(server.waiting.length, 1, 'polled once within 1,200 ms');
    server.take('GET /todos/1').respond(200, { id: '1' });
    await flush();
    stop();
  });
});

describe('fetchIfStale and revalidate', () => {
  /** An entity whose class refuses what is stored once `refuse` is set (a class changed since). */
  let refuse = false;
  class Broken extends Entity {
    id = '';
    constructor() {
      super();
      if (refuse) throw new TypeError('cannot build');
    }
    pk() {
      return this.id;
    }
    static key = 'Broken';
  }
  beforeEach(() => (refuse = false));
  it('settle instead of throwing when the stored read cannot be built', async () => {
    const { controller } = setup();
    const getBroken = fakeEndpoint({ path: '/broken/:id', schema: Broken });
    controller.set(Broken, { id: '1' });
    refuse = true;
    assert.throws(() => controller.getResponse(getBroken, { id: '1' }), /cannot build/);
    for (const call of [controller.fetchIfStale, controller.revalidate]) {
      let result: unknown;
      assert.doesNotThrow(() => (result = call.call(controller, getBroken, { id: '1' })));
      await assert.rejects(result as Promise<unknown>, /cannot build/);
    }
  });

  it('leave the reads after a broken one revalidated when the page comes back online', async () => {
    const { controller, server } = setup();
    const getBroken = fakeEndpoint({ path: '/broken/:id', schema: Broken });
    const { get } = todoEndpoints();
    controller.set(Broken, { id: '1' });
    refuse = true;
    const stops = [
      controller.subscribe(getBroken, { id: '1' }),
      controller.subscribe(get, { id: '2' }),
    ];
    controller.offline();
    controller.online();
    await flush();
    assert.ok(
      server.waiting.some(({ url }) => url === '/todos/2'),
      'the read after it is sent',
    );
    server.take('GET /todos/2').respond(200, { id: '2' });
    await flush();
    stops.forEach((stop) => stop());
  });
});

describe('records', () => {
  it('are not kept for reads of keys that hold nothing', () => {
    const { controller } = setup();
    const { get } = todoEndpoints();
    const before = [...controller.reads()].length;
    for (let id = 0; id < 100; id++) controller.getResponse(get, { id: `nothing-${id}` });
    assert.equal([...controller.reads()].length, before);
    // The same read of nothing is still the same object, so readers compare with ===.
    assert.equal(
      controller.getResponse(get, { id: 'x' }),
      controller.getResponse(get, { id: 'x' }),
    );
    assert.equal(controller.getResponse(get, { id: 'x' }).data, undefined);
    assert.notEqual(INVALID, undefined);
  });
});
