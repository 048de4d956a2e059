// <resource-provider> taking a server-rendered store from its light DOM: before its children
// read (their first render shows the data, nothing is fetched), with expiry continuing from the
// server's fetch, errors shown then fetched again, bad JSON reported and ignored, and each
// provider reading only its own script.
import { expect } from '@open-wc/testing';
import './define-provider.js';
import type { ResourceProvider } from './resource-provider.js';
import { Controller, Entity, RestEndpoint } from '../core/index.js';
import { dehydrate } from '../hydration/index.js';
import type { DehydratedState } from '../hydration/index.js';
import { FakeServer } from '../core/controller/test-utils/fake-fetch.js';
import { defineReader, reader, textOf, until, type Reader } from './test-utils/reader.js';

class HydratedTodo extends Entity {
  id = '';
  title = '';
  pk() {
    return this.id;
  }
  static key = 'HydratedTodo';
}

const getTodo = new RestEndpoint({ path: '/mock/hydration/todos/:id', schema: HydratedTodo });
const tag = defineReader(getTodo, (todo) => todo.title);

const T0 = 1_700_000_000_000;

/** The store a server would have after fetching todo 1 at `at`. */
function serverState(at = T0, title = 'From the server'): DehydratedState {
  const server = new Controller({ now: () => at, fetch: new FakeServer().fetch });
  server.setResponse(getTodo, { id: '1' }, { id: '1', title });
  return dehydrate(server);
}

function stateScript(text: string): HTMLScriptElement {
  const script = document.createElement('script');
  script.type = 'application/json';
  script.setAttribute('data-resource-state', '');
  script.textContent = text;
  return script;
}

/** A provider with `children`, connected in one go as a parsed page would be. */
function mount(controller: Controller, ...children: Node[]): ResourceProvider {
  const provider = document.createElement('resource-provider');
  provider.controller = controller;
  provider.append(...children);
  document.body.append(provider);
  return provider;
}

let mounted: ResourceProvider | undefined;
afterEach(() => {
  mounted?.remove();
  mounted = undefined;
});

