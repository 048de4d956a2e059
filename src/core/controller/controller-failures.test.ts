import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { ExpiryStatus } from '../protocol/types.js';
import { Entity } from '../schema/entity.js';
import type { Controller } from './controller.js';
import { fakeEndpoint } from './test-utils/fake-endpoint.js';
import type { PendingRequest } from './test-utils/fake-fetch.js';
import { flush } from './test-utils/fake-fetch.js';
import { Todo, todoEndpoints } from './test-utils/entities.js';
import { failOnUnhandledRejection, setup, withoutErrors } from './test-utils/harness.js';

// Every test here would also fail the file if any rejection went unhandled. Endpoints have
// retry: 0: these tests are about what one failed attempt leaves behind; retrying (which runs
// before anything is stored) is tested in retry.test.ts.
failOnUnhandledRejection();

const failures: [string, (request: PendingRequest) => void, RegExp | object][] = [
  ['a 4xx response', (r) => r.respond(404, { message: 'not found' }), { status: 404 }],
  ['a 5xx response', (r) => r.respond(503, { message: 'down' }), { status: 503 }],
  ['a network error', (r) => r.fail(), /Failed to fetch/],
  ['a body that is not JSON', (r) => r.respondText(200, '<html>oops'), /not JSON/],
  ['a response that does not fit the schema', (r) => r.respond(200, { title: 'no id' }), /pk/],
];

describe('failures leave the store as it was', () => {
  for (const [name, answer, expected] of failures) {
    it(`${name}: data and entities unchanged, error readable, caller rejected`, async () => {
      const { controller, server } = setup();
      const { get, getList } = todoEndpoints({ retry: 0 });
      controller.setResponse(get, { id: '1' }, { id: '1', title: 'kept' });
      controller.setResponse(getList, {}, [{ id: '1' }, { id: '2', title: 'other' }]);
      const before = controller.getState();
      const shownBefore = controller.getResponse(get, { id: '1' }).data;
      const promise = controller.fetch(get, { id: '1' });
      answer(server.take());
      await assert.rejects(promise, expected);
      const after = controller.getState();
      assert.deepEqual(withoutErrors(after), withoutErrors(before));
      assert.equal(after.entities, before.entities, 'the entity tables are the same objects');
      assert.equal(after.endpoints, before.endpoints);
      const info = controller.getResponse(get, { id: '1' });
      assert.equal(info.data, shownBefore, 'the data shown before is still shown');
      assert.equal(info.expiryStatus, ExpiryStatus.Valid);
      assert.ok(info.error instanceof Error);
      assert.equal(controller.getError(get, { id: '1' }), info.error);
      assert.equal(controller.stats().inFlight, 0);
    });

    it(`${name} on a first fetch: nothing stored but the error`, async () => {
      const { controller, server } = setup();
      const { get } = todoEndpoints({ retry: 0 });
      const promise = controller.fetch(get, { id: '9' });
      answer(server.take());
      await assert.rejects(promise, expected);
      const { errors, ...rest } = controller.getState();
      assert.deepEqual(rest, { ...withoutErrors(setup().controller.getState()) });
      assert.deepEqual(Object.keys(errors), ['GET /todos/9']);
      const info = controller.getResponse(get, { id: '9' });
      assert.equal(info.expiryStatus, ExpiryStatus.Invalid);
      assert.ok(info.error instanceof Error);
    });
  }

  it('a failing mutation leaves entities and lists exactly as they were', async () => {
    const { controller, server } = setup();
    const { getList, create, update } = todoEndpoints({ retry: 0 });
    controller.setResponse(getList, {}, [{ id: '1', title: 'a' }]);
    const before = controller.getState();
    const creating = controller.fetch(create, {}, { title: 'b' });
    const updating = controller.fetch(update, { id: '1' }, { title: 'c' });
    server.take('POST /todos').respond(422, { message: 'invalid' });
    server.take('PATCH /todos/1').fail();
    await assert.rejects(creating, { status: 422 });
    await assert.rejects(updating);
    assert.deepEqual(withoutErrors(controller.getState()), withoutErrors(before));
    assert.ok(controller.getError(create, {}, { title: 'b' }));
  });

  it('an endpoint whose run() throws synchronously rejects like any failure', async () => {
    const { controller } = setup();
    const broken = Object.assign(fakeEndpoint({ path: '/x' }), {
      run: () => {
        throw new Error('sync failure');
      },
    });
    await assert.rejects(controller.fetch(broken), /sync failure/);
    assert.ok(controller.getError(broken));
  });
});

