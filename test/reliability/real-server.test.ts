// An outside review of the REST layer against a real node:http server and Node's real fetch: what
// the wire shows for URLs, bodies and headers, and what a user gets when the connection, the
// timeout or an abort cuts a response short.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Controller } from '../../src/core/controller/controller.js';
import { RestEndpoint } from '../../src/core/rest/rest-endpoint.js';
import { Entity } from '../../src/core/schema/entity.js';
import type { Timers } from '../../src/core/env/timers.js';
import {
  failOnUnhandledRejection,
  rejectionOf,
  send,
  fileServer,
  serveItems,
  startServer,
  storedData,
} from './support.js';

class Item extends Entity {
  id = '';
  title = '';
  pk() {
    return this.id;
  }
  static key = 'RealServerItem';
}

failOnUnhandledRejection();

const server = fileServer();

/** The host's timers with every wait cut to 0 ms: retries' backoff does not slow the tests. */
const quickTimers: Timers = {
  setTimeout: (callback) => setTimeout(callback, 0),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

describe('real server: a connection lost while the body is read', () => {
  /** A 200 whose body stops half-way: the server destroys the socket after the first bytes. */
  const cutBody = () =>
    server.route((_request, response, socket) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      response.write('{"id":"1","ti');
      setTimeout(() => socket.destroy(), 5);
    });

  it('says the response arrived and its body was cut, with method, URL and status', async () => {
    cutBody();
    const get = new RestEndpoint({ path: '/items/:id', urlPrefix: server.origin });
    const error = await rejectionOf(get({ id: '1' }));
    assert.match(error.message, new RegExp(`^GET ${server.origin}/items/1 `));
    assert.doesNotMatch(error.message, /before a response arrived/);
    assert.match(error.message, /200/);
    assert.ok(error.cause, 'the runtime error is kept as the cause');
    assert.match(
      error.message,
      /other side closed/,
      "Node's reason, from the runtime error's cause",
    );
  });

  it('a body that does not decompress says so, not that the connection was lost', async () => {
    server.route((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      response.end('not gzip at all');
    });
    const get = new RestEndpoint({ path: '/items/:id', urlPrefix: server.origin });
    const error = await rejectionOf(get({ id: '1' }));
    assert.match(error.message, new RegExp(`^GET ${server.origin}/items/1 answered 200`));
    assert.match(error.message, /incorrect header check/);
    assert.doesNotMatch(error.message, /connection was lost/);
  });

  it('is retried like any lost connection, and the retry is stored', async () => {
    const controller = new Controller({ timers: quickTimers });
    const get = new RestEndpoint({ path: '/items/:id', schema: Item, urlPrefix: server.origin });
    serveItems(server);
    await controller.fetch(get, { id: '2' });
    const stored = storedData(controller);
    let attempts = 0;
    server.route((request, response, socket) => {
      attempts++;
      if (attempts === 1) {
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        response.write('{"id":"1","ti');
        setTimeout(() => socket.destroy(), 5);
      } else {
        void request;
        send(response, 200, JSON.stringify({ id: '1', title: 'Item 1' }));
      }
    });
    const item = await controller.fetch(get, { id: '1' });
    assert.equal(attempts, 2, 'the cut read was tried again');
    assert.equal(item.title, 'Item 1');
    assert.equal(controller.getResponse(get, { id: '2' }).data?.title, 'Item 2');
    assert.notEqual(storedData(controller), stored);
  });
});
describe('real server: the URL on the wire', () => {
  for (const [urlPrefix, path, expected] of [
    ['/api/', '/items/:id', '/api/items/1'],
    ['/api', '/items/:id', '/api/items/1'],
    ['/', '/items/:id', '/items/1'],
    ['/api/', '/:id', '/api/1'],
  ] as const) {
    it(`urlPrefix "<origin>${urlPrefix}" and path "${path}" request ${expected}`, async () => {
      server.route((request, response) =>
        send(response, 200, JSON.stringify({ url: request.url })),
      );
      const get = new RestEndpoint({ path, urlPrefix: server.origin + urlPrefix });
      assert.deepEqual(await get({ id: 1 }), { url: expected });
      assert.equal(get.url({ id: 1 }), server.origin + expected);
      assert.equal(get.key({ id: 1 }), `GET ${server.origin}${expected}`);
    });
  }
});

describe('real server: a relative urlPrefix', () => {
  it('"/" before "/items/:id" is "/items/1", never "//items/1" (the host "items" to a browser)', () => {
    const get = new RestEndpoint({ path: '/items/:id', urlPrefix: '/' });
    assert.equal(get.url({ id: 1 }), '/items/1');
    assert.equal(new URL(get.url({ id: 1 }), 'https://app.test/').href, 'https://app.test/items/1');
  });
});

