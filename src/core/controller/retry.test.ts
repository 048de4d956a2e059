// Retries of failed reads: which failures, how long between attempts (backoff with jitter, or the
// server's Retry-After), offline, abort, mutations, and the soft-error backoff after the last one.
import { describe, it } from 'node:test';
import type { TestContext } from 'node:test';
import { strict as assert } from 'node:assert';
import { Entity } from '../schema/entity.js';
import { createResource } from '../rest/create-resource.js';
import { ExpiryStatus } from '../protocol/types.js';
import { FakeClock } from './test-utils/fake-clock.js';
import { flush } from './test-utils/fake-fetch.js';
import type { FakeServer } from './test-utils/fake-fetch.js';
import { fakeEndpoint } from './test-utils/fake-endpoint.js';
import { Todo } from './test-utils/entities.js';
import { failOnUnhandledRejection, setup } from './test-utils/harness.js';
import { retryAfter, retryDelay } from './retry.js';

failOnUnhandledRejection();

class Post extends Entity {
  id = '';
  title = '';
  pk() {
    return this.id;
  }
  static override key = 'RetryPost';
}

const prefix = 'https://api.test';
const PostResource = createResource({ urlPrefix: prefix, path: '/posts/:id', schema: Post });
const get = fakeEndpoint({ path: '/todos/:id', schema: Todo });

/** Jitter off: each wait is half the backoff (the fixed half), so times are exact. */
function noJitter(t: TestContext): void {
  t.mock.method(Math, 'random', () => 0);
}

/** RestEndpoint prepares its request asynchronously; lets it reach the fake server. */
async function arrived(server: FakeServer): Promise<FakeServer> {
  await flush();
  return server;
}

