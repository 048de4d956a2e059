import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { ExpiryStatus } from '../protocol/types.js';
import { fakeEndpoint } from './test-utils/fake-endpoint.js';
import { flush } from './test-utils/fake-fetch.js';
import { Todo } from './test-utils/entities.js';
import { failOnUnhandledRejection, setup } from './test-utils/harness.js';

failOnUnhandledRejection();

// retry: 0: these tests are about how long a stored error holds readers back; retrying (before
// anything is stored) is tested in retry.test.ts.
const get = fakeEndpoint({ path: '/todos/:id', schema: Todo, retry: 0 });

describe('expiry', () => {
  it('is valid for dataExpiryLength (default 60 s), then stale and still readable', async () => {
    const { controller, server, clock } = setup();
    const start = clock.now();
    const promise = controller.fetch(get, { id: '1' });
    clock.advance(100);
    server.take().respond(200, { id: '1', title: 'a' });
    await promise;
    // Expiry counts from when the response arrived; fetchedAt is when the request started.
    const info = controller.getResponse(get, { id: '1' });
    assert.equal(info.expiresAt, start + 100 + 60_000);
    assert.equal(controller.getState().meta['GET /todos/1']!.fetchedAt, start);
    clock.advance(60_000);
    assert.equal(controller.getResponse(get, { id: '1' }), info, 'exactly at expiresAt: valid');
    clock.advance(1);
    const stale = controller.getResponse(get, { id: '1' });
    assert.equal(stale.expiryStatus, ExpiryStatus.Stale);
    assert.equal(stale.data, info.data, 'stale data is the same object, still shown');
  });

  it('honours dataExpiryLength', () => {
    const { controller, clock } = setup();
    const short = fakeEndpoint({ path: '/todos/:id', schema: Todo, dataExpiryLength: 10 });
    controller.setResponse(short, { id: '1' }, { id: '1' });
    clock.advance(11);
    assert.equal(controller.getResponse(short, { id: '1' }).expiryStatus, ExpiryStatus.Stale);
  });

  it('invalidIfStale makes stale data unshowable', () => {
    const { controller, clock } = setup();
    const strict = fakeEndpoint({ path: '/todos/:id', schema: Todo, invalidIfStale: true });
    controller.setResponse(strict, { id: '1' }, { id: '1' });
    clock.advance(60_001);
    const info = controller.getResponse(strict, { id: '1' });
    assert.equal(info.expiryStatus, ExpiryStatus.Invalid);
    assert.equal(info.data, undefined);
  });

  it('fetchIfStale does nothing for fresh data, fetches stale data once, keeps showing it meanwhile', async () => {
    const { controller, server, clock } = setup();
    controller.setResponse(get, { id: '1' }, { id: '1', title: 'old' });
    assert.equal(controller.fetchIfStale(get, { id: '1' }), undefined);
    assert.equal(server.calls.length, 0);
    clock.advance(60_001);
    const refetch = controller.fetchIfStale(get, { id: '1' });
    assert.ok(refetch);
    assert.equal(controller.fetchIfStale(get, { id: '1' }), undefined, 'already in flight');
    assert.equal(server.calls.length, 1);
    const during = controller.getResponse(get, { id: '1' });
    assert.equal(during.expiryStatus, ExpiryStatus.Stale);
    assert.equal((during.data as Todo).title, 'old');
    server.take().respond(200, { id: '1', title: 'new' });
    assert.equal(((await refetch) as Todo).title, 'new');
    assert.equal(controller.getResponse(get, { id: '1' }).expiryStatus, ExpiryStatus.Valid);
  });

  it('fetchIfStale fetches what was never fetched', async () => {
    const { controller, server } = setup();
    const promise = controller.fetchIfStale(get, { id: '1' });
    assert.ok(promise);
    server.take().respond(200, { id: '1' });
    await promise;
  });

  it('shows an error for errorExpiryLength (default 1 s) and holds fetchIfStale back meanwhile', async () => {
    const { controller, server, clock } = setup();
    const first = controller.fetchIfStale(get, { id: '1' });
    server.take().respond(500, { message: 'down' });
    await assert.rejects(first!, { status: 500 });
    const failed = controller.getResponse(get, { id: '1' });
    assert.equal(failed.error instanceof Error, true);
    assert.equal(controller.getError(get, { id: '1' }), failed.error);
    assert.equal(failed.expiryStatus, ExpiryStatus.Invalid);
    assert.equal(controller.fetchIfStale(get, { id: '1' }), undefined, 'no retry storm');
    clock.advance(1_000);
    assert.equal(controller.getResponse(get, { id: '1' }).error, failed.error);
    clock.advance(1);
    assert.equal(controller.getResponse(get, { id: '1' }).error, undefined, 'expired');
    const retry = controller.fetchIfStale(get, { id: '1' });
    assert.ok(retry);
    server.take().respond(200, { id: '1' });
    await retry;
    assert.equal(controller.getResponse(get, { id: '1' }).expiryStatus, ExpiryStatus.Valid);
  });

  it('honours errorExpiryLength, and a success clears the error at once', async () => {
    const { controller, server, clock } = setup();
    const slow = fakeEndpoint({ path: '/todos/:id', schema: Todo, errorExpiryLength: 5_000 });
    const failing = controller.fetch(slow, { id: '1' });
    server.take().respond(404, { message: 'nope' });
    await assert.rejects(failing, { status: 404 });
    clock.advance(4_000);
    assert.ok(controller.getError(slow, { id: '1' }));
    const ok = controller.fetch(slow, { id: '1' });
    server.take().respond(200, { id: '1' });
    await ok;
    assert.equal(controller.getError(slow, { id: '1' }), undefined);
    assert.deepEqual(controller.getState().errors, {});
  });

  it('invalidate clears an error so the read is fetched again at once', async () => {
    const { controller, server } = setup();
    controller.setResponse(get, { id: '1' }, { id: '1' });
    const failing = controller.fetch(get, { id: '1' });
    server.take().respond(503);
    await assert.rejects(failing);
    controller.invalidate(get, { id: '1' });
    assert.equal(controller.getError(get, { id: '1' }), undefined);
    const refetch = controller.fetchIfStale(get, { id: '1' });
    assert.ok(refetch);
    server.take().respond(200, { id: '1' });
    await refetch;
    await flush();
  });

  it('refuses an expiry length or poll frequency that is not a number of ms, naming the endpoint, before any request', async () => {
    const { controller, server } = setup();
    // Number(process.env.X) of an unset variable, a string from a config file, a negative.
    for (const [name, length] of [
      ['dataExpiryLength', NaN],
      ['dataExpiryLength', '60000'],
      ['errorExpiryLength', NaN],
      ['errorExpiryLength', -1],
      ['pollFrequency', NaN],
    ] as const) {
      const bad = fakeEndpoint({ path: '/todos/:id', schema: Todo, [name]: length });
      const message = new RegExp(
        `GET /todos/:id: ${name} must be a number of ms \\(0 or more\\): got ${String(length)}`,
      );
      await assert.rejects(controller.fetch(bad, { id: '1' }), message);
      assert.throws(() => controller.setResponse(bad, { id: '1' }, { id: '1' }), message);
    }
    assert.equal(server.calls.length, 0, 'nothing was sent');
    assert.equal(controller.getResponse(get, { id: '1' }).data, undefined, 'nothing was stored');
    // A reader shows the error instead of fetching again and again.
    const bad = fakeEndpoint({ path: '/todos/:id', schema: Todo, errorExpiryLength: NaN });
    const observer = controller.observe(bad, { id: '1' });
    const stop = observer.subscribe(() => {});
    await flush();
    assert.equal(observer.result.status, 'error');
    assert.equal(server.calls.length, 0);
    stop();
    // Zero and Infinity are lengths.
    const edges = fakeEndpoint({
      path: '/todos/:id',
      schema: Todo,
      dataExpiryLength: Infinity,
      errorExpiryLength: 0,
    });
    controller.setResponse(edges, { id: '2' }, { id: '2' });
    assert.equal(controller.getResponse(edges, { id: '2' }).expiryStatus, ExpiryStatus.Valid);
  });
});