describe('real server: what a failure after the response says', () => {
  it('an error thrown by a parseResponse override names the status, not "before a response"', async () => {
    server.route((_request, response) => send(response, 200, '{}'));
    class Unwrapping extends RestEndpoint<{ path: '/items/:id' }> {
      override async parseResponse(response: Response): Promise<unknown> {
        const value = (await response.json()) as { data?: { items: unknown } };
        return value.data!.items;
      }
    }
    const get = new Unwrapping({ path: '/items/:id', urlPrefix: server.origin });
    const error = await rejectionOf(get({ id: '1' }));
    assert.match(error.message, new RegExp(`^GET ${server.origin}/items/1 answered 200`));
    assert.doesNotMatch(error.message, /before a response arrived/);
    assert.ok(error.cause instanceof TypeError, 'the override’s own error is the cause');
  });
});

describe('real server: what a failure before the response says', () => {
  it('a refused connection says why, not only "fetch failed"', async () => {
    const gone = await startServer();
    const origin = gone.origin;
    await gone.close();
    const get = new RestEndpoint({ path: '/items/:id', urlPrefix: origin });
    const error = await rejectionOf(get({ id: '1' }));
    assert.match(error.message, new RegExp(`^GET ${origin}/items/1 failed before a response`));
    assert.match(error.message, /ECONNREFUSED/);
  });

  it('a redirect loop says so', async () => {
    server.route((_request, response) => {
      response.writeHead(302, { location: '/loop' });
      response.end();
    });
    const get = new RestEndpoint({ path: '/items/:id', urlPrefix: server.origin });
    const error = await rejectionOf(get({ id: '1' }));
    assert.match(error.message, /redirect count exceeded/);
  });

  it('a redirect loop is not tried again: it reached the server every time', async () => {
    let requests = 0;
    server.route((_request, response) => {
      requests++;
      response.writeHead(302, { location: '/loop' });
      response.end();
    });
    const controller = new Controller({ timers: quickTimers });
    const get = new RestEndpoint({ path: '/items/:id', urlPrefix: server.origin });
    await assert.rejects(controller.fetch(get, { id: '1' }), /redirect count exceeded/);
    // One attempt: the request and fetch's 20 redirects. Before: three attempts, 63 requests.
    assert.equal(requests, 21);
  });
});

describe('real server: a password in urlPrefix', () => {
  it('is refused before any request, and shown nowhere: not in the error, the key or the name', async () => {
    let requests = 0;
    server.route((_request, response) => {
      requests++;
      send(response, 200, '{}');
    });
    const prefix = server.origin.replace('://', '://me:s3cret@');
    const get = new RestEndpoint({ path: '/items/:id', schema: Item, urlPrefix: prefix });
    const controller = new Controller({ timers: quickTimers });
    const error = await rejectionOf(controller.fetch(get, { id: '1' }));
    assert.match(error.message, /must not hold a user name or password/);
    assert.match(error.message, /:\/\/\*\*\*@127\.0\.0\.1/);
    const everything = JSON.stringify([
      error.message,
      String(error.cause ?? ''),
      get.key({ id: '1' }),
      get.name,
      Object.keys(controller.getState().errors),
    ]);
    assert.doesNotMatch(everything, /s3cret|me:/);
    assert.equal(requests, 0);
  });
});

describe('real server: bodies that are sent as they are', () => {
  it('a ReadableStream body is streamed to the server', async () => {
    server.route((request, response) =>
      send(
        response,
        200,
        JSON.stringify({ body: request.body, type: request.headers['content-type'] }),
      ),
    );
    const upload = new RestEndpoint({ path: '/uploads', urlPrefix: server.origin, method: 'POST' });
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('a,b\n'));
        controller.enqueue(new TextEncoder().encode('1,2\n'));
        controller.close();
      },
    });
    assert.deepEqual(await upload(body as never), { body: 'a,b\n1,2\n' });
  });
});

describe('real server: error pages in HTML', () => {
  const page = [
    '<!DOCTYPE html>',
    '<html><head><title>502 Bad Gateway</title>',
    '<style>body { width: 35em; margin: 0 auto; font-family: Tahoma, Verdana, Arial, sans-serif; }</style>',
    '<script>window.dataLayer = window.dataLayer || []; function gtag(){dataLayer.push(arguments);}</script>',
    '</head><body>',
    '<center><h1>502 Bad Gateway</h1></center>',
    '<hr><center>nginx/1.25.3</center>',
    '</body></html>',
  ].join('\n');

  it("a proxy's HTML error page gives a message of its text, not its markup", async () => {
    server.route((_request, response) => send(response, 502, page, 'text/html'));
    const get = new RestEndpoint({ path: '/items/:id', urlPrefix: server.origin });
    const error = await rejectionOf(get({ id: '1' }));
    assert.equal(
      error.message,
      `GET ${server.origin}/items/1 failed: 502 Bad Gateway: 502 Bad Gateway nginx/1.25.3`,
    );
    assert.equal((error as Error & { body?: unknown }).body, page, 'the body is kept whole');
  });
});
