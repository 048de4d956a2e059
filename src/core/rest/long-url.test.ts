// A URL of 100,000 characters (a query the user typed, a list of ids) in every kind of failure:
// the message shows its first 300 characters and says how many more there were; the error's
// `url` keeps it whole.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Controller } from '../controller/controller.js';
import { FakeClock } from '../controller/test-utils/fake-clock.js';
import { Entity } from '../schema/entity.js';
import { RestEndpoint } from './rest-endpoint.js';
import { json } from './test-utils/fake-fetch.js';

class Hit extends Entity {
  id = '';
  pk() {
    return this.id;
  }
  static key = 'LongUrlHit';
}

const q = 'x'.repeat(100_000);
const search = new RestEndpoint({
  urlPrefix: 'https://api.test',
  path: '/search',
  searchParams: {} as { q: string },
});
const url = `https://api.test/search?q=${q}`;
const cutUrl = `${url.slice(0, 300)}… (${url.length - 300} more characters)`;

/**
 * The message is bounded and shows the cut URL (`cut`: what it shows); `url`, where the error has
 * one, is whole.
 */
function assertCut(error: unknown, cut = `GET ${cutUrl}`): true {
  assert.ok(error instanceof Error, String(error));
  assert.ok(error.message.length < 1_000, `${error.message.length} characters`);
  assert.ok(error.message.includes(cut), error.message.slice(0, 400));
  if ('url' in error) assert.equal(error.url, url);
  return true;
}

describe('a very long URL in error messages', () => {
  it('a failure status, a body that is not JSON, a lost connection, a refused header', async () => {
    const answer = (response: Response) => async () => response;
    await assert.rejects(search.run([{ q }], { fetch: answer(json({}, 500)) }), assertCut);
    const html = new Response('<p>hi</p>', { headers: { 'content-type': 'text/html' } });
    await assert.rejects(search.run([{ q }], { fetch: answer(html) }), assertCut);
    const lost: typeof fetch = async () => {
      throw new TypeError('fetch failed', { cause: new Error('socket hang up') });
    };
    await assert.rejects(search.run([{ q }], { fetch: lost }), (error: Error) => {
      assertCut(error);
      // Named once: the check that the runtime's message does not name the URL already sees the cut.
      return assert.equal(error.message.split(cutUrl).length, 2) ?? true;
    });
    const badHeader = search.extend({ requestInit: { headers: { 'X-Token': 'a\nb' } } });
    await assert.rejects(badHeader.run([{ q }], { fetch: answer(json({})) }), assertCut);
  });

  it('a body that cannot be sent, a timeout, an abort', async () => {
    const post = search.extend({ method: 'POST', sideEffect: true });
    await assert.rejects(post.run([{ q }, { n: 1n }], { fetch: async () => json({}) }), (error) =>
      assertCut(error, `POST ${cutUrl}`),
    );

    const clock = new FakeClock();
    // Never answers; rejects with the signal's reason once it is aborted, as fetch does.
    const hang: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => {
        const signal = init?.signal;
        if (signal?.aborted) reject(signal.reason);
        signal?.addEventListener('abort', () => reject(signal.reason));
      });
    const timed = search.extend({ timeout: 1_000 });
    const late = timed.run([{ q }], { fetch: hang, timers: clock.timers });
    await new Promise((resolve) => setImmediate(resolve));
    clock.advance(1_000);
    await assert.rejects(late, (error: Error) => assertCut(error) && error.name === 'TimeoutError');

    const abort = new AbortController();
    const stopped = search.run([{ q }], { fetch: hang, signal: abort.signal });
    abort.abort(new Error('left the page'));
    await assert.rejects(
      stopped,
      (error: Error) => assertCut(error) && error.name === 'AbortError',
    );
  });

  it("a response that does not fit the schema names the request's key cut the same way", async () => {
    const hits = search.extend({ schema: [Hit] });
    const controller = new Controller({ fetch: async () => json([{ id: {} }]), retry: 0 });
    // The key is method and URL: it is cut as one.
    const key = `GET ${url}`;
    await assert.rejects(controller.fetch(hits, { q }), (error: Error) => {
      assertCut(error, `${key.slice(0, 300)}… (${key.length - 300} more characters)`);
      return /does not fit the schema/.test(error.message);
    });
  });
});
