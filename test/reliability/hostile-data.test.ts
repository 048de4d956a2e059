// Values an attacker (or an unlucky user) controls: path and query values that try to change
// where a request goes, and payload keys and pks that try to reach a prototype. Requests go over a
// real socket; the URL asserted is the one the server received.
import { afterEach, beforeEach, describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Controller } from '../../src/core/controller/controller.js';
import { createResource } from '../../src/core/rest/create-resource.js';
import { RestEndpoint } from '../../src/core/rest/rest-endpoint.js';
import { Entity } from '../../src/core/schema/entity.js';
import {
  failOnUnhandledRejection,
  rejectionOf,
  send,
  fileServer,
  storedData,
  type ServedRequest,
} from './support.js';

class Doc extends Entity {
  id = '';
  title = '';
  owner: Owner | null = null;
  pk() {
    return this.id;
  }
  static key = 'RelDoc';
}

class Owner extends Entity {
  id = '';
  name = '';
  pk() {
    return this.id;
  }
  static key = 'RelOwner';
}
Doc.schema = { owner: Owner };

failOnUnhandledRejection();

const server = fileServer();

/** Echoes: GET /groups/:group/docs/:id answers a doc whose id is the decoded last segment. */
function echoRoutes(): void {
  server.route((request, response) => {
    const path = new URL(request.url, server.origin).pathname;
    const segments = path.split('/').slice(1).map(decodeURIComponent);
    const id = segments[segments.length - 1] ?? '';
    send(response, 200, JSON.stringify({ id: id || 'list', title: `Doc ${id}` }));
  });
}

/** The path of a request as the server got it, split into decoded segments. */
function segmentsOf(request: ServedRequest): string[] {
  return new URL(request.url, server.origin).pathname.split('/').slice(1).map(decodeURIComponent);
}

const getDoc = () =>
  new RestEndpoint({ path: '/groups/:group/docs/:id', schema: Doc, urlPrefix: server.origin });

const HOSTILE_SEGMENTS = [
  '../',
  '../../admin',
  '..%2F..%2Fadmin',
  'a/b',
  '/',
  '?admin=1',
  'x?y#z',
  '#top',
  '%',
  '%2e%2e',
  '%00',
  '100%',
  'ü',
  '日本語',
  '🙂',
  ' spaced out ',
  '\\..\\',
  ';jsessionid=1',
  '...',
  'a\nb',
];

describe('reliability: path values never change the path', () => {
  beforeEach(echoRoutes);

  for (const value of HOSTILE_SEGMENTS) {
    it(`path value ${JSON.stringify(value)} stays one segment`, async () => {
      const controller = new Controller();
      const before = server.requests.length;
      const doc = await controller.fetch(getDoc(), { group: value, id: value });
      const sent = server.requests.slice(before);
      assert.equal(sent.length, 1);
      const segments = segmentsOf(sent[0]!);
      assert.deepEqual(segments, ['groups', value, 'docs', value]);
      assert.equal(new URL(sent[0]!.url, server.origin).search, '', 'no query appeared');
      assert.equal(doc.id, value);
      // Stored under the value as a pk, read back by the same value.
      assert.equal(controller.getResponse(getDoc(), { group: value, id: value }).data?.id, value);
    });
  }

  for (const value of ['', '.', '..', 'half an emoji \uD83D']) {
    it(`path value ${JSON.stringify(value)} is refused with a clear error, nothing sent`, async () => {
      const controller = new Controller();
      const endpoint = getDoc();
      await controller.fetch(endpoint, { group: 'g', id: 'kept' });
      const stored = storedData(controller);
      const before = server.requests.length;
      const error = await rejectionOf(controller.fetch(endpoint, { group: 'g', id: value }));
      assert.match(error.message, /Path parameter "id" for path "\/groups\/:group\/docs\/:id"/);
      assert.equal(server.requests.length, before, 'nothing was sent');
      assert.equal(storedData(controller), stored);
      assert.equal((await controller.fetch(endpoint, { group: 'g', id: 'next' })).id, 'next');
    });
  }
});

describe('reliability: query values never change the query', () => {
  beforeEach(echoRoutes);

  const values = ['a&b=c', '=', '==x', '#frag', '?q', '&', '%26', 'a+b', 'ü&ö', ' x ', '[]', ''];
  for (const value of values) {
    it(`query value ${JSON.stringify(value)} arrives as one value of one name`, async () => {
      const list = new RestEndpoint({
        path: '/groups/:group/docs',
        urlPrefix: server.origin,
        searchParams: {} as { q?: string; tag?: string[] },
      });
      const before = server.requests.length;
      await new Controller().fetch(list, { group: 'g', q: value, tag: [value, 'second'] });
      const sent = server.requests[before]!;
      const url = new URL(sent.url, server.origin);
      assert.equal(url.pathname, '/groups/g/docs');
      assert.equal(url.hash, '');
      assert.deepEqual([...url.searchParams.keys()], ['q', 'tag', 'tag']);
      assert.equal(url.searchParams.get('q'), value);
      assert.deepEqual(url.searchParams.getAll('tag'), [value, 'second']);
    });
  }

  it('hostile query names are encoded too', async () => {
    const list = new RestEndpoint({ path: '/docs', urlPrefix: server.origin });
    const params = { 'a&b': '1', 'c=d': '2', '#e': '3', '__proto__?': '4' };
    const before = server.requests.length;
    await new Controller().fetch(list, params);
    const url = new URL(server.requests[before]!.url, server.origin);
    assert.deepEqual(Object.fromEntries(url.searchParams), params);
  });
});