describe('retries of reads', () => {
  it('503, 503, 200: three requests, one pending read, the data stored and no error', async (t) => {
    noJitter(t);
    const { controller, server, clock } = setup();
    const events: string[] = [];
    controller.events.subscribe((event) => {
      if (event.type === 'request') events.push(event.phase);
    });
    const promise = controller.fetch(get, { id: '1' });
    server.take('GET /todos/1').respond(503);
    await flush();
    // Between attempts the read is still one request in flight, with no error shown.
    assert.equal(controller.stats().inFlight, 1);
    assert.equal(controller.getResponse(get, { id: '1' }).error, undefined);
    assert.equal(server.waiting.length, 0);
    clock.advance(499);
    await flush();
    assert.equal(server.waiting.length, 0, 'not before the backoff (500 ms) is over');
    clock.advance(1);
    await flush();
    server.take('GET /todos/1').respond(503);
    await flush();
    clock.advance(1_000); // the backoff doubles
    await flush();
    server.take('GET /todos/1').respond(200, { id: '1', title: 'third time' });
    assert.equal(((await promise) as Todo).title, 'third time');
    assert.equal(server.calls.length, 3);
    assert.deepEqual(events, ['start', 'settle']);
    const read = controller.getResponse(get, { id: '1' });
    assert.equal(read.error, undefined);
    assert.equal((read.data as Todo).title, 'third time');
  });

  it('gives up after three attempts and shows the last error', async (t) => {
    noJitter(t);
    const { controller, server, clock } = setup();
    const promise = controller.fetch(get, { id: '1' });
    for (const status of [500, 502]) {
      server.take().respond(status);
      await flush();
      clock.advance(10_000);
      await flush();
    }
    server.take().respond(503, { message: 'still down' });
    await assert.rejects(promise, { status: 503 });
    assert.equal(server.calls.length, 3);
    assert.equal((controller.getError(get, { id: '1' }) as { status: number }).status, 503);
    clock.advance(60_000);
    await flush();
    assert.equal(server.waiting.length, 0, 'no fourth attempt');
  });

  it('a dropped connection is retried; 404 and other TypeErrors are not', async (t) => {
    noJitter(t);
    const { controller, server, clock } = setup();
    const dropped = controller.fetch(get, { id: '1' });
    server.take().fail(new TypeError('Failed to fetch'));
    await flush();
    clock.advance(500);
    await flush();
    server.take().respond(200, { id: '1', title: 'back' });
    assert.equal(((await dropped) as Todo).title, 'back');

    const missing = controller.fetch(get, { id: '2' });
    server.take().respond(404);
    await assert.rejects(missing, { status: 404 });
    const buggy = controller.fetch(get, { id: '3' });
    server.take().fail(new TypeError("Cannot read properties of undefined (reading 'x')"));
    await assert.rejects(buggy, TypeError);
    clock.advance(60_000);
    await flush();
    assert.equal(server.calls.length, 4);
  });

  it('408 and 429 are retried, 400 and 401 are not', async (t) => {
    noJitter(t);
    for (const [status, attempts] of [
      [408, 2],
      [429, 2],
      [400, 1],
      [401, 1],
    ] as const) {
      const { controller, server, clock } = setup();
      const settled = controller.fetch(get, { id: '1' }).catch(() => {});
      server.take().respond(status);
      await flush();
      clock.advance(500);
      await flush();
      if (attempts === 2) server.take().respond(200, { id: '1' });
      await settled;
      assert.equal(server.calls.length, attempts, `status ${status}`);
    }
  });

  it('honours Retry-After in seconds on the injected clock', async () => {
    const { controller, server, clock } = setup();
    const promise = controller.fetch(PostResource.get, { id: 1 });
    (await arrived(server)).take().respond(503, undefined, { 'Retry-After': '2' });
    await flush();
    clock.advance(1_999);
    await arrived(server);
    assert.equal(server.waiting.length, 0, 'not before 2 s');
    clock.advance(1);
    (await arrived(server)).take(`GET ${prefix}/posts/1`).respond(200, { id: '1', title: 'ok' });
    assert.equal(((await promise) as Post).title, 'ok');
  });

  it('honours Retry-After as an HTTP date, read on the injected clock', async () => {
    const { controller, server, clock } = setup();
    const promise = controller.fetch(PostResource.get, { id: 1 });
    const at = new Date(clock.now() + 5_000).toUTCString();
    (await arrived(server)).take().respond(429, undefined, { 'Retry-After': at });
    await flush();
    // toUTCString drops the milliseconds of the fake clock's start: up to 1 s less.
    clock.advance(3_999);
    await arrived(server);
    assert.equal(server.waiting.length, 0);
    clock.advance(1_001);
    (await arrived(server)).take().respond(200, { id: '1' });
    await promise;
    assert.equal(server.calls.length, 2);
  });

  it('a Retry-After past 30 s ends the retries with that error', async () => {
    const { controller, server } = setup();
    const promise = controller.fetch(PostResource.get, { id: 1 });
    (await arrived(server)).take().respond(503, undefined, { 'Retry-After': '3600' });
    await assert.rejects(promise, { status: 503 });
    assert.equal(server.calls.length, 1);
  });

  it('waits while offline and tries again once online', async (t) => {
    noJitter(t);
    const { controller, server, clock } = setup();
    const promise = controller.fetch(get, { id: '1' });
    controller.offline();
    server.take().fail(new TypeError('Failed to fetch'));
    await flush();
    clock.advance(60_000);
    await flush();
    assert.equal(server.waiting.length, 0, 'no attempt while offline');
    controller.online();
    await flush();
    server.take().respond(200, { id: '1', title: 'online' });
    assert.equal(((await promise) as Todo).title, 'online');
  });

  it('an abort while waiting ends the wait: no next attempt, no timer, nothing stored', async (t) => {
    noJitter(t);
    const { controller, server, clock } = setup();
    const stop = controller.subscribe(get, { id: '1' });
    controller.fetchIfStale(get, { id: '1' });
    server.take().respond(503);
    await flush();
    assert.equal(controller.stats().timers > 0, true);
    stop(); // the last reader leaves: the read nobody awaits is aborted
    await flush();
    assert.equal(controller.stats().inFlight, 0);
    clock.advance(60_000);
    await flush();
    assert.equal(server.calls.length, 1);
    assert.equal(controller.getError(get, { id: '1' }), undefined);
  });

  it('the soft-error backoff counts failed requests, not attempts', async (t) => {
    noJitter(t);
    const { controller, server, clock } = setup();
    const failed = assert.rejects(controller.fetch(get, { id: '1' }));
    for (let attempt = 0; attempt < 3; attempt++) {
      server.take().respond(503);
      await flush();
      if (attempt < 2) clock.advance(2_000);
      await flush();
    }
    await failed;
    // One failed read: its error holds readers back for the base 1 s, not 4 s.
    const read = controller.getResponse(get, { id: '1' });
    assert.equal(read.expiryStatus, ExpiryStatus.Invalid);
    clock.advance(1_000);
    assert.equal(controller.getError(get, { id: '1' }), read.error);
    clock.advance(1);
    assert.equal(controller.getError(get, { id: '1' }), undefined);
  });
});

