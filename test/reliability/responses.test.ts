// Responses a real server sends when things go wrong, over the real fetch and a real socket: every
// failure status with a JSON, HTML or empty body, bodies that are not what was asked for, dropped
// connections, aborts and timeouts, and shapes that do not fit the schema. Each case checks a
// clear error naming the request, the store as it was, no unhandled rejection, and that the next
// good request still works.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Controller } from '../../src/core/controller/controller.js';
import { RestEndpoint } from '../../src/core/rest/rest-endpoint.js';
import { Entity } from '../../src/core/schema/entity.js';
import { NetworkError, ResponseFormatError } from '../../src/core/errors.js';
import type { EndpointLike } from '../../src/core/protocol/types.js';
import {
  failOnUnhandledRejection,
  rejectionOf,
  send,
  sleep,
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
  static key = 'RelItem';
}

class Node_ extends Entity {
  id = '';
  child: Node_ | null = null;
  pk() {
    return this.id;
  }
  static key = 'RelNode';
}
Node_.schema = { child: Node_ };

failOnUnhandledRejection();

const server = fileServer();

/** A good server (see `serveItems`). */
const goodRoutes = () => serveItems(server);

function endpoints(options: { timeout?: number } = {}) {
  const urlPrefix = server.origin;
  return {
    get: new RestEndpoint({ path: '/items/:id', schema: Item, urlPrefix, ...options }),
    list: new RestEndpoint({ path: '/items', schema: [Item], urlPrefix, ...options }),
  };
}

/**
 * A controller holding item 1 and the list: what every failure below must leave in place.
 */
async function stocked() {
  goodRoutes();
  const controller = new Controller();
  const { get, list } = endpoints();
  await controller.fetch(get, { id: '1' });
  await controller.fetch(list);
  return { controller, get, list, before: storedData(controller) };
}

/** After a failure: the store holds what it held, item 1 still reads, a new request works. */
async function assertStillWorking(
  controller: Controller,
  get: ReturnType<typeof endpoints>['get'],
  beforeFailure: string,
): Promise<void> {
  assert.equal(storedData(controller), beforeFailure, 'nothing stored was lost or changed');
  assert.equal(controller.getResponse(get, { id: '1' }).data?.title, 'Item 1');
  goodRoutes();
  const fresh = await controller.fetch(get, { id: '7' });
  assert.equal(fresh.title, 'Item 7');
  assert.equal(controller.stats().inFlight, 0);
}

const STATUSES = [400, 401, 403, 404, 405, 408, 409, 410, 413, 422, 429, 500, 501, 502, 503, 504];
const BODIES = {
  JSON: ['{"message":"the server explains"}', 'application/json'],
  HTML: ['<!doctype html><html><body><h1>Bad gateway</h1></body></html>', 'text/html'],
  empty: ['', ''],
} as const;

describe('reliability: every failure status', () => {
  for (const status of STATUSES) {
    for (const [kind, [body, type]] of Object.entries(BODIES)) {
      it(`${status} with a ${kind} body rejects with a NetworkError naming the request`, async () => {
        const { controller, get, before: stored } = await stocked();
        server.route((_, response) => send(response, status, body, type));
        const url = `${server.origin}/items/1`;
        const error = await rejectionOf(controller.fetch(get, { id: '1' }));
        assert.ok(error instanceof NetworkError, `got ${error}`);
        assert.equal(error.status, status);
        assert.equal(error.url, url);
        assert.match(error.message, new RegExp(`^GET ${url} failed: ${status}`));
        if (kind === 'JSON') {
          assert.deepEqual(error.body, { message: 'the server explains' });
          assert.match(error.message, /the server explains/);
        }
        if (kind === 'HTML') assert.match(String(error.body), /Bad gateway/);
        if (kind === 'empty') assert.equal(error.body, undefined);
        // The reader keeps its data and learns why the refresh failed.
        assert.equal(controller.getResponse(get, { id: '1' }).error, error);
        await assertStillWorking(controller, get, stored);
      });
    }
  }
});