describe('background requests never reject unhandled', () => {
  it('fetchIfStale whose promise nobody awaits', async () => {
    const { controller, server } = setup();
    const { get } = todoEndpoints({ retry: 0 });
    controller.fetchIfStale(get, { id: '1' });
    server.take().respond(500);
    await flush();
    assert.ok(controller.getError(get, { id: '1' }));
  });

  it('polling and revalidation', async () => {
    const { controller, server, clock } = setup({ gcTime: Infinity });
    const polled = fakeEndpoint({ path: '/p', pollFrequency: 100, retry: 0 });
    const stop = controller.subscribe(polled);
    clock.advance(100);
    server.take().fail();
    await flush();
    controller.focus();
    server.take().respond(400);
    await flush();
    controller.offline();
    controller.online();
    server.take().respondText(200, 'nope');
    await flush();
    assert.equal(server.calls.length, 3);
    stop();
    assert.equal(clock.pending, 0);
  });

  it('a fetch whose caller drops the promise rejects only for that caller', async () => {
    const { controller, server } = setup();
    const { get } = todoEndpoints({ retry: 0 });
    // The caller handles it; identical readers joining the same request get the same promise.
    const promise = controller.fetch(get, { id: '1' });
    const joined = controller.fetch(get, { id: '1' });
    assert.equal(joined, promise);
    server.take().respond(500);
    await assert.rejects(promise);
  });
});

describe('a getOptimisticResponse that throws', () => {
  it('applies nothing, reports once, and the request still runs', async (t) => {
    const { controller, server } = setup();
    const errors: unknown[] = [];
    t.mock.method(console, 'error', (...args: unknown[]) => void errors.push(args));
    const buggy = fakeEndpoint({
      path: '/todos/:id',
      method: 'PATCH',
      schema: Todo,
      getOptimisticResponse: () => {
        throw new Error('bug');
      },
    });
    const before = controller.getState();
    const promise = controller.fetch(buggy, { id: '1' }, {});
    controller.setResponse(todoEndpoints({ retry: 0 }).get, { id: '2' }, { id: '2' }); // replays again
    assert.equal(errors.length, 1);
    assert.deepEqual(controller.getState().entities, {
      Todo: { '2': { id: '2' } },
    });
    server.take().respond(200, { id: '1' });
    await promise;
    assert.notEqual(controller.getState(), before);
  });
});

describe('a store that cannot be read', () => {
  class Link extends Entity {
    id = '';
    parent: Link | null = null;
    pk() {
      return this.id;
    }
    static override key = 'FailLink';
    static override schema = { parent: Link };
  }
  const getLink = fakeEndpoint({ path: '/links/:id', schema: Link, retry: 0 });
  const getLinks = fakeEndpoint({ path: '/links', schema: [Link], retry: 0 });
  /** A parent chain of `length` links, written 100 at a time (each write well within limits). */
  function chain(controller: Controller, length: number): void {
    for (let from = 0; from < length; from += 100) {
      const links = [];
      for (let i = from; i < from + 100; i++) {
        links.push({ id: `l${i}`, parent: i === 0 ? null : `l${i - 1}` });
      }
      controller.setResponse(getLinks, { from }, links);
    }
  }

  it('entities chained deeper than the stack: an error that names the read, every time', () => {
    const { controller } = setup();
    chain(controller, 20_000);
    const read = () => controller.getResponse(getLink, { id: 'l19999' });
    for (let attempt = 0; attempt < 2; attempt++) {
      // The second read too: a failed build leaves nothing behind that reads as "missing".
      assert.throws(read, (error: Error) => {
        assert.ok(error instanceof RangeError);
        assert.match(error.message, /^GET \/links\/l19999: .*too deeply to read/);
        return true;
      });
    }
    // What is within reach still reads.
    const near = controller.getResponse(getLink, { id: 'l500' }).data as Link;
    assert.equal(near.parent?.parent?.id, 'l498');
  });

  it("an observer shows it as the read's error, sends nothing, and recovers when the data does", async () => {
    const { controller, server } = setup();
    chain(controller, 20_000);
    const observer = controller.observe(getLink, { id: 'l19999' });
    let notified = 0;
    const stop = observer.subscribe(() => notified++);
    assert.equal(observer.result.status, 'error');
    assert.match(String((observer.result.error as Error).message), /l19999: .*too deeply/);
    await flush();
    assert.equal(server.calls.length, 0, 'no request: fetching again would not help');
    // The chain is cut: the read builds again.
    controller.setResponse(getLink, { id: 'l19990' }, { id: 'l19990', parent: null });
    assert.equal(observer.result.status, 'complete');
    assert.ok(notified > 0);
    let depth = 0;
    for (let link = observer.result.data as Link | null; link; link = link.parent) depth++;
    assert.equal(depth, 10);
    stop();
  });
});