describe('<resource-provider> hydrating from a server state script', () => {
  it('takes the store before its children read: their first render shows it, nothing is fetched', async () => {
    const server = new FakeServer();
    const controller = new Controller({ now: () => T0 + 1000, fetch: server.fetch });
    const view = reader<typeof getTodo>(tag, { id: '1' }) as Reader<typeof getTodo>;
    const script = stateScript(JSON.stringify(serverState()));
    mounted = mount(controller, script, view);
    await view.updateComplete;
    expect(textOf(view)).to.equal('From the server');
    expect(view.renders).to.equal(1);
    expect(server.calls).to.have.length(0);
    // Read once: the script is gone from the page.
    expect(script.isConnected).to.equal(false);
  });

  it("continues expiry from the server's fetch: stale data shows and is refreshed", async () => {
    const server = new FakeServer();
    // Two minutes after the server fetched: past the default minute of freshness.
    const controller = new Controller({ now: () => T0 + 120_000, fetch: server.fetch });
    const view = reader<typeof getTodo>(tag, { id: '1' }) as Reader<typeof getTodo>;
    mounted = mount(controller, stateScript(JSON.stringify(serverState())), view);
    await view.updateComplete;
    expect(textOf(view)).to.equal('From the server');
    await until(() =>
      expect(server.calls.map((call) => call.url)).to.deep.equal(['/mock/hydration/todos/1']),
    );
    server.take().respond(200, { id: '1', title: 'Refreshed' });
    await until(() => expect(textOf(view)).to.equal('Refreshed'));
  });

  it('shows an error from the server as rendered there, then fetches the read again', async () => {
    const failing = new FakeServer();
    // As createServerController makes it: one attempt, no retries.
    const serverSide = new Controller({ now: () => T0, fetch: failing.fetch, retry: 0 });
    const attempt = serverSide.fetch(getTodo, { id: '1' });
    await until(() => expect(failing.calls).to.have.length(1));
    failing.take().respond(503, { error: 'down' });
    await attempt.catch(() => {});
    const state = dehydrate(serverSide);
    const [key] = Object.keys(state.errors);
    // As resource-elements/ssr hands it on: kept until the browser retries.
    const kept = {
      ...state,
      errors: { [key!]: { ...state.errors[key!]!, expiresAt: Number.MAX_SAFE_INTEGER } },
    };

    const server = new FakeServer();
    const controller = new Controller({ now: () => T0 + 5000, fetch: server.fetch });
    const view = reader<typeof getTodo>(tag, { id: '1' }) as Reader<typeof getTodo>;
    mounted = mount(controller, stateScript(JSON.stringify(kept)), view);
    await view.updateComplete;
    // The first render is the server's: the error.
    expect(view.renders).to.equal(1);
    expect(view.querySelector('.error')).to.not.equal(null);
    // A task later the read is fetched again.
    await until(() => expect(server.calls).to.have.length(1));
    server.take().respond(200, { id: '1', title: 'Back' });
    await until(() => expect(textOf(view)).to.equal('Back'));
  });

  it('reports a script that is not JSON and lets the reads fetch', async () => {
    const errors: unknown[][] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
      const server = new FakeServer();
      const controller = new Controller({ fetch: server.fetch });
      const view = reader<typeof getTodo>(tag, { id: '1' }) as Reader<typeof getTodo>;
      mounted = mount(controller, stateScript('{"entities": oops'), view);
      await view.updateComplete;
      expect(errors).to.have.length(1);
      expect(String(errors[0]![0])).to.contain('<resource-provider>');
      expect(errors[0]![1]).to.be.instanceOf(SyntaxError);
      expect(mounted.isConnected).to.equal(true);
      await until(() => expect(server.calls).to.have.length(1));
      server.take().respond(200, { id: '1', title: 'Fetched' });
      await until(() => expect(textOf(view)).to.equal('Fetched'));
    } finally {
      console.error = original;
    }
  });

  it('reports a script of JSON that is not a store state, naming the part; takes nothing, and the reads fetch', async () => {
    const good = serverState();
    const key = Object.keys(good.meta)[0]!;
    const tampered: [unknown, RegExp][] = [
      [{ ...good, entities: { HydratedTodo: { '1': null } } }, /entities\["HydratedTodo"\]\["1"\]/],
      [{ ...good, entities: ['x'] }, /The state at entities is not an object/],
      [
        { ...good, meta: { [key]: null } },
        /The state at meta\["GET \/mock\/hydration\/todos\/1"\]/,
      ],
      [
        { ...good, meta: { [key]: { ...good.meta[key], expiresAt: 'later' } } },
        /\.expiresAt is not a number/,
      ],
      [{ ...good, errors: { [key]: null } }, /The state at errors\[/],
    ];
    for (const [state, where] of tampered) {
      const errors: unknown[][] = [];
      const original = console.error;
      console.error = (...args: unknown[]) => errors.push(args);
      try {
        const server = new FakeServer();
        const controller = new Controller({ fetch: server.fetch });
        const before = controller.getState();
        const view = reader<typeof getTodo>(tag, { id: '1' }) as Reader<typeof getTodo>;
        mounted = mount(controller, stateScript(JSON.stringify(state)), view);
        await view.updateComplete;
        expect(errors, JSON.stringify(state)).to.have.length(1);
        expect(String(errors[0]![0])).to.contain('<resource-provider> ignored its state script');
        expect(errors[0]![1]).to.be.instanceOf(TypeError);
        expect((errors[0]![1] as Error).message).to.match(where);
        expect(controller.getState()).to.equal(before);
        expect(view.querySelector('.pending')).to.not.equal(null);
        await until(() => expect(server.calls).to.have.length(1));
        server.take().respond(200, { id: '1', title: 'Fetched' });
        await until(() => expect(textOf(view)).to.equal('Fetched'));
      } finally {
        console.error = original;
        mounted?.remove();
        mounted = undefined;
      }
    }
  });

  it("a server whose clock runs ahead of the browser's: what the browser fetches later still shows", async () => {
    const server = new FakeServer();
    const controller = new Controller({ now: () => T0, fetch: server.fetch });
    const view = reader<typeof getTodo>(tag, { id: '1' }) as Reader<typeof getTodo>;
    // Fetched on the server a minute "after" the browser's now.
    mounted = mount(controller, stateScript(JSON.stringify(serverState(T0 + 60_000))), view);
    await view.updateComplete;
    expect(textOf(view)).to.equal('From the server');
    const refetch = controller.fetch(getTodo, { id: '1' });
    await until(() => expect(server.calls).to.have.length(1));
    server.take().respond(200, { id: '1', title: 'Changed since' });
    await refetch;
    await until(() => expect(textOf(view)).to.equal('Changed since'));
  });

  it('takes a partial state (no errors, no entity metadata) as hydrate() does', async () => {
    const { endpoints, meta, entities } = serverState();
    const server = new FakeServer();
    const controller = new Controller({ now: () => T0 + 1000, fetch: server.fetch });
    const view = reader<typeof getTodo>(tag, { id: '1' }) as Reader<typeof getTodo>;
    mounted = mount(controller, stateScript(JSON.stringify({ endpoints, meta, entities })), view);
    await view.updateComplete;
    expect(textOf(view)).to.equal('From the server');
    expect(server.calls).to.have.length(0);
  });

  it('reads only its own script, not a nested provider’s', async () => {
    const outer = new Controller({ now: () => T0, fetch: new FakeServer().fetch });
    const inner = new Controller({ now: () => T0, fetch: new FakeServer().fetch });
    const nested = document.createElement('resource-provider');
    nested.controller = inner;
    nested.append(stateScript(JSON.stringify(serverState(T0, 'Inner'))));
    mounted = mount(outer, stateScript(JSON.stringify(serverState(T0, 'Outer'))), nested);
    expect(outer.getResponse(getTodo, { id: '1' }).data?.title).to.equal('Outer');
    expect(inner.getResponse(getTodo, { id: '1' }).data?.title).to.equal('Inner');
  });
});

describe('ResourceController before its host’s first update', () => {
  it('reads the arguments the host has when it first updates, not those it had when it connected', async () => {
    // Lit's hydration connects an element (removing defer-hydration) before it applies the
    // element's property bindings; the read must wait for them.
    const server = new FakeServer();
    const controller = new Controller({ fetch: server.fetch });
    const view = reader<typeof getTodo>(tag, { id: 'connected' }) as Reader<typeof getTodo>;
    mounted = mount(controller, view);
    view.params = { id: 'bound' };
    await view.updateComplete;
    await until(() => expect(server.calls).to.have.length(1));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(server.calls.map((call) => call.url)).to.deep.equal(['/mock/hydration/todos/bound']);
    server.take().respond(200, { id: 'bound', title: 'Bound' });
    await until(() => expect(textOf(view)).to.equal('Bound'));
  });
});