describe('reliability: bodies that are not what was asked for', () => {
  const cases: [string, number, string, string, RegExp][] = [
    ['malformed JSON', 200, '{"id": "1", "title": ', 'application/json', /not valid JSON/],
    ['JSON labelled text/html', 200, '{"id":"1","title":"x"}', 'text/html', /expected JSON/],
    ['JSON labelled application/xml', 200, '{"id":"1"}', 'application/xml', /expected JSON/],
    [
      'an HTML fallback page',
      200,
      '<!doctype html><title>App</title>',
      'text/html',
      /expected JSON/,
    ],
    ['a truncated JSON document', 200, '[{"id":"1"},{"id":', 'application/json', /not valid JSON/],
  ];
  for (const [name, status, body, type, reason] of cases) {
    it(`${name} rejects with a ResponseFormatError naming the URL and Content-Type`, async () => {
      const { controller, get, before: stored } = await stocked();
      server.route((_, response) => send(response, status, body, type));
      const error = await rejectionOf(controller.fetch(get, { id: '1' }));
      assert.ok(error instanceof ResponseFormatError, `got ${error}`);
      assert.match(error.message, new RegExp(`GET ${server.origin}/items/1`));
      assert.match(error.message, new RegExp(type.replace('+', '\\+')));
      assert.match(error.message, reason);
      await assertStillWorking(controller, get, stored);
    });
  }

  it('204 on a GET of an entity rejects naming the URL and the entity', async () => {
    const { controller, get, before: stored } = await stocked();
    server.route((_, response) => {
      response.writeHead(204);
      response.end();
    });
    const error = await rejectionOf(controller.fetch(get, { id: '1' }));
    assert.equal(error.name, 'NormalizeError');
    assert.match(error.message, new RegExp(`GET ${server.origin}/items/1`));
    assert.match(error.message, /RelItem/);
    await assertStillWorking(controller, get, stored);
  });

  it('204 on a GET without a schema resolves with null', async () => {
    const { controller, before: stored } = await stocked();
    server.route((_, response) => {
      response.writeHead(204);
      response.end();
    });
    const raw = new RestEndpoint({ path: '/status', urlPrefix: server.origin });
    assert.equal(await controller.fetch(raw), null);
    const { entities } = controller.getState();
    assert.equal(JSON.stringify(entities), JSON.stringify(JSON.parse(stored).entities));
  });
});

describe('reliability: the connection itself fails', () => {
  it('a dropped connection rejects with an error naming the URL', async () => {
    const { controller, get, before: stored } = await stocked();
    server.route((_request, _response, socket) => void socket.destroy());
    const error = await rejectionOf(controller.fetch(get, { id: '1' }));
    assert.ok(error instanceof TypeError, `got ${error}`);
    assert.match(error.message, new RegExp(`GET ${server.origin}/items/1`));
    assert.ok(error.cause, 'the original failure is kept as the cause');
    await assertStillWorking(controller, get, stored);
  });

  it('a connection cut in the middle of the body rejects with an error naming the URL', async () => {
    const { controller, get, before: stored } = await stocked();
    server.route((_request, response, socket) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      response.write('{"id":"1","ti');
      setTimeout(() => socket.destroy(), 5);
    });
    const error = await rejectionOf(controller.fetch(get, { id: '1' }));
    assert.match(error.message, new RegExp(`GET ${server.origin}/items/1`));
    await assertStillWorking(controller, get, stored);
  });

  it('a server that is not there rejects with an error naming the URL', async () => {
    const { controller, get, before: stored } = await stocked();
    const gone = await startServer();
    const origin = gone.origin;
    await gone.close();
    const nowhere = new RestEndpoint({ path: '/items/:id', schema: Item, urlPrefix: origin });
    const error = await rejectionOf(controller.fetch(nowhere, { id: '1' }));
    assert.ok(error instanceof TypeError, `got ${error}`);
    assert.match(error.message, new RegExp(`GET ${origin}/items/1`));
    await assertStillWorking(controller, get, stored);
  });
});