/** Own property names of the prototypes a hostile payload could reach. */
function prototypeShapes(): string {
  const shape = (object: object) => Reflect.ownKeys(object).map(String).sort().join(',');
  return JSON.stringify([
    shape(Object.prototype),
    shape(Function.prototype),
    shape(Array.prototype),
    shape(Entity.prototype),
    shape(Doc.prototype),
    shape(Owner.prototype),
    shape(Entity),
    shape(Doc),
  ]);
}

describe('reliability: keys that name prototypes are plain data', () => {
  const shapes = prototypeShapes();
  const Docs = () =>
    createResource({ path: '/docs/:id', schema: Doc, urlPrefix: server.origin, optimistic: true });

  afterEach(() => {
    assert.equal(prototypeShapes(), shapes, 'no prototype gained or lost a property');
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(({} as Record<string, unknown>).title, undefined);
    assert.equal(typeof Doc.prototype.pk, 'function');
    assert.equal(Object.getPrototypeOf({}), Object.prototype);
  });

  const HOSTILE_KEYS = ['__proto__', 'constructor', 'prototype'];

  it('payload keys __proto__, constructor and prototype are stored and read as data', async () => {
    // JSON.parse makes `__proto__` an own key, exactly as a server response would.
    const body =
      '{"id":"d1","title":"t","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},' +
      '"prototype":{"polluted":true},"owner":{"id":"o1","name":"n","__proto__":{"polluted":true}}}';
    server.route((_, response) => send(response, 200, body));
    const controller = new Controller();
    const doc = await controller.fetch(Docs().get, { id: 'd1' });
    assert.ok(doc instanceof Doc);
    assert.equal(doc.title, 't');
    assert.ok(doc.owner instanceof Owner);
    assert.equal((doc as unknown as Record<string, unknown>).polluted, undefined);
    assert.equal(doc.owner!.name, 'n');
    const stored = controller.getState().entities.RelDoc!.d1 as Record<string, unknown>;
    assert.ok(Object.hasOwn(stored, '__proto__'), '__proto__ is an own data property');
    assert.deepEqual(JSON.parse(JSON.stringify(stored)).__proto__, { polluted: true });
  });

  for (const pk of [...HOSTILE_KEYS, 'hasOwnProperty', 'toString', 'valueOf']) {
    it(`pk ${JSON.stringify(pk)} is one entity among others, in every member`, async () => {
      server.route((request, response) => {
        if (request.method === 'DELETE') return send(response, 204, '');
        const id = decodeURIComponent(new URL(request.url, server.origin).pathname.split('/')[2]!);
        const body = request.body ? JSON.parse(request.body) : {};
        send(response, 200, JSON.stringify({ id, title: `Doc ${id}`, ...body }));
      });
      const resource = Docs();
      const controller = new Controller();
      await controller.fetch(resource.get, { id: 'other' });
      const doc = await controller.fetch(resource.get, { id: pk });
      assert.equal(doc.id, pk);
      assert.equal(doc.title, `Doc ${pk}`);
      const table = controller.getState().entities.RelDoc!;
      assert.ok(Object.hasOwn(table, pk));
      assert.deepEqual(Object.keys(table).sort(), ['other', pk].sort());
      const patched = await controller.fetch(resource.partialUpdate, { id: pk }, { title: 'new' });
      assert.equal(patched.title, 'new');
      await controller.fetch(resource.delete, { id: pk });
      assert.equal(controller.getResponse(resource.get, { id: 'other' }).data?.title, 'Doc other');
      assert.equal(controller.getResponse(resource.get, { id: pk }).expiryStatus, 'invalid');
    });
  }

  it('list arguments named __proto__ and constructor are list ids, not prototypes', async () => {
    server.route((request, response) =>
      send(
        response,
        200,
        request.method === 'POST' ? request.body : JSON.stringify([{ id: 'l1', title: 'x' }]),
      ),
    );
    const resource = Docs();
    const controller = new Controller();
    const args = JSON.parse('{"__proto__":"p","constructor":"c","prototype":"q"}');
    const list = await controller.fetch(resource.getList, args);
    assert.equal(list.length, 1);
    assert.equal(controller.getResponse(resource.getList, args).data?.length, 1);
    const created = await controller.fetch(resource.getList.push, args, { id: 'l2', title: 'y' });
    assert.equal(created.id, 'l2');
    assert.deepEqual(
      controller.getResponse(resource.getList, args).data?.map((doc) => doc.id),
      ['l1', 'l2'],
    );
  });

  it('a state restored from hostile JSON touches no prototype', async () => {
    const initialState = JSON.parse(
      '{"entities":{"__proto__":{"polluted":true},"RelDoc":{"__proto__":{"id":"__proto__","title":"p"}}},' +
        '"endpoints":{"__proto__":{"polluted":true}},"meta":{"__proto__":{"polluted":true}}}',
    );
    const controller = new Controller({ initialState });
    // The entity stored under the pk "__proto__" is the one read (a get may be served from the
    // entity table); nothing inherited is ever read as data.
    const value = controller.getResponse(Docs().get, { id: '__proto__' });
    if (value.data !== undefined) {
      assert.ok(value.data instanceof Doc);
      assert.deepEqual(
        { id: value.data.id, title: value.data.title },
        { id: '__proto__', title: 'p' },
      );
    }
    assert.equal(controller.getResponse(Docs().get, { id: 'polluted' }).data, undefined);
    assert.equal(
      (controller.getState().entities.RelDoc!.__proto__ as { title?: string }).title,
      'p',
    );
  });
});
