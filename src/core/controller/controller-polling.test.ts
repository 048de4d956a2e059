import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { fakeEndpoint } from './test-utils/fake-endpoint.js';
import { flush } from './test-utils/fake-fetch.js';
import type { FakeServer } from './test-utils/fake-fetch.js';
import { failOnUnhandledRejection, setup } from './test-utils/harness.js';

failOnUnhandledRejection();

const price = (pollFrequency?: number) =>
  fakeEndpoint({ path: '/prices/:symbol', pollFrequency, dataExpiryLength: 1_000 });

/** Answers every waiting request with 200 and counts them. */
async function answerAll(server: FakeServer): Promise<number> {
  let count = 0;
  while (server.waiting.length > 0) {
    server.take().respond(200, { n: count++ });
  }
  await flush();
  return count;
}

for (const intervals of [true, false]) {
  describe(`polling (${intervals ? 'setInterval' : 'chained setTimeout'})`, () => {
    it('starts with the first subscriber, polls at pollFrequency, stops with the last', async () => {
      const { controller, server, clock } = setup({ gcTime: Infinity, intervals });
      const endpoint = price(1_000);
      const unsubscribe = controller.subscribe(endpoint, { symbol: 'BTC' });
      assert.equal(server.calls.length, 0, 'subscribing alone fetches nothing');
      assert.deepEqual(controller.stats(), {
        subscriptions: 1,
        timers: 1,
        listeners: 0,
        inFlight: 0,
      });
      clock.advance(999);
      assert.equal(server.calls.length, 0);
      clock.advance(1);
      assert.equal(await answerAll(server), 1);
      for (let i = 0; i < 3; i++) {
        clock.advance(1_000);
        assert.equal(await answerAll(server), 1);
      }
      unsubscribe();
      unsubscribe();
      assert.deepEqual(controller.stats(), {
        subscriptions: 0,
        timers: 0,
        listeners: 0,
        inFlight: 0,
      });
      assert.equal(clock.pending, 0, 'no timer outlives the last subscriber');
      clock.advance(10_000);
      assert.equal(server.calls.length, 4);
    });

    it('shares one timer among subscribers, at the smallest frequency', async () => {
      const { controller, server, clock } = setup({ gcTime: Infinity, intervals });
      const slow = controller.subscribe(price(1_000), { symbol: 'BTC' });
      const fast = controller.subscribe(price(300), { symbol: 'BTC' });
      const plain = controller.subscribe(price(), { symbol: 'BTC' });
      assert.equal(controller.stats().timers, 1);
      assert.equal(controller.stats().subscriptions, 3);
      for (let i = 0; i < 3; i++) {
        clock.advance(300);
        assert.equal(await answerAll(server), 1);
      }
      // The fast one leaves: back to the slow frequency.
      fast();
      assert.equal(controller.stats().timers, 1);
      clock.advance(999);
      assert.equal(await answerAll(server), 0);
      clock.advance(1);
      assert.equal(await answerAll(server), 1);
      slow();
      assert.equal(controller.stats().timers, 0, 'the remaining subscriber does not poll');
      plain();
      assert.equal(clock.pending, 0);
    });

    it('polls different requests on their own timers', async () => {
      const { controller, server, clock } = setup({ gcTime: Infinity, intervals });
      const a = controller.subscribe(price(500), { symbol: 'A' });
      const b = controller.subscribe(price(500), { symbol: 'B' });
      assert.equal(controller.stats().timers, 2);
      clock.advance(500);
      assert.deepEqual(server.waiting.map((r) => r.url).sort(), ['/prices/A', '/prices/B']);
      await answerAll(server);
      a();
      b();
      assert.equal(clock.pending, 0);
    });

    it('does not stack requests when the server is slower than the frequency', async () => {
      const { controller, server, clock } = setup({ gcTime: Infinity, intervals });
      const stop = controller.subscribe(price(100), { symbol: 'A' });
      clock.advance(500);
      assert.equal(server.waiting.length, 1, 'identical GETs share the request in flight');
      await answerAll(server);
      stop();
    });

    it('a pollFrequency of Infinity never polls; a finite one beside it still does', async () => {
      const { controller, server, clock } = setup({ gcTime: Infinity, intervals });
      const never = controller.subscribe(price(Infinity), { symbol: 'A' });
      assert.equal(controller.stats().timers, 0, 'no timer for a frequency of Infinity');
      // A day is 86,400,000 ms; timers cap at 2^31 - 1 ms (24.8 days): a whole year passes.
      for (let day = 0; day < 365; day++) clock.advance(86_400_000);
      assert.equal(server.calls.length, 0, 'nothing polled in a year');
      const often = controller.subscribe(price(1_000), { symbol: 'A' });
      clock.advance(1_000);
      assert.deepEqual(
        server.waiting.map((r) => r.url),
        ['/prices/A'],
      );
      await answerAll(server);
      never();
      often();
      assert.equal(clock.pending, 0);
    });

    it('pauses while offline and resumes online, refetching stale subscribed reads', async () => {
      const { controller, server, clock } = setup({ gcTime: Infinity, intervals });
      const endpoint = price(1_000);
      const stop = controller.subscribe(endpoint, { symbol: 'A' });
      controller.setResponse(endpoint, { symbol: 'A' }, { n: -1 });
      assert.equal(controller.isOnline, true, 'online until told otherwise');
      controller.offline();
      assert.equal(controller.isOnline, false);
      assert.equal(controller.stats().timers, 0);
      assert.equal(clock.pending, 0);
      // A subscription that starts while offline does not poll either.
      const late = controller.subscribe(price(500), { symbol: 'B' });
      assert.equal(controller.stats().timers, 0);
      late();
      clock.advance(5_000);
      assert.equal(server.calls.length, 0);
      controller.focus();
      assert.equal(server.calls.length, 0, 'no revalidation while offline');
      controller.online();
      assert.equal(controller.isOnline, true);
      assert.equal(server.calls.length, 1, 'the stale read was fetched');
      assert.equal(controller.stats().timers, 1);
      await answerAll(server);
      clock.advance(1_000);
      assert.equal(await answerAll(server), 1);
      stop();
    });
  });
}

