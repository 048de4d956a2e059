// The endpoint's timeout and the caller's abort cover getRequestInit (an async getHeaders) as well
// as the fetch: a token refresh that hangs ends with the TimeoutError or the abort, and the
// request is never sent after it.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Controller } from '../controller/controller.js';
import { FakeClock } from '../controller/test-utils/fake-clock.js';
import { RestEndpoint } from './rest-endpoint.js';
import { fakeFetch, json } from './test-utils/fake-fetch.js';

/** An endpoint whose getHeaders waits for the test: `release(headers)` or `fail(error)`. */
function waitingForHeaders(options: { timeout?: number } = {}) {
  let release!: (headers: Record<string, string>) => void;
  let fail!: (error: Error) => void;
  let asked = 0;
  class TokenEndpoint extends RestEndpoint {
    override getHeaders(headers: Record<string, string>): Promise<HeadersInit> {
      asked++;
      return new Promise((resolve, reject) => {
        release = (extra) => resolve({ ...headers, ...extra });
        fail = reject;
      });
    }
  }
  const endpoint = new TokenEndpoint({ urlPrefix: 'https://api.test', path: '/me', ...options });
  return {
    endpoint,
    release: (headers: Record<string, string>) => release(headers),
    fail: (error: Error) => fail(error),
    asked: () => asked,
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('timeout and abort while getHeaders waits', () => {
  it('the timeout fires while getHeaders hangs: TimeoutError, and nothing is sent when it settles', async () => {
    const clock = new FakeClock();
    const fake = fakeFetch(() => json({}));
    const { endpoint, release, asked } = waitingForHeaders({ timeout: 5_000 });
    const read = endpoint.run([], { fetch: fake.fetch, timers: clock.timers });
    await tick();
    assert.equal(asked(), 1);
    clock.advance(5_000);
    // Before: the timer started only after getHeaders, so the read waited for good.
    await assert.rejects(read, {
      name: 'TimeoutError',
      message: "GET https://api.test/me timed out after 5000 ms (the endpoint's timeout)",
    });
    release({ Authorization: 'Bearer late' });
    await tick();
    assert.equal(fake.calls.length, 0, 'no request after the timeout');
  });

  it('a getHeaders that fails after the timeout is let go: no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const clock = new FakeClock();
      const { endpoint, fail } = waitingForHeaders({ timeout: 100 });
      const read = endpoint.run([], { fetch: fakeFetch().fetch, timers: clock.timers });
      await tick();
      clock.advance(100);
      await assert.rejects(read, { name: 'TimeoutError' });
      fail(new Error('token service down'));
      await tick();
      await tick();
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it("the caller's abort ends the wait for getHeaders, before and during it", async () => {
    const fake = fakeFetch(() => json({}));
    const { endpoint, release } = waitingForHeaders();
    const abort = new AbortController();
    const read = endpoint.run([], { fetch: fake.fetch, signal: abort.signal });
    await tick();
    abort.abort(new Error('nobody reads it'));
    await assert.rejects(read, {
      name: 'AbortError',
      message: 'GET https://api.test/me was aborted: nobody reads it',
    });
    release({});
    await tick();
    const already = endpoint.run([], { fetch: fake.fetch, signal: abort.signal });
    await assert.rejects(already, { name: 'AbortError' });
    assert.equal(fake.calls.length, 0);
  });

  it('a store reset while a read waits for its headers: the read ends, nothing is sent', async () => {
    const fake = fakeFetch(() => json({}));
    const { endpoint, release } = waitingForHeaders();
    const controller = new Controller({ fetch: fake.fetch });
    // A read nobody awaits (what an element starts): a reset aborts it.
    const read = controller.fetchIfStale(endpoint)!;
    await tick();
    // A logout: the read was for the user who left.
    controller.resetEntireStore();
    // Before: it waited for the headers, then went out with the new user's token.
    await assert.rejects(read, { name: 'AbortError' });
    release({});
    await tick();
    assert.equal(fake.calls.length, 0);
    assert.equal(controller.stats().inFlight, 0);
  });

  it('headers in time: the request goes out with them, and the timer is cleared', async () => {
    const clock = new FakeClock();
    const fake = fakeFetch(() => json({ id: 'me' }));
    const { endpoint, release } = waitingForHeaders({ timeout: 5_000 });
    const read = endpoint.run([], { fetch: fake.fetch, timers: clock.timers });
    await tick();
    clock.advance(4_000);
    release({ Authorization: 'Bearer t' });
    assert.deepEqual(await read, { id: 'me' });
    assert.equal(fake.only().headers.Authorization, 'Bearer t');
    assert.equal(clock.pending, 0, 'the timeout is cleared');
  });
});