describe('reliability: aborts and timeouts', () => {
  /** A server that answers only after `ms`. */
  const slowRoutes = (ms: number) =>
    server.route(async (request, response) => {
      await sleep(ms);
      if (!response.destroyed) send(response, 200, JSON.stringify({ id: '1', title: 'late' }));
      void request;
    });

  it('a request aborted by the user rejects with an AbortError naming the URL', async () => {
    const { controller, get, before: stored } = await stocked();
    slowRoutes(200);
    const user = new AbortController();
    const abortable = get.extend({ requestInit: { signal: user.signal } });
    const pending = controller.fetch(abortable, { id: '1' });
    setTimeout(() => user.abort(), 10);
    const error = await rejectionOf(pending);
    assert.equal(error.name, 'AbortError');
    assert.match(error.message, new RegExp(`GET ${server.origin}/items/1 was aborted`));
    await assertStillWorking(controller, get, stored);
  });

  it('an abort with a reason keeps the reason as the cause', async () => {
    const { controller, get, before: stored } = await stocked();
    slowRoutes(200);
    const user = new AbortController();
    const reason = new Error('the user navigated away');
    const pending = controller.fetch(get.extend({ requestInit: { signal: user.signal } }), {
      id: '1',
    });
    setTimeout(() => user.abort(reason), 10);
    const error = await rejectionOf(pending);
    assert.equal(error.name, 'AbortError');
    assert.equal(error.cause, reason);
    assert.match(error.message, /the user navigated away/);
    await assertStillWorking(controller, get, stored);
  });

  it('the timeout option aborts a slow request with a TimeoutError naming URL and timeout', async () => {
    const { controller, get, before: stored } = await stocked();
    slowRoutes(300);
    const { get: impatient } = endpoints({ timeout: 30 });
    const started = Date.now();
    const error = await rejectionOf(controller.fetch(impatient, { id: '1' }));
    assert.ok(Date.now() - started < 250, 'it did not wait for the server');
    assert.equal(error.name, 'TimeoutError');
    assert.match(error.message, new RegExp(`GET ${server.origin}/items/1 timed out after 30 ms`));
    assert.equal((error as Error & { timeout?: number }).timeout, 30);
    await assertStillWorking(controller, get, stored);
  });

  it('the timeout also covers a body that trickles in too slowly', async () => {
    const { controller, get, before: stored } = await stocked();
    server.route((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"id":"1",');
      setTimeout(() => response.destroyed || response.end('"title":"late"}'), 300);
    });
    const { get: impatient } = endpoints({ timeout: 40 });
    const error = await rejectionOf(controller.fetch(impatient, { id: '1' }));
    assert.equal(error.name, 'TimeoutError');
    await assertStillWorking(controller, get, stored);
  });

  it('a request faster than its timeout succeeds and leaves no timer behind', async () => {
    goodRoutes();
    const controller = new Controller({ gcTime: Infinity });
    const { get } = endpoints({ timeout: 5_000 });
    // Watch the host's timers while the request runs: the 5 s one must be cleared.
    const { setTimeout: realSet, clearTimeout: realClear } = globalThis;
    const armed = new Set<unknown>();
    let seen = 0;
    globalThis.setTimeout = ((callback: () => void, ms?: number) => {
      const handle = realSet(callback, ms);
      if (ms === 5_000) {
        armed.add(handle);
        seen++;
      }
      return handle;
    }) as typeof setTimeout;
    globalThis.clearTimeout = ((handle: Parameters<typeof clearTimeout>[0]) => {
      armed.delete(handle);
      realClear(handle);
    }) as typeof clearTimeout;
    try {
      const item = await controller.fetch(get, { id: '3' });
      assert.equal(item.title, 'Item 3');
    } finally {
      globalThis.setTimeout = realSet;
      globalThis.clearTimeout = realClear;
    }
    assert.equal(seen, 1, 'the timeout was armed');
    assert.equal(armed.size, 0, 'and cleared');
    assert.deepEqual(controller.stats(), {
      subscriptions: 0,
      timers: 0,
      listeners: 0,
      inFlight: 0,
    });
  });

  it('a timeout that is not a positive number is a clear error at call time', async () => {
    goodRoutes();
    const controller = new Controller();
    for (const timeout of [0, -1, Number.NaN]) {
      const { get } = endpoints({ timeout });
      const error = await rejectionOf(controller.fetch(get, { id: '1' }));
      assert.ok(error instanceof TypeError);
      assert.match(error.message, /timeout must be a positive number of ms/);
    }
  });
});

