// ResourceController against the real Controller and a fake server answered by hand: states, args,
// sharing, re-render rule, subscriptions and leaks, aborts, moving elements, missing and late
// providers.
import { expect, fixture, html, aTimeout, nextFrame } from '@open-wc/testing';
import { LitElement } from 'lit';
import './define-provider.js';
import { mount, settle, text } from './test-utils/mount.js';
import { ResourceProvider } from './resource-provider.js';
import { ResourceController, ResourceStatus } from './resource-controller.js';
import { defineReader, reader, textOf, until } from './test-utils/reader.js';
import { Controller } from '../core/controller/controller.js';
import { FakeServer } from '../core/controller/test-utils/fake-fetch.js';
import type { PendingRequest } from '../core/controller/test-utils/fake-fetch.js';
import { RestEndpoint } from '../core/rest/rest-endpoint.js';
import { Entity } from '../core/schema/entity.js';

class Todo extends Entity {
  id = '';
  title = '';
  pk() {
    return this.id;
  }
  static key = 'Todo';
}

const getTodo = new RestEndpoint({ path: '/todos/:id', schema: Todo });

let renders = new Map<string, number>();

class TodoView extends LitElement {
  static override properties = { todoId: { attribute: 'todo-id' } };
  todoId: string | null = '1';
  todo = new ResourceController(this, getTodo, () =>
    this.todoId === null ? null : { id: this.todoId },
  );

  protected override createRenderRoot() {
    return this;
  }

  override render() {
    const name = this.id || this.todoId || '';
    renders.set(name, (renders.get(name) ?? 0) + 1);
    return this.todo.render({
      pending: () => html`pending`,
      complete: (todo) => html`${todo.title}`,
      error: (e) => html`error: ${(e as Error).message}`,
    });
  }
}
customElements.define('lit-todo-view', TodoView);

class HookedView extends LitElement {
  hookCalls = 0;
  todo = new ResourceController(
    this,
    () => {
      this.hookCalls++;
      return getTodo;
    },
    () => ({ id: '7' }),
  );
  protected override createRenderRoot() {
    return this;
  }
  override render() {
    return this.todo.render({ pending: () => 'pending', complete: (t) => t.title });
  }
}
customElements.define('lit-hooked-view', HookedView);

/** Its args function or its hook throws while `breaks` names it. */
class FragileView extends LitElement {
  static override properties = { todoId: {}, breaks: {} };
  todoId = '1';
  breaks: 'args' | 'hook' | '' = '';
  todo = new ResourceController(
    this,
    () => {
      if (this.breaks === 'hook') throw new Error('hook broke');
      return getTodo;
    },
    () => {
      if (this.breaks === 'args') throw new Error('args broke');
      return { id: this.todoId };
    },
  );
  protected override createRenderRoot() {
    return this;
  }
  override render() {
    return this.todo.render({
      pending: () => 'pending',
      complete: (todo) => todo.title,
      error: (e) => `error: ${(e as Error).message}`,
    });
  }
}
customElements.define('lit-fragile-view', FragileView);

/** Reads `getTodo` with any params, bad ones included. */
const anyParamsTag = defineReader(getTodo, (todo) => todo.title);

/** Controllers made by a test, disposed after it. */
let made: Controller[] = [];

/** A real Controller whose fetch is a server the test answers by hand, on a clock it moves. */
function setup(options: { honourAbort?: boolean } = {}) {
  const server = new FakeServer(options);
  const clock = { now: 1_000_000 };
  const controller = new Controller({ fetch: server.fetch, now: () => clock.now });
  made.push(controller);
  return { server, controller, clock };
}

/** The requests the server received, as 'METHOD url'. */
const sent = (server: FakeServer) => server.calls.map((r) => `${r.method} ${r.url}`);

/** What fetch does when its signal aborts: reject with an AbortError. */
const abortLikeFetch = (request: PendingRequest) =>
  request.fail(new DOMException('The operation was aborted.', 'AbortError'));

/** Subscriber counts by store key, as the Controller reports them. */
function subscriberCounts(controller: Controller): Map<string, number> {
  const counts = new Map<string, number>();
  controller.events.subscribe((event) => {
    if (event.type === 'subscription') counts.set(event.key, event.count);
  });
  return counts;
}

