// Credentials: a request carries exactly what requestInit, getRequestInit and useInit put there,
// and no error (message, JSON, inspection, stored state) ever carries a request header or token.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { inspect } from 'node:util';
import { Controller } from '../../src/core/controller/controller.js';
import { createResource } from '../../src/core/rest/create-resource.js';
import { hookifyResource } from '../../src/core/rest/hookify-resource.js';
import { RestEndpoint } from '../../src/core/rest/rest-endpoint.js';
import { Entity } from '../../src/core/schema/entity.js';
import { fakeFetch, json } from '../../src/core/rest/test-utils/fake-fetch.js';
import { failOnUnhandledRejection, rejectionOf, send, sleep, fileServer } from './support.js';

class Note extends Entity {
  id = '';
  text = '';
  pk() {
    return this.id;
  }
  static key = 'RelNote';
}

const SECRETS = ['Bearer s3cr3t-bearer', 'tok-4ccess', 'session=c00kie', 'x-s3cr3t-value'];

/** Headers an app would set to authenticate, every one a secret. */
const AUTH_HEADERS = {
  Authorization: SECRETS[0]!,
  'Access-Token': SECRETS[1]!,
  Cookie: SECRETS[2]!,
  'X-Api-Key': SECRETS[3]!,
};

failOnUnhandledRejection();

const server = fileServer();

function noteRoutes(): void {
  server.route((request, response) => {
    const id = new URL(request.url, server.origin).pathname.split('/')[2] ?? 'n';
    if (request.method === 'GET' && id === 'n') return send(response, 200, '[]');
    send(response, 200, JSON.stringify({ id, text: 'hello' }));
  });
}

const resource = () =>
  createResource({ path: '/notes/:id', schema: Note, urlPrefix: server.origin });

/** The headers of the last request the server got, names lower-cased as on the wire. */
const lastHeaders = () => server.requests[server.requests.length - 1]!.headers;

/** Headers any fetch adds by itself: nothing the library or the app chose. */
const TRANSPORT = new Set([
  'host',
  'connection',
  'accept',
  'accept-language',
  'accept-encoding',
  'sec-fetch-mode',
  'user-agent',
  'content-length',
]);
const chosenHeaders = (headers: Readonly<Record<string, unknown>>) =>
  Object.keys(headers)
    .filter((name) => !TRANSPORT.has(name))
    .sort();