describe('retries of mutations and the retry option', () => {
  it('POST, PUT, PATCH and DELETE are never retried by default', async () => {
    const { controller, server, clock } = setup();
    const PostList = createResource({
      urlPrefix: prefix,
      path: '/posts/:id',
      schema: Post,
      retry: 5,
    });
    const calls = [
      controller.fetch(PostList.getList.push, { title: 'x' }),
      controller.fetch(PostList.update, { id: 1 }, { title: 'x' }),
      controller.fetch(PostList.partialUpdate, { id: 1 }, { title: 'x' }),
      controller.fetch(PostList.delete, { id: 1 }),
    ];
    await arrived(server);
    for (const request of [...server.waiting]) request.respond(503);
    await Promise.allSettled(calls);
    clock.advance(120_000);
    await arrived(server);
    assert.deepEqual(
      server.calls.map((call) => call.method),
      ['POST', 'PUT', 'PATCH', 'DELETE'],
    );
  });

  it('a mutation that opts in is retried', async (t) => {
    noJitter(t);
    const { controller, server, clock } = setup();
    const create = fakeEndpoint({ path: '/todos', method: 'POST', schema: Todo, retry: 1 });
    const promise = controller.fetch(create, {}, { title: 'x' });
    server.take().respond(503);
    await flush();
    clock.advance(500);
    await flush();
    server.take('POST /todos').respond(201, { id: '1', title: 'x' });
    assert.equal(((await promise) as Todo).id, '1');
  });

  it('an optimistic mutation waiting for its retry stays above the reads made meanwhile, and its answer is newer than them', async () => {
    const { controller, server, clock } = setup();
    const Posts = createResource({
      urlPrefix: prefix,
      path: '/posts/:id',
      schema: Post,
      optimistic: true,
    });
    const rename = Posts.partialUpdate.extend({ retry: (failures) => failures <= 1 && 1_500 });
    const titles = () => (controller.getResponse(Posts.getList, {}).data ?? []).map((p) => p.title);
    const list = controller.fetch(Posts.getList, {});
    (await arrived(server)).take().respond(200, [{ id: '1', title: 'old' }]);
    await list;
    clock.advance(10);

    const renamed = controller.fetch(rename, { id: '1' }, { title: 'new' });
    (await arrived(server)).take(`PATCH ${prefix}/posts/1`).respond(503);
    await flush();
    assert.deepEqual(titles(), ['new']);
    // The list read again during the backoff: the server has not applied the rename.
    clock.advance(500);
    const during = controller.refetch(Posts.getList, {});
    (await arrived(server)).take(`GET ${prefix}/posts`).respond(200, [{ id: '1', title: 'old' }]);
    await during;
    assert.deepEqual(titles(), ['new'], 'the waiting rename stays above the read');

    clock.advance(1_000);
    (await arrived(server)).take(`PATCH ${prefix}/posts/1`).respond(200, { id: '1', title: 'new' });
    assert.equal((await renamed).title, 'new');
    assert.deepEqual(titles(), ['new'], 'the answer of the retry is newer than that read');
    const stored = controller.getState().entities.RetryPost as Record<string, { title: string }>;
    assert.equal(stored['1']!.title, 'new');
  });

  it('a count sets the retries; a function decides and may give the delay', async () => {
    const { controller, server, clock } = setup();
    const once = fakeEndpoint({ path: '/a/:id', retry: 0 });
    const none = controller.fetch(once, { id: '1' });
    server.take().respond(503);
    await assert.rejects(none);
    assert.equal(server.calls.length, 1);

    const seen: number[] = [];
    const custom = fakeEndpoint({
      path: '/b/:id',
      // Retries a 404 too (a record that is being created), after 250 ms, twice.
      retry: (failures, error) => {
        seen.push(failures);
        return failures <= 2 && (error as { status?: number }).status === 404 ? 250 : false;
      },
    });
    const promise = controller.fetch(custom, { id: '1' });
    for (let attempt = 0; attempt < 2; attempt++) {
      server.take().respond(404);
      await flush();
      clock.advance(250);
      await flush();
    }
    server.take().respond(404);
    await assert.rejects(promise, { status: 404 });
    assert.deepEqual(seen, [1, 2, 3]);
    assert.equal(server.calls.length, 4);
  });
});