describe('reliability: shapes that do not fit the schema', () => {
  const shapes: [string, string, 'get' | 'list', RegExp][] = [
    ['a response missing the pk', '{"title":"no id"}', 'get', /RelItem has no pk\(\)/],
    ['an item of a list missing the pk', '[{"id":"a"},{"title":"x"}]', 'list', /at response\[1\]/],
    [
      'an array where an object is expected',
      '[{"id":"1"}]',
      'get',
      /expected an object, got an array/,
    ],
    [
      'an object where an array is expected',
      '{"id":"1"}',
      'list',
      /expected an array, got an object/,
    ],
    ['null for an entity', 'null', 'get', /got null/],
    ['null for a list', 'null', 'list', /got null/],
  ];
  for (const [name, body, which, reason] of shapes) {
    it(`${name} rejects naming the URL, the entity and where`, async () => {
      const { controller, get, list, before: stored } = await stocked();
      server.route((_, response) => send(response, 200, body));
      const endpoint: EndpointLike = which === 'get' ? get : list;
      const args = which === 'get' ? [{ id: '1' }] : [];
      const error = await rejectionOf(controller.fetch(endpoint, ...args));
      assert.equal(error.name, 'NormalizeError');
      assert.match(error.message, new RegExp(`GET ${server.origin}/items`));
      assert.match(error.message, reason);
      assert.equal(controller.getResponse(endpoint, ...args).error, error);
      await assertStillWorking(controller, get, stored);
    });
  }

  it('10,000 entities in one response are stored and read back', async () => {
    const { controller, get, list, before: stored } = await stocked();
    const many = Array.from({ length: 10_000 }, (_, i) => ({ id: `m${i}`, title: `Many ${i}` }));
    const body = JSON.stringify(many);
    server.route((_, response) => send(response, 200, body));
    const big = list.extend({ path: '/items/many' as '/items' });
    const started = Date.now();
    const items = await controller.fetch(big);
    assert.equal(items.length, 10_000);
    assert.equal(items[9_999]!.title, 'Many 9999');
    assert.ok(Date.now() - started < 5_000, 'it took less than 5 s');
    // The earlier data is still there beside the new.
    const { entities } = controller.getState();
    assert.equal(Object.keys(entities.RelItem!).length, 10_003);
    assert.deepEqual(JSON.parse(stored).entities.RelItem['1'], entities.RelItem!['1']);
    await assertStillWorking(controller, get, storedData(controller));
  });

  it('nesting 1,000 deep is stored and read back without overflowing the stack', async () => {
    const { controller, get } = await stocked();
    let deep: { id: string; child: unknown } = { id: 'n999', child: null };
    for (let i = 998; i >= 0; i--) deep = { id: `n${i}`, child: deep };
    server.route((_, response) => send(response, 200, JSON.stringify(deep)));
    const getNode = new RestEndpoint({
      path: '/nodes/:id',
      schema: Node_,
      urlPrefix: server.origin,
    });
    const root = await controller.fetch(getNode, { id: 'n0' });
    let depth = 0;
    for (let node: Node_ | null = root; node; node = node.child) depth++;
    assert.equal(depth, 1_000);
    await assertStillWorking(controller, get, storedData(controller));
  });

  it('a response whose entities refer to each other in a cycle is stored and read back', async () => {
    const { controller, get } = await stocked();
    // JSON cannot hold a cycle of objects; the cycle is made of references by pk, as APIs do.
    const ring = [
      { id: 'r1', child: 'r2' },
      { id: 'r2', child: 'r3' },
      { id: 'r3', child: { id: 'r1', child: 'r2' } },
    ];
    server.route((_, response) => send(response, 200, JSON.stringify(ring)));
    const getRing = new RestEndpoint({ path: '/ring', schema: [Node_], urlPrefix: server.origin });
    const nodes = await controller.fetch(getRing);
    assert.equal(nodes[0]!.child!.child!.child, nodes[0], 'the cycle closes on the same object');
    assert.equal(nodes[0]!.child, nodes[1]);
    await assertStillWorking(controller, get, storedData(controller));
  });

  it('a response that is a cyclic object graph (from process) is normalized and read back', async () => {
    const { controller, get } = await stocked();
    server.route((_, response) => send(response, 200, '{"id":"c1"}'));
    const cyclic = new RestEndpoint({
      path: '/cyclic',
      schema: Node_,
      urlPrefix: server.origin,
      process(value: { id: string; child?: unknown }) {
        const other = { id: 'c2', child: value };
        value.child = other;
        return value;
      },
    });
    const node = await controller.fetch(cyclic);
    assert.equal(node.child!.id, 'c2');
    assert.equal(node.child!.child, node);
    await assertStillWorking(controller, get, storedData(controller));
  });
});