describe('reliability: only what the app sets is sent', () => {
  it('a plain GET sends no header of its own and no credentials', async () => {
    const fake = fakeFetch(() => json({ id: '1', text: 'x' }));
    await new Controller({ fetch: fake.fetch }).fetch(resource().get, { id: '1' });
    const { init } = fake.only();
    // The Controller's AbortSignal (so a request nobody needs can be cancelled) is no header and
    // no credential: it never leaves the page.
    assert.deepEqual(Object.keys(init).sort(), ['method', 'signal']);
    assert.ok(init.signal instanceof AbortSignal && !init.signal.aborted);
    noteRoutes();
    await new Controller().fetch(resource().get, { id: '1' });
    assert.deepEqual(chosenHeaders(lastHeaders()), []);
  });

  it('a JSON body adds only Content-Type', async () => {
    noteRoutes();
    await new Controller().fetch(resource().update, { id: '1' }, { text: 'x' });
    assert.deepEqual(chosenHeaders(lastHeaders()), ['content-type']);
    assert.equal(lastHeaders()['content-type'], 'application/json');
  });

  it('requestInit headers and credentials go on that endpoint only, exactly', async () => {
    noteRoutes();
    const base = resource();
    const authed = base.get.extend({
      requestInit: { headers: AUTH_HEADERS, credentials: 'include' },
    });
    const fake = fakeFetch(() => json({ id: '1', text: 'x' }));
    await new Controller({ fetch: fake.fetch }).fetch(authed, { id: '1' });
    assert.deepEqual(fake.only().headers, AUTH_HEADERS);
    assert.equal(fake.only().init.credentials, 'include');
    const controller = new Controller();
    await controller.fetch(authed, { id: '1' });
    assert.deepEqual(chosenHeaders(lastHeaders()), [
      'access-token',
      'authorization',
      'cookie',
      'x-api-key',
    ]);
    // The endpoint it was extended from, and its siblings, never send them.
    await controller.fetch(base.get, { id: '2' });
    assert.deepEqual(chosenHeaders(lastHeaders()), []);
    await controller.fetch(base.getList);
    assert.deepEqual(chosenHeaders(lastHeaders()), []);
    assert.equal(base.get.requestInit, undefined);
  });

  it('getRequestInit of an Endpoint class adds credentials to its members only', async () => {
    class SameOrigin extends RestEndpoint {
      override async getRequestInit(body: unknown): Promise<RequestInit> {
        return { ...(await super.getRequestInit(body)), credentials: 'same-origin' };
      }
    }
    const fake = fakeFetch((request) => json(request.method === 'GET' ? [] : { id: '1' }));
    const controller = new Controller({ fetch: fake.fetch });
    const own = createResource({ path: '/notes/:id', schema: Note, Endpoint: SameOrigin });
    const plain = createResource({ path: '/notes/:id', schema: Note });
    await controller.fetch(own.getList);
    await controller.fetch(own.partialUpdate, { id: '1' }, { text: 'x' });
    await controller.fetch(plain.getList);
    assert.deepEqual(
      fake.calls.map((call) => call.init.credentials),
      ['same-origin', 'same-origin', undefined],
    );
    assert.deepEqual(fake.calls[0]!.headers, {});
  });

  it('useInit headers follow the current token, and only hooked endpoints send them', async () => {
    noteRoutes();
    let token = 'tok-first';
    const base = resource();
    const hooks = hookifyResource(base, () => ({ headers: { 'Access-Token': token } }));
    const controller = new Controller();
    await controller.fetch(hooks.useGet(), { id: '1' });
    assert.equal(lastHeaders()['access-token'], 'tok-first');
    token = 'tok-second';
    await controller.fetch(hooks.useGetList());
    assert.equal(lastHeaders()['access-token'], 'tok-second');
    assert.deepEqual(chosenHeaders(lastHeaders()), ['access-token']);
    await controller.fetch(base.get, { id: '3' });
    assert.deepEqual(chosenHeaders(lastHeaders()), [], 'the resource itself sends no token');
    // A logged-out app (useInit gives nothing) sends nothing.
    const loggedOut = hookifyResource(base, () => undefined);
    await controller.fetch(loggedOut.useGet(), { id: '4' });
    assert.deepEqual(chosenHeaders(lastHeaders()), []);
  });
});

/** Every way an error can be shown or logged, as one string. */
function everythingAbout(error: unknown): string {
  const own = error && typeof error === 'object' ? Object.getOwnPropertyNames(error) : [];
  return [
    String(error),
    (error as Error)?.message,
    (error as Error)?.stack,
    JSON.stringify(error),
    JSON.stringify(
      own.map((name) => (error as Record<string, unknown>)[name]),
      (_key, value) => (typeof value === 'bigint' ? String(value) : value),
    ),
    inspect(error, { depth: 6, showHidden: true }),
  ].join('\n');
}

function assertNoSecret(text: string, where: string): void {
  for (const secret of SECRETS) {
    assert.ok(!text.includes(secret), `${where} carries the secret ${JSON.stringify(secret)}`);
  }
}

