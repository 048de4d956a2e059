// docs/guide/resources.md "Arguments: URL params, then the body", docs/guide/custom-endpoint.md
// "Bodies other than JSON" and docs/guide/auth-headers.md on getHeaders: what a call sends.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { RestEndpoint } from './rest-endpoint.js';
import { fakeFetch, json, type RecordedRequest } from './test-utils/fake-fetch.js';

/** The Content-Type fetch would send for this request (its own rule for bodies it knows). */
const sentType = ({ url, init }: RecordedRequest) =>
  new Request(new URL(url, 'https://api.test'), init).headers.get('content-type');

describe('call arguments', () => {
  it('(body) alone for POST; (params, body) fills the path, then the query', async () => {
    const fake = fakeFetch(() => json({ id: '1' }));
    const post = new RestEndpoint({
      path: '/users/:userId/todos',
      method: 'POST',
      searchParams: {} as { notify?: boolean; skip?: number },
    });
    await post.run([{ userId: 1, notify: true, skip: undefined }, { title: 'x' }], fake);
    await new RestEndpoint({ path: '/todos', method: 'POST' }).run([{ title: 'y' }], fake);
    await new RestEndpoint({ path: '/todos', method: 'POST' }).run(
      [{ dryRun: true }, undefined],
      fake,
    );
    assert.deepEqual(
      fake.calls.map(({ method, url, body }) => [method, url, body]),
      [
        ['POST', '/users/1/todos?notify=true', '{"title":"x"}'],
        ['POST', '/todos', '{"title":"y"}'],
        ['POST', '/todos?dryRun=true', undefined],
      ],
    );
    assert.equal(fake.calls[2]!.headers['Content-Type'], undefined, 'no body, no Content-Type');
  });

  it('one argument to a POST whose path has a parameter is the body: the path value is missing', async () => {
    const fake = fakeFetch();
    const post = new RestEndpoint({ path: '/users/:userId/todos', method: 'POST' });
    await assert.rejects(
      // @ts-expect-error the types refuse it too: the path needs `userId`
      post.run([{ userId: 1 }], fake),
      /Missing required path parameter "userId"/,
    );
    assert.equal(fake.calls.length, 0);
  });
});

describe('bodies other than JSON', () => {
  const post = new RestEndpoint({ path: '/upload', method: 'POST' });
  const form = new FormData();
  form.set('title', 'a b');
  const cases: [string, unknown, RegExp | null][] = [
    [
      'URLSearchParams',
      new URLSearchParams({ title: 'a b' }),
      /^application\/x-www-form-urlencoded/,
    ],
    ['FormData', form, /^multipart\/form-data; boundary=/],
    ['Blob', new Blob(['a,b'], { type: 'text/csv' }), /^text\/csv$/],
    ['string', 'a,b', /^text\/plain/],
    ['bytes', new Uint8Array([1, 2]), null],
  ];

  for (const [kind, body, type] of cases) {
    it(`${kind}: sent as it is, the endpoint adding no Content-Type, fetch choosing it`, async () => {
      const fake = fakeFetch();
      await post.run([{}, body], fake);
      const request = fake.only();
      assert.equal(request.body, body);
      assert.deepEqual(request.headers, {});
      const sent = sentType(request);
      if (type) assert.match(sent!, type);
      else assert.equal(sent, null);
    });
  }

  it('a Content-Type in requestInit is sent instead, for JSON and for a raw body', async () => {
    const fake = fakeFetch();
    const patch = post.extend({
      method: 'PATCH',
      requestInit: { headers: { 'Content-Type': 'application/merge-patch+json' } },
    });
    await patch.run([{}, { title: 'x' }], fake);
    await patch.run([{}, new URLSearchParams({ a: '1' })], fake);
    for (const request of fake.calls) {
      assert.equal(sentType(request), 'application/merge-patch+json');
    }
    assert.equal(fake.calls[0]!.body, '{"title":"x"}');
  });
});

describe('getHeaders', () => {
  it('gets a plain record of the JSON Content-Type and the requestInit headers; may return Headers', async () => {
    const seen: unknown[] = [];
    class Authed extends RestEndpoint {
      override async getHeaders(headers: Record<string, string>): Promise<HeadersInit> {
        seen.push(headers);
        const out = new Headers(headers);
        out.set('Authorization', 'Bearer t0k3n');
        return out;
      }
    }
    const fake = fakeFetch();
    const endpoint = new Authed({
      path: '/todos',
      method: 'POST',
      requestInit: { headers: new Headers({ 'X-Trace': '7' }) },
    });
    await endpoint.run([{ title: 'x' }], fake);
    await endpoint.extend({ method: 'GET' }).run([], fake);
    assert.deepEqual(seen, [
      { 'Content-Type': 'application/json', 'x-trace': '7' },
      { 'x-trace': '7' },
    ]);
    assert.equal(Object.getPrototypeOf(seen[0]), Object.prototype, 'a plain record');
    // What it returns is sent (as a record).
    assert.deepEqual(fake.calls[0]!.headers, {
      authorization: 'Bearer t0k3n',
      'content-type': 'application/json',
      'x-trace': '7',
    });
  });
});