/** Page errors and unhandled rejections while the test runs. */
function watchPageErrors(): { seen: unknown[]; stop(): void } {
  const seen: unknown[] = [];
  const onError = (event: ErrorEvent) => seen.push(event.error ?? event.message);
  const onRejection = (event: PromiseRejectionEvent) => seen.push(event.reason);
  window.addEventListener('error', onError);
  window.addEventListener('unhandledrejection', onRejection);
  return {
    seen,
    stop() {
      window.removeEventListener('error', onError);
      window.removeEventListener('unhandledrejection', onRejection);
    },
  };
}

describe('ResourceController', () => {
  beforeEach(() => {
    renders = new Map();
  });

  afterEach(() => {
    for (const controller of made) controller.dispose();
    made = [];
  });

  it('exposes ResourceStatus as a const object', () => {
    expect(ResourceStatus).to.deep.equal({
      Pending: 'pending',
      Complete: 'complete',
      Error: 'error',
    });
  });

  it('renders pending, then complete when the request resolves', async () => {
    const { server, controller } = setup();
    const provider = await mount(controller, html`<lit-todo-view></lit-todo-view>`);
    const view = provider.querySelector('lit-todo-view')!;
    expect(view.todo.status).to.equal('pending');
    expect(text(view)).to.equal('pending');
    expect(sent(server)).to.deep.equal(['GET /todos/1']);
    server.take().respond(200, { id: '1', title: 'Write tests' });
    await until(() => expect(view.todo.status).to.equal('complete'));
    await view.updateComplete;
    expect(view.todo.value).to.be.instanceOf(Todo);
    expect({ ...view.todo.value }).to.deep.equal({ id: '1', title: 'Write tests' });
    expect(text(view)).to.equal('Write tests');
  });

  it('renders the error template when the request fails, and does not retry on its own', async () => {
    const { server, controller } = setup();
    const provider = await mount(controller, html`<lit-todo-view></lit-todo-view>`);
    const view = provider.querySelector('lit-todo-view')!;
    server.take().fail(new Error('boom'));
    await until(() => expect(view.todo.status).to.equal('error'));
    await view.updateComplete;
    expect((view.todo.error as Error).message).to.equal('boom');
    expect(text(view)).to.equal('error: boom');
    view.requestUpdate();
    await settle();
    expect(server.calls).to.have.length(1);
  });

  it('shows a failure the store does not record, without a retry storm', async () => {
    const { server, controller } = setup();
    // The real Controller, but the fetchIfStale of a held read rejects and leaves the store
    // unchanged (the observer fetches through its `hold`).
    let attempts = 0;
    const hold = controller.hold.bind(controller);
    controller.hold = ((...read: Parameters<typeof hold>) => ({
      ...hold(...read),
      fetchIfStale: () => {
        attempts++;
        return Promise.reject(new Error('lost'));
      },
    })) as typeof controller.hold;
    const provider = await mount(controller, html`<lit-todo-view></lit-todo-view>`);
    const view = provider.querySelector('lit-todo-view')!;
    await settle();
    expect(view.todo.status).to.equal('error');
    expect((view.todo.error as Error).message).to.equal('lost');
    expect(controller.getResponse(getTodo, { id: '1' }).error).to.equal(undefined);
    expect(attempts).to.equal(1);
    // Updates after its own failure do not ask again either.
    view.requestUpdate();
    await settle();
    view.requestUpdate();
    await settle();
    expect(attempts).to.equal(1);
    expect(server.calls).to.have.length(0);
  });

  it('refetch() fetches a fresh read again and recovers from an error', async () => {
    const { server, controller } = setup();
    const provider = await mount(controller, html`<lit-todo-view></lit-todo-view>`);
    const view = provider.querySelector('lit-todo-view')!;
    server.take().fail(new Error('boom'));
    await until(() => expect(view.todo.status).to.equal('error'));
    const done = view.todo.refetch();
    await until(() => expect(server.calls).to.have.length(2));
    server.take().respond(200, { id: '1', title: 'again' });
    await done;
    await settle();
    expect(view.todo.status).to.equal('complete');
    expect(text(view)).to.equal('again');
    // A fresh read is fetched again when asked.
    void view.todo.refetch();
    await until(() => expect(server.calls).to.have.length(3));
    server.take().fail(new Error('later'));
    await until(() => expect(view.todo.error).to.be.instanceOf(Error));
    await settle();
    // Data stays on screen; the failure is still reported.
    expect(view.todo.status).to.equal('complete');
    expect(text(view)).to.equal('again');
    expect((view.todo.error as Error).message).to.equal('later');
  });

  it('refetch() joins an identical read in flight; after invalidate() it sends the read again', async () => {
    const { server, controller } = setup();
    const provider = await mount(controller, html`<lit-todo-view></lit-todo-view>`);
    const view = provider.querySelector('lit-todo-view')!;
    expect(server.calls).to.have.length(1);
    const joined = view.todo.refetch();
    await settle();
    expect(server.calls).to.have.length(1, 'joined to the request in flight');
    server.take().respond(200, { id: '1', title: 'first' });
    await joined;
    await settle();
    expect(text(view)).to.equal('first');
    // A read in flight that must not be reused (sent with an old token, say): invalidate first.
    const older = view.todo.refetch();
    await settle();
    expect(server.calls).to.have.length(2);
    controller.invalidate(getTodo, { id: '1' });
    const done = view.todo.refetch();
    await settle();
    expect(server.calls).to.have.length(3, 'not joined to the read from before invalidate()');
    const [before, after] = [server.take(), server.take()];
    after.respond(200, { id: '1', title: 'reloaded' });
    await done;
    await settle();
    expect(text(view)).to.equal('reloaded');
    // The older request's answer comes last: the newer one stays.
    before.respond(200, { id: '1', title: 'older' });
    await older;
    await until(() => expect(controller.stats().inFlight).to.equal(0));
    await settle();
    expect(text(view)).to.equal('reloaded');
  });

  it('shows stale data while it is fetched again', async () => {
    const { server, controller, clock } = setup();
    controller.setResponse(getTodo, { id: '1' }, { id: '1', title: 'old' });
    clock.now += 120_000;
    expect(controller.getResponse(getTodo, { id: '1' }).expiryStatus).to.equal('stale');
    const provider = await mount(controller, html`<lit-todo-view></lit-todo-view>`);
    const view = provider.querySelector('lit-todo-view')!;
    expect(view.todo.status).to.equal('complete');
    expect(text(view)).to.equal('old');
    expect(server.calls).to.have.length(1);
    server.take().respond(200, { id: '1', title: 'new' });
    await until(() => expect(text(view)).to.equal('new'));
  });

  it('does not fetch fresh data', async () => {
    const { server, controller } = setup();
    controller.setResponse(getTodo, { id: '1' }, { id: '1', title: 'fresh' });
    const provider = await mount(controller, html`<lit-todo-view></lit-todo-view>`);
    expect(text(provider.querySelector('lit-todo-view')!)).to.equal('fresh');
    expect(server.calls).to.have.length(0);
  });

  it('goes back to pending and fetches again when the read becomes invalid', async () => {
    const { server, controller } = setup();
    controller.setResponse(getTodo, { id: '1' }, { id: '1', title: 'shown' });
    const provider = await mount(controller, html`<lit-todo-view></lit-todo-view>`);
    const view = provider.querySelector('lit-todo-view')!;
    expect(text(view)).to.equal('shown');
    controller.invalidate(getTodo, { id: '1' });
    await settle();
    expect(view.todo.status).to.equal('pending');
    expect(text(view)).to.equal('pending');
    expect(sent(server)).to.deep.equal(['GET /todos/1']);
  });

  it('reads nothing while args are null', async () => {
    const { server, controller } = setup();
    const provider = await mount(controller, html`<lit-todo-view .todoId=${null}></lit-todo-view>`);
    const view = provider.querySelector('lit-todo-view')!;
    expect(view.todo.status).to.equal('pending');
    expect(server.calls).to.have.length(0);
    expect(controller.stats().subscriptions).to.equal(0);
    view.todoId = '3';
    await settle();
    expect(sent(server)).to.deep.equal(['GET /todos/3']);
    expect(controller.stats().subscriptions).to.equal(1);
  });

  it('fetches the new args when they change; a late response for old args never shows', async () => {
    const { server, controller } = setup({ honourAbort: false });
    const subscribers = subscriberCounts(controller);
    const provider = await mount(controller, html`<lit-todo-view></lit-todo-view>`);
    const view = provider.querySelector('lit-todo-view')!;
    view.todoId = '2';
    await settle();
    expect(sent(server)).to.deep.equal(['GET /todos/1', 'GET /todos/2']);
    expect(subscribers.get('GET /todos/1')).to.equal(0);
    expect(subscribers.get('GET /todos/2')).to.equal(1);
    // A fetch that ignores the abort still answers: the answer is stored under its own key…
    server.take('GET /todos/1').respond(200, { id: '1', title: 'old args' });
    await until(() =>
      expect(controller.getResponse(getTodo, { id: '1' }).data?.title).to.equal('old args'),
    );
    await settle();
    // …and the element, which reads id 2 now, does not show it.
    expect(text(view)).to.equal('pending');
    server.take('GET /todos/2').respond(200, { id: '2', title: 'new args' });
    await until(() => expect(text(view)).to.equal('new args'));
  });

  it('drops a late failure of old args', async () => {
    const { server, controller } = setup();
    const provider = await mount(controller, html`<lit-todo-view></lit-todo-view>`);
    const view = provider.querySelector('lit-todo-view')!;
    const first = server.take('GET /todos/1');
    // Someone else still reads id 1, so its request runs on and its failure is a real one.
    const stopOther = controller.subscribe(getTodo, { id: '1' });
    view.todoId = '2';
    await settle();
    expect(first.signal!.aborted).to.equal(false);
    first.fail(new Error('old failure'));
    await until(() =>
      expect(controller.getResponse(getTodo, { id: '1' }).error).to.be.instanceOf(Error),
    );
    await settle();
    // The element's own rejected fetch carried it; only the read having changed keeps it out.
    expect(view.todo.status).to.equal('pending');
    expect(view.todo.error).to.equal(undefined);
    stopOther();
  });

  it('an older request failing after a newer answer reports no error', async () => {
    const { server, controller } = setup();
    const provider = await mount(controller, html`<lit-todo-view></lit-todo-view>`);
    const view = provider.querySelector('lit-todo-view')!;
    // A reload that does not join the element's read in flight (refetch() would).
    const done = controller.refetch(getTodo, { id: '1' });
    await until(() => expect(server.calls).to.have.length(2));
    const [first, second] = [server.take(), server.take()];
    second.respond(200, { id: '1', title: 'reloaded' });
    await done;
    await until(() => expect(text(view)).to.equal('reloaded'));
    first.respond(500, { message: 'old failure' });
    await until(() => expect(controller.stats().inFlight).to.equal(0));
    await settle();
    // The store keeps the newer answer and drops the older failure; the element agrees.
    expect(controller.getResponse(getTodo, { id: '1' }).error).to.equal(undefined);
    expect(view.todo.status).to.equal('complete');
    expect(view.todo.error).to.equal(undefined);
    expect(text(view)).to.equal('reloaded');
  });

  it('a refetch from before a reset failing after it shows no error', async () => {
    const { server, controller } = setup();
    const provider = await mount(controller, html`<lit-todo-view></lit-todo-view>`);
    const view = provider.querySelector('lit-todo-view')!;
    server.take().respond(200, { id: '1', title: 'before' });
    await until(() => expect(text(view)).to.equal('before'));
    const done = view.todo.refetch();
    await until(() => expect(server.calls).to.have.length(2));
    const old = server.take();
    // A logout, say: the element starts over and fetches again; the awaited refetch runs on.
    controller.resetEntireStore();
    await settle();
    expect(old.signal!.aborted).to.equal(false);
    expect(sent(server)).to.deep.equal(['GET /todos/1', 'GET /todos/1', 'GET /todos/1']);
    const seen: string[] = [];
    const observer = new MutationObserver(() => seen.push(text(view)));
    observer.observe(view, { childList: true, subtree: true, characterData: true });
    old.respond(500, { message: 'old session' });
    await done;
    await settle();
    observer.disconnect();
    expect(controller.getResponse(getTodo, { id: '1' }).error).to.equal(undefined);
    expect(seen.filter((t) => t !== 'pending')).to.deep.equal([]);
    expect(view.todo.status).to.equal('pending');
    expect(view.todo.error).to.equal(undefined);
    server.take().respond(200, { id: '1', title: 'after' });
    await until(() => expect(text(view)).to.equal('after'));
  });

  it('calls a hook on each host update', async () => {
    const { server, controller } = setup();
    const provider = await mount(controller, html`<lit-hooked-view></lit-hooked-view>`);
    const view = provider.querySelector('lit-hooked-view')!;
    const before = view.hookCalls;
    expect(before).to.be.greaterThan(0);
    view.requestUpdate();
    await view.updateComplete;
    expect(view.hookCalls).to.equal(before + 1);
    server.take('GET /todos/7').respond(200, { id: '7', title: 'hooked' });
    await until(() => expect(text(view)).to.equal('hooked'));
  });

  it('shares one request between elements reading the same args', async () => {
    const { server, controller } = setup();
    await mount(
      controller,
      html`<lit-todo-view></lit-todo-view><lit-todo-view></lit-todo-view
        ><lit-todo-view></lit-todo-view>`,
    );
    expect(server.calls).to.have.length(1);
  });

  it('re-renders only the element whose response changed (100 siblings)', async () => {
    const { controller } = setup();
    for (let i = 0; i < 101; i++) {
      controller.setResponse(getTodo, { id: `${i}` }, { id: `${i}`, title: `t${i}` });
    }
    const ids = Array.from({ length: 101 }, (_, i) => `${i}`);
    await mount(
      controller,
      html`${ids.map((id) => html`<lit-todo-view id=${`v${id}`} .todoId=${id}></lit-todo-view>`)}`,
    );
    expect(renders.size).to.equal(101);
    renders = new Map();
    controller.setResponse(getTodo, { id: '42' }, { id: '42', title: 'changed' });
    await settle();
    expect([...renders.entries()]).to.deep.equal([['v42', 1]]);
    // A commit that changes none of them re-renders none.
    renders = new Map();
    controller.setResponse(getTodo, { id: 'elsewhere' }, { id: 'elsewhere', title: 'unread' });
    await settle();
    expect(renders.size).to.equal(0);
  });

  it('subscribes while connected and releases everything when 100 elements disconnect', async () => {
    const { server, controller } = setup();
    const base = controller.stats().listeners;
    const ids = Array.from({ length: 100 }, (_, i) => `${i}`);
    const provider = await mount(
      controller,
      html`${ids.map((id) => html`<lit-todo-view .todoId=${id}></lit-todo-view>`)}`,
    );
    expect(controller.stats()).to.deep.include({ listeners: base + 100, subscriptions: 100 });
    expect(server.calls).to.have.length(100);
    for (const view of [...provider.querySelectorAll('lit-todo-view')]) view.remove();
    await settle();
    expect(controller.stats()).to.deep.include({ listeners: base, subscriptions: 0 });
    // Nobody needs their answers: every request was aborted, and once fetch rejects, none runs.
    expect(server.calls.filter((r) => !r.signal!.aborted)).to.deep.equal([]);
    for (const request of [...server.waiting]) abortLikeFetch(request);
    await until(() => expect(controller.stats().inFlight).to.equal(0));
  });

  it('moving an element (disconnect + connect in one task) neither refetches nor flickers', async () => {
    const { server, controller } = setup();
    const base = controller.stats().listeners;
    const provider = await mount(
      controller,
      html`<lit-todo-view id="mover"></lit-todo-view>
        <section></section>`,
    );
    server.take().respond(200, { id: '1', title: 'kept' });
    const view = provider.querySelector('lit-todo-view')!;
    await until(() => expect(text(view)).to.equal('kept'));
    const seen: string[] = [];
    const observer = new MutationObserver(() => seen.push(text(view)));
    observer.observe(view, { childList: true, subtree: true, characterData: true });
    provider.querySelector('section')!.append(view);
    expect(view.todo.status).to.equal('complete');
    await settle();
    observer.disconnect();
    expect(text(view)).to.equal('kept');
    expect(seen.filter((t) => t !== 'kept')).to.deep.equal([]);
    expect(server.calls).to.have.length(1);
    expect(controller.stats()).to.deep.include({ listeners: base + 1, subscriptions: 1 });
  });

  it('reports a missing provider naming the tag, and recovers when one appears', async () => {
    const wrapper = await fixture<HTMLDivElement>(html`<div><lit-todo-view></lit-todo-view></div>`);
    const view = wrapper.querySelector('lit-todo-view')!;
    await nextFrame();
    await aTimeout(0);
    expect(view.todo.status).to.equal('error');
    const message = (view.todo.error as Error).message;
    expect(message).to.contain('<lit-todo-view>');
    expect(message).to.contain('<resource-provider>');
    expect(text(view)).to.contain('error: ');

    const { server, controller } = setup();
    const provider = document.createElement('resource-provider');
    provider.controller = controller;
    wrapper.append(provider);
    provider.append(view);
    await settle();
    expect(view.todo.status).to.equal('pending');
    server.take('GET /todos/1').respond(200, { id: '1', title: 'found' });
    await until(() => expect(text(view)).to.equal('found'));
  });

  it('binds to a provider that upgrades after its children', async () => {
    const tag = 'late-resource-provider';
    const wrapper = await fixture<HTMLDivElement>(
      html`<div>
        <late-resource-provider><lit-todo-view></lit-todo-view></late-resource-provider>
      </div>`,
    );
    const view = wrapper.querySelector('lit-todo-view')!;
    const { server, controller } = setup();
    // Assigned before the upgrade: the provider must still use it.
    (wrapper.querySelector(tag) as unknown as ResourceProvider).controller = controller;
    await nextFrame();
    await aTimeout(0);
    // Upgrades settled without a provider: an error, until the provider arrives.
    expect(view.todo.status).to.equal('error');
    customElements.define(tag, class extends ResourceProvider {});
    await settle();
    expect(view.todo.status).to.equal('pending');
    expect(server.calls).to.have.length(1);
    server.take().respond(200, { id: '1', title: 'late' });
    await until(() => expect(text(view)).to.equal('late'));
  });

  it('binds to the nearest provider, also one inserted later', async () => {
    // The outer read is given up when the element moves; a fetch that ignores that still answers.
    const outer = setup({ honourAbort: false });
    const inner = setup();
    const base = outer.controller.stats().listeners;
    const provider = await mount(
      outer.controller,
      html`<div class="slot"><lit-todo-view></lit-todo-view></div>`,
    );
    const view = provider.querySelector('lit-todo-view')!;
    expect(outer.server.calls).to.have.length(1);
    const nested = document.createElement('resource-provider');
    nested.controller = inner.controller;
    const slot = provider.querySelector('.slot')!;
    slot.append(nested);
    nested.append(view);
    await settle();
    expect(inner.server.calls).to.have.length(1);
    expect(outer.controller.stats()).to.deep.include({ listeners: base, subscriptions: 0 });
    expect(inner.controller.stats()).to.deep.include({ listeners: base + 1, subscriptions: 1 });
    inner.server.take().respond(200, { id: '1', title: 'inner' });
    outer.server.take().respond(200, { id: '1', title: 'outer' });
    await until(() =>
      expect(outer.controller.getResponse(getTodo, { id: '1' }).data?.title).to.equal('outer'),
    );
    await settle();
    expect(text(view)).to.equal('inner');
  });

  describe('bad args (issue 14)', () => {
    for (const [name, params, says] of [
      ['an empty required path parameter', { id: '' }, 'Path parameter "id" for path "/todos/:id"'],
      ['an object as a query value', { id: '1', tag: { nested: true } }, 'Query parameter "tag"'],
    ] as const) {
      it(`${name} shows the endpoint's error, sends nothing, throws nothing; valid args load`, async () => {
        const errors = watchPageErrors();
        try {
          const { server, controller } = setup();
          const view = reader(anyParamsTag, params as never);
          const provider = await mount(controller, html``);
          provider.append(view);
          await settle();
          expect(view.reader.status).to.equal('error');
          const message = (view.reader.error as Error).message;
          expect(message).to.contain(says);
          expect(textOf(view)).to.equal(message);
          // Updates keep showing it without asking the server.
          view.requestUpdate();
          await settle();
          expect(view.reader.status).to.equal('error');
          expect(server.calls).to.have.length(0);
          expect(controller.stats().subscriptions).to.equal(0);

          view.params = { id: '1' };
          view.requestUpdate();
          await settle();
          expect(view.reader.status).to.equal('pending');
          expect(sent(server)).to.deep.equal(['GET /todos/1']);
          server.take().respond(200, { id: '1', title: 'valid now' });
          await until(() => expect(textOf(view)).to.equal('valid now'));
          expect(view.reader.error).to.equal(undefined);
          await settle();
          expect(errors.seen).to.deep.equal([]);
        } finally {
          errors.stop();
        }
      });
    }
  });

  for (const broken of ['args', 'hook'] as const) {
    it(`an ${broken === 'args' ? 'args function' : 'endpoint hook'} that throws shows its error; nothing escapes, nothing is read; fixed, it loads`, async () => {
      const errors = watchPageErrors();
      try {
        const { server, controller } = setup();
        controller.setResponse(getTodo, { id: '1' }, { id: '1', title: 'one' });
        const provider = await mount(controller, html`<lit-fragile-view></lit-fragile-view>`);
        const view = provider.querySelector('lit-fragile-view')!;
        expect(text(view)).to.equal('one');
        view.breaks = broken;
        await settle();
        expect(view.todo.status).to.equal('error');
        expect((view.todo.error as Error).message).to.equal(`${broken} broke`);
        expect(view.todo.value).to.equal(undefined);
        expect(text(view)).to.equal(`error: ${broken} broke`);
        expect(controller.stats().subscriptions).to.equal(0);
        // A store change reaches the element's listener without calling the function again.
        controller.setResponse(getTodo, { id: '9' }, { id: '9', title: 'nine' });
        await settle();
        view.todoId = '2';
        view.breaks = '';
        await settle();
        expect(view.todo.status).to.equal('pending');
        expect(sent(server)).to.deep.equal(['GET /todos/2']);
        server.take().respond(200, { id: '2', title: 'two' });
        await until(() => expect(text(view)).to.equal('two'));
        expect(view.todo.error).to.equal(undefined);
        expect(errors.seen).to.deep.equal([]);
      } finally {
        errors.stop();
      }
    });
  }

  describe('aborts (issue 14)', () => {
    it('args changed mid-flight: the old request is aborted and the new one sent', async () => {
      const errors = watchPageErrors();
      try {
        const { server, controller } = setup();
        const provider = await mount(controller, html`<lit-todo-view></lit-todo-view>`);
        const view = provider.querySelector('lit-todo-view')!;
        const first = server.take('GET /todos/1');
        expect(first.signal!.aborted).to.equal(false);
        view.todoId = '2';
        await settle();
        expect(first.signal!.aborted).to.equal(true);
        expect(sent(server)).to.deep.equal(['GET /todos/1', 'GET /todos/2']);
        expect(server.calls[1]!.signal!.aborted).to.equal(false);
        // fetch rejects on the abort: not the server's word, so nothing is stored or shown.
        abortLikeFetch(first);
        await until(() => expect(controller.stats().inFlight).to.equal(1));
        await settle();
        expect(controller.getResponse(getTodo, { id: '1' }).error).to.equal(undefined);
        expect(view.todo.status).to.equal('pending');
        expect(view.todo.error).to.equal(undefined);
        server.take('GET /todos/2').respond(200, { id: '2', title: 'second' });
        await until(() => expect(text(view)).to.equal('second'));
        expect(controller.stats().inFlight).to.equal(0);
        expect(errors.seen).to.deep.equal([]);
      } finally {
        errors.stop();
      }
    });

    it('one of two elements sharing a read leaves or changes args: the shared request runs on', async () => {
      const { server, controller } = setup();
      const provider = await mount(
        controller,
        html`<lit-todo-view id="a"></lit-todo-view><lit-todo-view id="b"></lit-todo-view
          ><lit-todo-view id="c"></lit-todo-view>`,
      );
      const [a, b, c] = [...provider.querySelectorAll('lit-todo-view')] as TodoView[];
      expect(server.calls).to.have.length(1);
      const shared = server.take('GET /todos/1');
      a!.remove();
      b!.todoId = '2';
      await settle();
      expect(shared.signal!.aborted).to.equal(false);
      expect(sent(server)).to.deep.equal(['GET /todos/1', 'GET /todos/2']);
      shared.respond(200, { id: '1', title: 'shared' });
      await until(() => expect(text(c!)).to.equal('shared'));
      expect(text(b!)).to.equal('pending');
      expect(server.calls).to.have.length(2);
    });

    it('args set to null mid-flight abort the request', async () => {
      const { server, controller } = setup();
      const provider = await mount(controller, html`<lit-todo-view></lit-todo-view>`);
      const view = provider.querySelector('lit-todo-view')!;
      const request = server.take('GET /todos/1');
      view.todoId = null;
      await settle();
      expect(request.signal!.aborted).to.equal(true);
      expect(view.todo.status).to.equal('pending');
      expect(server.calls).to.have.length(1);
      expect(controller.stats().subscriptions).to.equal(0);
    });

    it('the host leaving aborts its read when nobody else reads it; nothing is kept or thrown', async () => {
      const errors = watchPageErrors();
      try {
        const { server, controller } = setup();
        const provider = await mount(controller, html`<lit-todo-view></lit-todo-view>`);
        const view = provider.querySelector('lit-todo-view')!;
        const request = server.take('GET /todos/1');
        view.remove();
        await settle();
        expect(request.signal!.aborted).to.equal(true);
        abortLikeFetch(request);
        await until(() => expect(controller.stats().inFlight).to.equal(0));
        await settle();
        expect(controller.getResponse(getTodo, { id: '1' }).error).to.equal(undefined);
        expect(controller.stats()).to.deep.include({ subscriptions: 0, inFlight: 0 });
        expect(server.calls).to.have.length(1);
        expect(errors.seen).to.deep.equal([]);
      } finally {
        errors.stop();
      }
    });

    it('an element back after its read was aborted fetches again, also before the abort settled', async () => {
      const { server, controller } = setup();
      const provider = await mount(controller, html`<lit-todo-view></lit-todo-view>`);
      const view = provider.querySelector('lit-todo-view')!;
      const first = server.take('GET /todos/1');
      view.remove();
      await settle();
      expect(first.signal!.aborted).to.equal(true);
      provider.append(view);
      await settle();
      expect(sent(server)).to.deep.equal(['GET /todos/1', 'GET /todos/1']);
      abortLikeFetch(first);
      await settle();
      expect(view.todo.status).to.equal('pending');
      expect(view.todo.error).to.equal(undefined);
      server.take().respond(200, { id: '1', title: 'back' });
      await until(() => expect(text(view)).to.equal('back'));
    });

    it('an element back after its aborted read settled fetches again', async () => {
      const { server, controller } = setup();
      const provider = await mount(controller, html`<lit-todo-view></lit-todo-view>`);
      const view = provider.querySelector('lit-todo-view')!;
      const first = server.take('GET /todos/1');
      view.remove();
      await settle();
      abortLikeFetch(first);
      await until(() => expect(controller.stats().inFlight).to.equal(0));
      provider.append(view);
      await settle();
      expect(sent(server)).to.deep.equal(['GET /todos/1', 'GET /todos/1']);
      server.take().respond(200, { id: '1', title: 'back' });
      await until(() => expect(text(view)).to.equal('back'));
    });

    it('an element moved mid-flight (removed and re-appended in one task) keeps its request', async () => {
      const { server, controller } = setup();
      const provider = await mount(
        controller,
        html`<lit-todo-view></lit-todo-view>
          <section></section>`,
      );
      const view = provider.querySelector('lit-todo-view')!;
      const request = server.take('GET /todos/1');
      view.remove();
      provider.querySelector('section')!.append(view);
      await settle();
      expect(request.signal!.aborted).to.equal(false);
      expect(server.calls).to.have.length(1);
      request.respond(200, { id: '1', title: 'moved' });
      await until(() => expect(text(view)).to.equal('moved'));
      expect(server.calls).to.have.length(1);
    });

    it('an element moved mid-flight shows its request failing, and does not retry on its own', async () => {
      const { server, controller } = setup();
      const provider = await mount(
        controller,
        html`<lit-todo-view></lit-todo-view>
          <section></section>`,
      );
      const view = provider.querySelector('lit-todo-view')!;
      const request = server.take('GET /todos/1');
      provider.querySelector('section')!.append(view);
      await settle();
      expect(request.signal!.aborted).to.equal(false);
      request.fail(new Error('down'));
      await until(() => expect(view.todo.status).to.equal('error'));
      await view.updateComplete;
      expect(text(view)).to.equal('error: down');
      view.requestUpdate();
      await settle();
      expect(server.calls).to.have.length(1);
    });
  });
});