describe('the Controller and retries', () => {
  it('retry: 0 on the Controller turns retries of reads off; an endpoint may still set its own', async (t) => {
    noJitter(t);
    const { controller, server, clock } = setup({ retry: 0 });
    const off = controller.fetch(get, { id: '1' });
    server.take().respond(503);
    await assert.rejects(off, { status: 503 });
    const own = fakeEndpoint({ path: '/own/:id', retry: 1 });
    const retried = controller.fetch(own, { id: '1' });
    server.take().respond(503);
    await flush();
    clock.advance(500);
    await flush();
    server.take('GET /own/1').respond(200, {});
    await retried;
    assert.equal(server.calls.length, 3);
  });

  it('a read that a newer answer overtook while it waited sends no further attempt', async (t) => {
    noJitter(t);
    const { controller, server, clock } = setup();
    const older = assert.rejects(controller.fetch(get, { id: '1' }), { status: 503 });
    server.take().respond(503);
    await flush();
    const newer = controller.refetch(get, { id: '1' });
    server.take().respond(200, { id: '1', title: 'newer' });
    await newer;
    clock.advance(500);
    await flush();
    assert.equal(server.calls.length, 2, 'no third attempt');
    await older;
    assert.equal(controller.getError(get, { id: '1' }), undefined);
    assert.equal((controller.getResponse(get, { id: '1' }).data as Todo).title, 'newer');
  });

  it("a retry function's delay is clamped to what timers can wait (2^31-1 ms)", async () => {
    const clock = new FakeClock();
    const delays: number[] = [];
    const { server, controller } = setup({
      now: clock.now,
      timers: {
        setTimeout: (callback, ms) => (delays.push(ms), clock.timers.setTimeout(callback, ms)),
        clearTimeout: clock.timers.clearTimeout,
      },
    });
    const patient = fakeEndpoint({
      path: '/p/:id',
      retry: (failures) => failures === 1 && 2 ** 40,
    });
    const promise = controller.fetch(patient, { id: '1' });
    server.take().respond(503);
    await flush();
    assert.deepEqual(delays, [2 ** 31 - 1]);
    clock.advance(2 ** 31 - 1);
    await flush();
    server.take().respond(200, {});
    await promise;
  });

  it('refuses a retry option that is neither a count nor a function, naming the Controller', () => {
    assert.throws(() => setup({ retry: -1 }), /^TypeError: Controller: retry must be/);
  });

  it('a read whose answer would be dropped is not tried again (a newer answer, a reset)', async (t) => {
    noJitter(t);
    const { controller, server, clock } = setup();
    const older = controller.fetch(get, { id: '1' });
    const newer = controller.refetch(get, { id: '1' });
    const [first, second] = [server.take(), server.take()];
    second.respond(200, { id: '1', title: 'newer' });
    await newer;
    first.respond(503);
    await assert.rejects(older, { status: 503 });
    const beforeReset = controller.fetch(get, { id: '2' });
    controller.resetEntireStore();
    server.take().respond(503);
    await assert.rejects(beforeReset, { status: 503 });
    clock.advance(60_000);
    await flush();
    assert.equal(server.calls.length, 3);
    assert.equal(controller.getError(get, { id: '1' }), undefined);
  });
});

describe('reset and retries', () => {
  it('a reset ends a wait between attempts: the caller is answered at once, with the last failure, and nothing is stored', async (t) => {
    noJitter(t);
    // No GC: its timer would be counted with the wait's.
    const { controller, server, clock } = setup({ gcTime: Infinity });
    const awaited = controller.fetch(get, { id: '1' });
    server.take('GET /todos/1').respond(503);
    await flush();
    assert.equal(controller.stats().timers, 1, 'waiting to try again');
    controller.resetEntireStore();
    let settled = false;
    const outcome = assert.rejects(awaited, { status: 503 }).then(() => (settled = true));
    await flush();
    // Before: the promise settled only when the backoff ended, however long it was.
    assert.ok(settled, 'the caller does not wait for the backoff');
    await outcome;
    assert.equal(controller.stats().timers, 0);
    assert.equal(controller.stats().inFlight, 0);
    assert.equal(controller.getError(get, { id: '1' }), undefined, 'the failure is from before');
    clock.advance(60_000);
    await flush();
    assert.equal(server.calls.length, 1, 'nothing sent after the reset');
  });
});