describe("reliability: the app's own code throws on what the server sent", () => {
  /** An item whose `at` field the app turns into an ISO date: garbage there makes Date throw. */
  class Dated extends Entity {
    id = '';
    at = '';
    pk() {
      return this.id;
    }
    static key = 'RelDated';
    static process(input: Record<string, unknown>) {
      if (input.id === 'refuse') throw new Error('the record is flagged');
      if (input.id === 'app') throw new AppShapeError('not ours to read');
      return { ...input, at: new Date(String(input.at)).toISOString() };
    }
  }
  class AppShapeError extends Error {
    override name = 'AppShapeError';
  }

  function datedList() {
    return new RestEndpoint({
      path: '/dated',
      schema: { items: [Dated] },
      urlPrefix: server.origin,
    });
  }

  it('a RangeError from Entity.process names the URL, the entity and where, not the stack', async () => {
    const { controller, get, before: stored } = await stocked();
    const body = {
      items: [
        { id: 'd1', at: '2026-01-02' },
        { id: 'd2', at: 'next Tuesday' },
      ],
    };
    server.route((_, response) => send(response, 200, JSON.stringify(body)));
    const sent = server.requests.length;
    const error = await rejectionOf(controller.fetch(datedList()));
    assert.equal(error.name, 'NormalizeError');
    assert.equal(
      error.message,
      `GET ${server.origin}/dated answered data that does not fit the schema: Entity RelDated: Invalid time value at response.items[1]`,
    );
    assert.equal((error as Error & { path: string }).path, 'response.items[1]');
    assert.ok(error.cause instanceof RangeError, 'the RangeError Date threw is the cause');
    assert.doesNotMatch(error.message, /nested too deeply/);
    assert.equal(server.requests.length, sent + 1, 'a bad answer is not asked for again');
    await assertStillWorking(controller, get, stored);
  });

  it('a bare Error from Entity.process names the URL, the entity and where', async () => {
    const { controller, get, before: stored } = await stocked();
    const body = {
      items: [
        { id: 'd1', at: '2026-01-02' },
        { id: 'refuse', at: '2026-01-02' },
      ],
    };
    server.route((_, response) => send(response, 200, JSON.stringify(body)));
    const error = await rejectionOf(controller.fetch(datedList()));
    assert.match(
      error.message,
      new RegExp(
        `^GET ${server.origin}/dated .*Entity RelDated: the record is flagged at response\\.items\\[1\\]$`,
      ),
    );
    assert.equal((error.cause as Error).message, 'the record is flagged');
    await assertStillWorking(controller, get, stored);
  });

  it("an error class of the app's own from Entity.process passes through as it is", async () => {
    const { controller, get, before: stored } = await stocked();
    server.route((_, response) => send(response, 200, '{"items":[{"id":"app"}]}'));
    const error = await rejectionOf(controller.fetch(datedList()));
    assert.ok(error instanceof AppShapeError, `got ${error}`);
    assert.equal(error.message, 'not ours to read');
    await assertStillWorking(controller, get, stored);
  });

  it("an endpoint's process() that reads a field the answer lacks names the request", async () => {
    const { controller, get, before: stored } = await stocked();
    server.route((_, response) => send(response, 200, '{"items":[]}'));
    const unwrap = new RestEndpoint({
      path: '/wrapped',
      schema: [Item],
      urlPrefix: server.origin,
      process: (value: { data: { items: unknown[] } }) => value.data.items,
    });
    const before = server.requests.length;
    const error = await rejectionOf(controller.fetch(unwrap));
    assert.ok(error instanceof TypeError, `got ${error}`);
    assert.match(
      error.message,
      new RegExp(`^GET ${server.origin}/wrapped answered 200, then process\\(\\) failed: .*items`),
    );
    assert.ok(error.cause instanceof TypeError);
    assert.equal(server.requests.length, before + 1, 'a bug in process() is not retried');
    assert.equal(controller.getResponse(unwrap).error, error);
    // Called on its own, outside any Controller, it says the same.
    assert.match((await rejectionOf(unwrap())).message, /\/wrapped answered 200, then process\(\)/);
    await assertStillWorking(controller, get, stored);
  });

  it("an error class of the app's own from an endpoint's process() passes through as it is", async () => {
    const { controller, get, before: stored } = await stocked();
    server.route((_, response) => send(response, 200, '{"ok":false}'));
    const refused = new AppShapeError('the API said ok: false');
    const checked = new RestEndpoint({
      path: '/checked',
      urlPrefix: server.origin,
      process: () => {
        throw refused;
      },
    });
    assert.equal(await rejectionOf(controller.fetch(checked)), refused);
    await assertStillWorking(controller, get, stored);
  });

  it("an entity class's setter that refuses a stored value names the read", async () => {
    const { controller, get } = await stocked();
    class Checked extends Entity {
      id = '';
      #nick = '';
      get nick() {
        return this.#nick;
      }
      set nick(value: string) {
        if (value === 'taken') throw new RangeError('that nick is taken');
        if (value === 'ours') throw new AppShapeError('not a nick of ours');
        this.#nick = value;
      }
      pk() {
        return this.id;
      }
      static key = 'RelChecked';
    }
    const getChecked = new RestEndpoint({
      path: '/checked/:id',
      schema: Checked,
      urlPrefix: server.origin,
    });
    server.route((_, response) => send(response, 200, '{"id":"1","nick":"taken"}'));
    const error = await rejectionOf(controller.fetch(getChecked, { id: '1' }));
    assert.ok(error instanceof RangeError, `got ${error}`);
    assert.equal(
      error.message,
      `GET ${server.origin}/checked/1: its data could not be read: that nick is taken`,
    );
    assert.equal((error.cause as Error).message, 'that nick is taken');
    // Every later read of it says the same.
    assert.throws(() => controller.getResponse(getChecked, { id: '1' }), {
      message: error.message,
    });
    server.route((_, response) => send(response, 200, '{"id":"2","nick":"ours"}'));
    const ours = await rejectionOf(controller.fetch(getChecked, { id: '2' }));
    assert.ok(ours instanceof AppShapeError, `got ${ours}`);
    await assertStillWorking(controller, get, storedData(controller));
  });

  it('an Entity written in JavaScript without pk() is told so', async () => {
    const { controller, get, before: stored } = await stocked();
    // What plain JavaScript can do and TypeScript refuses: a subclass with no pk().
    // @ts-expect-error plain JavaScript can leave pk() out
    const NoPk = class extends Entity {
      static key = 'RelNoPk';
    } as unknown as typeof Item;
    server.route((_, response) => send(response, 200, '{"id":"1"}'));
    const error = await rejectionOf(
      controller.fetch(new RestEndpoint({ path: '/nopk', schema: NoPk, urlPrefix: server.origin })),
    );
    assert.match(error.message, /\/nopk .*Entity RelNoPk has no pk\(\) method/);
    assert.doesNotMatch(error.message, /reading 'call'/);
    await assertStillWorking(controller, get, stored);
  });
});