describe('revalidation', () => {
  it('focus refetches stale and invalid subscribed reads, not fresh or unsubscribed ones', async () => {
    const { controller, server, clock } = setup({ gcTime: Infinity });
    const endpoint = fakeEndpoint({ path: '/items/:id' });
    controller.setResponse(endpoint, { id: 'fresh' }, 1);
    controller.setResponse(endpoint, { id: 'stale' }, 1);
    controller.setResponse(endpoint, { id: 'invalid' }, 1);
    controller.setResponse(endpoint, { id: 'unwatched' }, 1);
    const stops = ['fresh', 'stale', 'invalid', 'missing'].map((id) =>
      controller.subscribe(endpoint, { id }),
    );
    clock.advance(60_001);
    controller.setResponse(endpoint, { id: 'fresh' }, 2);
    controller.invalidate(endpoint, { id: 'invalid' });
    controller.focus();
    assert.deepEqual(server.waiting.map((r) => r.url).sort(), [
      '/items/invalid',
      '/items/missing',
      '/items/stale',
    ]);
    controller.focus();
    assert.equal(server.waiting.length, 3, 'no second request while in flight');
    await answerAll(server);
    stops.forEach((stop) => stop());
  });

  it('retries on focus even when the last attempt failed moments ago', async () => {
    const { controller, server } = setup({ gcTime: Infinity });
    // retry: 0: the subject is revalidation after a stored failure, not the request's own retries.
    const endpoint = fakeEndpoint({ path: '/items/:id', retry: 0 });
    const stop = controller.subscribe(endpoint, { id: '1' });
    const first = controller.fetch(endpoint, { id: '1' });
    server.take().fail();
    await assert.rejects(first);
    assert.equal(controller.fetchIfStale(endpoint, { id: '1' }), undefined);
    controller.focus();
    assert.equal(server.waiting.length, 1);
    await answerAll(server);
    stop();
  });
});