describe('dispose and retries', () => {
  it('dispose ends a wait between attempts: the read fails with its last failure, no timer, no request after', async (t) => {
    noJitter(t);
    const { controller, server, clock } = setup();
    const stop = controller.subscribe(get, { id: '1' });
    controller.fetchIfStale(get, { id: '1' });
    const awaited = controller.fetch(get, { id: '2' });
    server.take('GET /todos/1').respond(500);
    server.take('GET /todos/2').respond(503);
    await flush();
    assert.equal(controller.stats().timers, 2, 'two waits between attempts');
    controller.dispose();
    await assert.rejects(awaited, { status: 503 });
    await flush();
    assert.equal(controller.stats().timers, 0);
    assert.equal(controller.stats().inFlight, 0);
    // The failures are the reads' own: readers see them, as when the retries run out.
    assert.equal((controller.getError(get, { id: '1' }) as { status: number }).status, 500);
    assert.equal((controller.getError(get, { id: '2' }) as { status: number }).status, 503);
    clock.advance(60_000);
    await flush();
    assert.equal(server.calls.length, 2, 'nothing sent after dispose');
    stop();
  });

  it('after dispose a read is sent when asked, once: no retry starts', async (t) => {
    noJitter(t);
    const { controller, server } = setup();
    controller.dispose();
    const promise = controller.fetch(get, { id: '1' });
    server.take().respond(503);
    await assert.rejects(promise, { status: 503 });
    assert.equal(controller.stats().timers, 0);
    assert.equal(server.calls.length, 1);
  });

  it('a request in flight at dispose settles once and stores its answer', async () => {
    const { controller, server } = setup();
    const promise = controller.fetch(get, { id: '1' });
    await flush();
    controller.dispose();
    server.take().respond(200, { id: '1', title: 'finished' });
    assert.equal(((await promise) as Todo).title, 'finished');
    assert.equal((controller.getResponse(get, { id: '1' }).data as Todo).title, 'finished');
  });
});

describe('retryDelay and retryAfter', () => {
  const read = fakeEndpoint({ path: '/x' });
  const error503 = Object.assign(new Error('503'), { status: 503 });
  const now = () => 0;

  it('backs off exponentially with equal jitter, up to 30 s', (t) => {
    t.mock.method(Math, 'random', () => 0.999);
    const custom = fakeEndpoint({ path: '/x', retry: 10 });
    const delays = [1, 2, 3, 4, 5, 6, 7].map((n) => retryDelay(custom, n, error503, now)!);
    assert.ok(delays.every((delay, i) => i === 0 || delay > delays[i - 1]! || delay >= 29_000));
    assert.ok(delays[0]! >= 500 && delays[0]! < 1_000);
    assert.ok(delays[6]! <= 30_000);
    t.mock.method(Math, 'random', () => 0);
    assert.equal(retryDelay(custom, 1, error503, now), 500);
    assert.equal(retryDelay(read, 3, error503, now), undefined, 'default: two retries');
  });

  it('reads Retry-After seconds and dates, and ignores what it cannot read', () => {
    const withHeader = (value: string) => ({
      response: new Response(null, { status: 503, headers: { 'Retry-After': value } }),
    });
    assert.equal(retryAfter(withHeader('3'), now), 3_000);
    assert.equal(retryAfter(withHeader('Thu, 01 Jan 1970 00:00:10 GMT'), now), 10_000);
    assert.equal(
      retryAfter(withHeader('Thu, 01 Jan 1970 00:00:10 GMT'), () => 20_000),
      0,
    );
    assert.equal(retryAfter(withHeader('soon'), now), undefined);
    assert.equal(retryAfter(new Error('no response'), now), undefined);
  });

  it('reads fractional seconds as seconds, and no bare number as a date', () => {
    const withHeader = (value: string) => ({
      response: new Response(null, { status: 503, headers: { 'Retry-After': value } }),
    });
    const later = () => Date.parse('2030-01-01T00:00:00Z');
    // V8's Date.parse reads "1.5" as 5 January 2001 and "-1" as 2001: a date long past, so the
    // read was tried again at once instead of after the wait the server asked for.
    assert.equal(retryAfter(withHeader('1.5'), later), 1_500);
    assert.equal(retryAfter(withHeader(' 0.25 '), later), 250);
    assert.equal(retryAfter(withHeader('-1'), later), undefined);
    assert.equal(retryAfter(withHeader('2.0.1'), later), undefined);
    assert.equal(retryAfter(withHeader('Tue, 01 Jan 2030 00:00:03 GMT'), later), 3_000);
  });

  // Rewritten against the public API: the check moved from retryDelay (once per failure) to the
  // one development-only options check (protocol/check-options.ts), run when a request starts.
  it('names the endpoint when its retry option is neither a count nor a function', async () => {
    const { controller, server } = setup();
    const bad = fakeEndpoint({ path: '/x', retry: 'often' as never, name: 'getX' });
    await assert.rejects(controller.fetch(bad), /^TypeError: getX: retry must be/);
    assert.equal(server.calls.length, 0, 'nothing was sent');
  });
});