describe('reliability: errors never carry request headers or tokens', () => {
  const failures: [string, () => void][] = [
    [
      '401 with a JSON body',
      () => server.route((_, res) => send(res, 401, '{"message":"who are you?"}')),
    ],
    [
      '403 with an HTML body',
      () => server.route((_, res) => send(res, 403, '<h1>No</h1>', 'text/html')),
    ],
    ['500 with an empty body', () => server.route((_, res) => send(res, 500, '', ''))],
    ['malformed JSON', () => server.route((_, res) => send(res, 200, '{"id":'))],
    [
      'HTML where JSON was expected',
      () => server.route((_, res) => send(res, 200, '<p>', 'text/html')),
    ],
    ['a response missing the pk', () => server.route((_, res) => send(res, 200, '{"text":"x"}'))],
    ['a dropped connection', () => server.route((_req, _res, socket) => void socket.destroy())],
  ];

  for (const [name, arrange] of failures) {
    it(`${name}: the error and the stored state hold no header value`, async () => {
      arrange();
      const authed = resource().get.extend({ requestInit: { headers: AUTH_HEADERS } });
      const controller = new Controller();
      const error = await rejectionOf(controller.fetch(authed, { id: '1' }));
      assertNoSecret(everythingAbout(error), `the error (${error.name})`);
      assertNoSecret(inspect(error.cause, { depth: 6 }), 'its cause');
      assertNoSecret(JSON.stringify(controller.getState()), 'the stored state');
      assertNoSecret(
        everythingAbout(controller.getResponse(authed, { id: '1' }).error),
        'the read',
      );
      // The request did carry them: the test is not vacuous.
      assert.equal(lastHeaders().authorization, SECRETS[0]);
    });
  }

  it('a timeout and a user abort: the errors hold no header value', async () => {
    server.route(async (_req, res) => {
      await sleep(200);
      if (!res.destroyed) send(res, 200, '{"id":"1"}');
    });
    const controller = new Controller();
    const impatient = resource().get.extend({
      requestInit: { headers: AUTH_HEADERS },
      timeout: 20,
    });
    const timeout = await rejectionOf(controller.fetch(impatient, { id: '1' }));
    assert.equal(timeout.name, 'TimeoutError');
    assertNoSecret(everythingAbout(timeout), 'the TimeoutError');
    const user = new AbortController();
    const abortable = resource().get.extend({
      requestInit: { headers: AUTH_HEADERS, signal: user.signal },
    });
    const pending = controller.fetch(abortable, { id: '2' });
    setTimeout(() => user.abort(), 10);
    const aborted = await rejectionOf(pending);
    assert.equal(aborted.name, 'AbortError');
    assertNoSecret(everythingAbout(aborted), 'the AbortError');
  });

  it('a NetworkError made from a hook with a token holds no token', async () => {
    server.route((_, res) => send(res, 401, '{"message":"expired"}'));
    const hooks = hookifyResource(resource(), () => ({ headers: { 'Access-Token': SECRETS[1]! } }));
    const error = await rejectionOf(new Controller().fetch(hooks.useGet(), { id: '1' }));
    assert.equal(error.name, 'NetworkError');
    assert.match(error.message, /401/);
    assert.match(error.message, /expired/);
    assertNoSecret(everythingAbout(error), 'the NetworkError');
  });
});

describe('reliability: errors before the request name it and leak nothing (issue 14)', () => {
  it('an unserializable body (BigInt, a cycle) names the method and URL', async () => {
    const controller = new Controller();
    const bigint = await rejectionOf(
      controller.fetch(resource().update, { id: '1' }, { text: 10n as unknown as string }),
    );
    assert.match(
      bigint.message,
      /^PUT http:\/\/127\.0\.0\.1:\d+\/notes\/1 could not be sent: .*BigInt/,
    );
    const cyclic: Record<string, unknown> = { text: 'x' };
    cyclic.self = cyclic;
    const cycle = await rejectionOf(
      controller.fetch(resource().update, { id: '1' }, cyclic as { text: string }),
    );
    assert.match(cycle.message, /^PUT http:\/\/127\.0\.0\.1:\d+\/notes\/1 could not be sent/);
    assert.deepEqual(controller.getState().entities, {}, 'nothing was stored');
  });

  it('an invalid header value from a useInit hook is refused by name, its value never shown', async () => {
    noteRoutes();
    const token = `${SECRETS[1]!}\r\nX-Injected: 1`;
    const hooks = hookifyResource(resource(), () => ({ headers: { 'Access-Token': token } }));
    const error = await rejectionOf(new Controller().fetch(hooks.useGet(), { id: '1' }));
    assert.match(error.message, /GET http:\/\/127\.0\.0\.1:\d+\/notes\/1/);
    assert.match(error.message, /"Access-Token"/);
    assertNoSecret(everythingAbout(error), 'the header error');
  });

  it('a header value the runtime refuses for another reason is not echoed either', async () => {
    noteRoutes();
    const token = `${SECRETS[1]!}\u{1F511}`;
    const hooks = hookifyResource(resource(), () => ({ headers: { 'Access-Token': token } }));
    const error = await rejectionOf(new Controller().fetch(hooks.useGet(), { id: '1' }));
    assert.match(error.message, /GET http:\/\/127\.0\.0\.1:\d+\/notes\/1/);
    assertNoSecret(everythingAbout(error), 'the runtime header error');
  });
});
