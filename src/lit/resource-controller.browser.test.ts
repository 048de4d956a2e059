// ResourceController against an in-memory fake Controller: states, args, sharing, re-render rule,
// subscriptions and leaks, moving elements, missing and late providers.
import { expect, fixture, html, aTimeout, nextFrame } from '@open-wc/testing';
import { LitElement, render } from 'lit';
import './define-provider.js';
import { ResourceProvider } from './resource-provider.js';
import { ResourceController, ResourceStatus } from './resource-controller.js';
import { FakeController, fakeEndpoint } from './test-utils/fake-controller.js';

interface Todo {
  id: string;
  title: string;
}

const TodoGet = fakeEndpoint<{ id: string }, Todo>('todos');

let renders = new Map<string, number>();

class TodoView extends LitElement {
  static override properties = { todoId: { attribute: 'todo-id' } };
  todoId: string | null = '1';
  hookCalls = 0;
  todo = new ResourceController(this, TodoGet, () =>
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
customElements.define('fake-todo-view', TodoView);

class HookedView extends LitElement {
  hookCalls = 0;
  todo = new ResourceController(
    this,
    () => {
      this.hookCalls++;
      return TodoGet;
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
customElements.define('fake-hooked-view', HookedView);

async function settle(): Promise<void> {
  // Two macrotasks: listeners request updates, Lit renders in microtasks after them.
  await aTimeout(0);
  await aTimeout(0);
}

async function mount(controller: FakeController, template: unknown): Promise<ResourceProvider> {
  const provider = document.createElement('resource-provider');
  provider.controller = controller;
  render(template, provider);
  const host = await fixture<HTMLDivElement>(html`<div></div>`);
  host.append(provider);
  await settle();
  return provider;
}

const text = (el: Element) => el.textContent!.replace(/<!--.*?-->/g, '').trim();

describe('ResourceController', () => {
  beforeEach(() => {
    renders = new Map();
  });

  it('exposes ResourceStatus as a const object', () => {
    expect(ResourceStatus).to.deep.equal({
      Pending: 'pending',
      Complete: 'complete',
      Error: 'error',
    });
  });

  it('renders pending, then complete when the request resolves', async () => {
    const controller = new FakeController();
    const provider = await mount(controller, html`<fake-todo-view></fake-todo-view>`);
    const view = provider.querySelector('fake-todo-view')!;
    expect(view.todo.status).to.equal('pending');
    expect(text(view)).to.equal('pending');
    expect(controller.requests).to.have.length(1);
    expect(controller.requests[0]!.key).to.equal('GET /todos?id=1');
    controller.requests[0]!.resolve({ id: '1', title: 'Write tests' });
    await settle();
    expect(view.todo.status).to.equal('complete');
    expect(view.todo.value).to.deep.equal({ id: '1', title: 'Write tests' });
    expect(text(view)).to.equal('Write tests');
  });

  it('renders the error template when the request fails, and does not retry on its own', async () => {
    const controller = new FakeController();
    const provider = await mount(controller, html`<fake-todo-view></fake-todo-view>`);
    const view = provider.querySelector('fake-todo-view')!;
    controller.requests[0]!.reject(new Error('boom'));
    await settle();
    expect(view.todo.status).to.equal('error');
    expect((view.todo.error as Error).message).to.equal('boom');
    expect(text(view)).to.equal('error: boom');
    view.requestUpdate();
    await settle();
    expect(controller.requests).to.have.length(1);
  });

  it('shows a failure the store does not record, without a retry storm', async () => {
    const controller = new FakeController();
    // A controller that rejects but leaves the store unchanged.
    controller.fetchIfStale = (() => Promise.reject(new Error('lost'))) as never;
    let attempts = 0;
    const original = controller.fetchIfStale;
    controller.fetchIfStale = ((...a: never[]) => {
      attempts++;
      return (original as (...b: never[]) => unknown)(...a);
    }) as never;
    const provider = await mount(controller, html`<fake-todo-view></fake-todo-view>`);
    const view = provider.querySelector('fake-todo-view')!;
    await settle();
    expect(view.todo.status).to.equal('error');
    expect((view.todo.error as Error).message).to.equal('lost');
    expect(attempts).to.equal(1);
  });

  it('refetch() fetches a fresh read again and recovers from an error', async () => {
    const controller = new FakeController();
    const provider = await mount(controller, html`<fake-todo-view></fake-todo-view>`);
    const view = provider.querySelector('fake-todo-view')!;
    controller.requests[0]!.reject(new Error('boom'));
    await settle();
    const done = view.todo.refetch();
    expect(controller.requests).to.have.length(2);
    controller.requests[1]!.resolve({ id: '1', title: 'again' });
    await done;
    await settle();
    expect(view.todo.status).to.equal('complete');
    expect(text(view)).to.equal('again');
    // A fresh read is fetched again when asked.
    void view.todo.refetch();
    expect(controller.requests).to.have.length(3);
    controller.requests[2]!.reject(new Error('later'));
    await settle();
    // Data stays on screen; the failure is still reported.
    expect(view.todo.status).to.equal('complete');
    expect((view.todo.error as Error).message).to.equal('later');
  });

  it('refetch() sends a new request even while one for the same read is in flight', async () => {
    const controller = new FakeController();
    const provider = await mount(controller, html`<fake-todo-view></fake-todo-view>`);
    const view = provider.querySelector('fake-todo-view')!;
    expect(controller.requests).to.have.length(1);
    const done = view.todo.refetch();
    expect(controller.requests).to.have.length(2, 'not joined to the request in flight');
    controller.requests[1]!.resolve({ id: '1', title: 'reloaded' });
    await done;
    await settle();
    expect(text(view)).to.equal('reloaded');
    controller.requests[0]!.resolve({ id: '1', title: 'first' });
  });

  it('shows stale data while it is fetched again', async () => {
    const controller = new FakeController();
    controller.set('GET /todos?id=1', { data: { id: '1', title: 'old' }, expiryStatus: 'stale' });
    const provider = await mount(controller, html`<fake-todo-view></fake-todo-view>`);
    const view = provider.querySelector('fake-todo-view')!;
    expect(view.todo.status).to.equal('complete');
    expect(text(view)).to.equal('old');
    expect(controller.requests).to.have.length(1);
    controller.requests[0]!.resolve({ id: '1', title: 'new' });
    await settle();
    expect(text(view)).to.equal('new');
  });

  it('does not fetch fresh data', async () => {
    const controller = new FakeController();
    controller.set('GET /todos?id=1', { data: { id: '1', title: 'fresh' }, expiryStatus: 'valid' });
    const provider = await mount(controller, html`<fake-todo-view></fake-todo-view>`);
    expect(text(provider.querySelector('fake-todo-view')!)).to.equal('fresh');
    expect(controller.requests).to.have.length(0);
  });

  it('goes back to pending and fetches again when the read becomes invalid', async () => {
    const controller = new FakeController();
    controller.set('GET /todos?id=1', { data: { id: '1', title: 'shown' }, expiryStatus: 'valid' });
    const provider = await mount(controller, html`<fake-todo-view></fake-todo-view>`);
    const view = provider.querySelector('fake-todo-view')!;
    controller.set('GET /todos?id=1', { data: undefined, expiryStatus: 'invalid' });
    await settle();
    expect(view.todo.status).to.equal('pending');
    expect(text(view)).to.equal('pending');
    expect(controller.requests).to.have.length(1);
  });

  it('reads nothing while args are null', async () => {
    const controller = new FakeController();
    const provider = await mount(
      controller,
      html`<fake-todo-view .todoId=${null}></fake-todo-view>`,
    );
    const view = provider.querySelector('fake-todo-view')!;
    expect(view.todo.status).to.equal('pending');
    expect(controller.requests).to.have.length(0);
    expect(controller.stats().subscriptions).to.equal(0);
    view.todoId = '3';
    await settle();
    expect(controller.requests.map((r) => r.key)).to.deep.equal(['GET /todos?id=3']);
    expect(controller.stats().subscriptions).to.equal(1);
  });

  it('fetches the new args when they change; a late response for old args never shows', async () => {
    const controller = new FakeController();
    const provider = await mount(controller, html`<fake-todo-view></fake-todo-view>`);
    const view = provider.querySelector('fake-todo-view')!;
    view.todoId = '2';
    await settle();
    expect(controller.requests.map((r) => r.key)).to.deep.equal([
      'GET /todos?id=1',
      'GET /todos?id=2',
    ]);
    expect(controller.subscribers('GET /todos?id=1')).to.equal(0);
    expect(controller.subscribers('GET /todos?id=2')).to.equal(1);
    controller.requests[0]!.resolve({ id: '1', title: 'old args' });
    await settle();
    expect(text(view)).to.equal('pending');
    controller.requests[0]!.reject(new Error('ignored'));
    controller.requests[1]!.resolve({ id: '2', title: 'new args' });
    await settle();
    expect(text(view)).to.equal('new args');
  });

  it('drops a late failure of old args', async () => {
    const controller = new FakeController();
    // Only the rejection carries the failure, so only the call id can keep it out.
    const provider = await mount(controller, html`<fake-todo-view></fake-todo-view>`);
    const view = provider.querySelector('fake-todo-view')!;
    const first = controller.requests[0]!;
    view.todoId = '2';
    await settle();
    controller.set = () => {};
    first.reject(new Error('old failure'));
    await settle();
    expect(view.todo.status).to.equal('pending');
    expect(view.todo.error).to.equal(undefined);
  });

  it('calls a hook on each host update', async () => {
    const controller = new FakeController();
    const provider = await mount(controller, html`<fake-hooked-view></fake-hooked-view>`);
    const view = provider.querySelector('fake-hooked-view')!;
    const before = view.hookCalls;
    expect(before).to.be.greaterThan(0);
    view.requestUpdate();
    await view.updateComplete;
    expect(view.hookCalls).to.equal(before + 1);
    controller.requests[0]!.resolve({ id: '7', title: 'hooked' });
    await settle();
    expect(text(view)).to.equal('hooked');
  });

  it('shares one request between elements reading the same args', async () => {
    const controller = new FakeController();
    await mount(
      controller,
      html`<fake-todo-view></fake-todo-view><fake-todo-view></fake-todo-view
        ><fake-todo-view></fake-todo-view>`,
    );
    expect(controller.requests).to.have.length(1);
  });

  it('re-renders only the element whose response changed (100 siblings)', async () => {
    const controller = new FakeController();
    for (let i = 0; i < 101; i++) {
      controller.set(`GET /todos?id=${i}`, {
        data: { id: `${i}`, title: `t${i}` },
        expiryStatus: 'valid',
      });
    }
    const ids = Array.from({ length: 101 }, (_, i) => `${i}`);
    await mount(
      controller,
      html`${ids.map((id) => html`<fake-todo-view id=${`v${id}`} .todoId=${id}></fake-todo-view>`)}`,
    );
    expect(renders.size).to.equal(101);
    renders = new Map();
    controller.set('GET /todos?id=42', {
      data: { id: '42', title: 'changed' },
      expiryStatus: 'valid',
    });
    await settle();
    expect([...renders.entries()]).to.deep.equal([['v42', 1]]);
    // A commit that changes none of them re-renders none.
    renders = new Map();
    controller.touch();
    await settle();
    expect(renders.size).to.equal(0);
  });

  it('subscribes while connected and releases everything when 100 elements disconnect', async () => {
    const controller = new FakeController();
    const ids = Array.from({ length: 100 }, (_, i) => `${i}`);
    const provider = await mount(
      controller,
      html`${ids.map((id) => html`<fake-todo-view .todoId=${id}></fake-todo-view>`)}`,
    );
    expect(controller.stats()).to.deep.include({ listeners: 100, subscriptions: 100 });
    for (const view of [...provider.querySelectorAll('fake-todo-view')]) view.remove();
    await settle();
    expect(controller.stats()).to.deep.include({ listeners: 0, subscriptions: 0 });
  });

  it('moving an element (disconnect + connect in one task) neither refetches nor flickers', async () => {
    const controller = new FakeController();
    const provider = await mount(
      controller,
      html`<fake-todo-view id="mover"></fake-todo-view>
        <section></section>`,
    );
    controller.requests[0]!.resolve({ id: '1', title: 'kept' });
    await settle();
    const view = provider.querySelector('fake-todo-view')!;
    const seen: string[] = [];
    const observer = new MutationObserver(() => seen.push(text(view)));
    observer.observe(view, { childList: true, subtree: true, characterData: true });
    provider.querySelector('section')!.append(view);
    expect(view.todo.status).to.equal('complete');
    await settle();
    observer.disconnect();
    expect(text(view)).to.equal('kept');
    expect(seen.filter((t) => t !== 'kept')).to.deep.equal([]);
    expect(controller.requests).to.have.length(1);
    expect(controller.stats()).to.deep.include({ listeners: 1, subscriptions: 1 });
  });

  it('reports a missing provider naming the tag, and recovers when one appears', async () => {
    const wrapper = await fixture<HTMLDivElement>(
      html`<div><fake-todo-view></fake-todo-view></div>`,
    );
    const view = wrapper.querySelector('fake-todo-view')!;
    await nextFrame();
    await aTimeout(0);
    expect(view.todo.status).to.equal('error');
    const message = (view.todo.error as Error).message;
    expect(message).to.contain('<fake-todo-view>');
    expect(message).to.contain('<resource-provider>');
    expect(text(view)).to.contain('error: ');

    const controller = new FakeController();
    const provider = document.createElement('resource-provider');
    provider.controller = controller;
    wrapper.append(provider);
    provider.append(view);
    await settle();
    expect(view.todo.status).to.equal('pending');
    controller.requests[0]!.resolve({ id: '1', title: 'found' });
    await settle();
    expect(text(view)).to.equal('found');
  });

  it('binds to a provider that upgrades after its children', async () => {
    const tag = 'late-resource-provider';
    const wrapper = await fixture<HTMLDivElement>(
      html`<div>
        <late-resource-provider><fake-todo-view></fake-todo-view></late-resource-provider>
      </div>`,
    );
    const view = wrapper.querySelector('fake-todo-view')!;
    const controller = new FakeController();
    // Assigned before the upgrade: the provider must still use it.
    (wrapper.querySelector(tag) as unknown as ResourceProvider).controller = controller;
    await nextFrame();
    await aTimeout(0);
    // Upgrades settled without a provider: an error, until the provider arrives.
    expect(view.todo.status).to.equal('error');
    customElements.define(tag, class extends ResourceProvider {});
    await settle();
    expect(view.todo.status).to.equal('pending');
    expect(controller.requests).to.have.length(1);
    controller.requests[0]!.resolve({ id: '1', title: 'late' });
    await settle();
    expect(text(view)).to.equal('late');
  });

  it('binds to the nearest provider, also one inserted later', async () => {
    const outer = new FakeController();
    const inner = new FakeController();
    const provider = await mount(
      outer,
      html`<div class="slot"><fake-todo-view></fake-todo-view></div>`,
    );
    const view = provider.querySelector('fake-todo-view')!;
    expect(outer.requests).to.have.length(1);
    const nested = document.createElement('resource-provider');
    nested.controller = inner;
    const slot = provider.querySelector('.slot')!;
    slot.append(nested);
    nested.append(view);
    await settle();
    expect(inner.requests).to.have.length(1);
    expect(outer.stats()).to.deep.include({ listeners: 0, subscriptions: 0 });
    expect(inner.stats()).to.deep.include({ listeners: 1, subscriptions: 1 });
    inner.requests[0]!.resolve({ id: '1', title: 'inner' });
    outer.requests[0]!.resolve({ id: '1', title: 'outer' });
    await settle();
    expect(text(view)).to.equal('inner');
  });
});

declare global {
  interface HTMLElementTagNameMap {
    'fake-todo-view': TodoView;
    'fake-hooked-view': HookedView;
  }
}