declare global {
  interface HTMLElementTagNameMap {
    'lit-todo-view': TodoView;
    'lit-hooked-view': HookedView;
    'lit-fragile-view': FragileView;
  }
}

describe('ResourceController: a reference to an entity the store does not hold', () => {
  class Food extends Entity {
    id = '';
    name = '';
    pk() {
      return this.id;
    }
    static key = 'MissingRefFood';
  }
  class Menu extends Entity {
    id = '';
    food = Food.fromJS();
    pk() {
      return this.id;
    }
    static key = 'MissingRefMenu';
    static schema = { food: Food };
  }
  const getMenu = new RestEndpoint({ path: '/menus/:id', schema: Menu });
  const menuTag = defineReader(
    getMenu,
    (menu) => `menu ${menu.id}: ${menu.food?.name ?? 'no food'}`,
  );

  afterEach(() => {
    for (const controller of made) controller.dispose();
    made = [];
  });

  it('renders with the field empty and sends no second request', async () => {
    const { server, controller } = setup();
    const provider = await mount(controller, reader(menuTag, { id: '1' }));
    const view = provider.firstElementChild!;
    server.take().respond(200, { id: '1', food: '2' });
    await until(() => expect(textOf(view)).to.equal('menu 1: no food'));
    for (let i = 0; i < 5; i++) await nextFrame();
    expect(sent(server)).to.deep.equal(['GET /menus/1']);
  });
});
