// resource-elements/elements against the real Controller and a fake server answered by hand: a
// vanilla element (no Lit) hosting ResourceController and MutationController through
// ResourceHostMixin, the development warning for a host that never updates its controllers, and
// the host-free bindings bindRead and bindMutation.
import { expect, fixture, html, aTimeout } from '@open-wc/testing';
import '../lit/define-provider.js';
import type { ResourceProvider } from '../lit/resource-provider.js';
import { ResourceController } from '../lit/resource-controller.js';
import { MutationController } from '../lit/mutation-controller.js';
import { until } from '../lit/test-utils/reader.js';
import { Controller } from '../core/controller/controller.js';
import { Todo, TodoResource, developing, setup } from './test-utils/fixtures.js';
import { ResourceHostMixin, bindMutation, bindRead } from './index.js';
import type { BoundReadState } from './index.js';

/** A vanilla element: a list of todos and an Add button, no Lit anywhere. */
class VanillaTodos extends ResourceHostMixin(HTMLElement) {
  renders = 0;
  readonly todos = new ResourceController(this, TodoResource.getList);
  readonly add = new MutationController(this, TodoResource.getList.push);
  render() {
    this.renders++;
    this.textContent =
      this.todos.render({
        pending: () => 'Loading…',
        complete: (todos) => todos.map((todo) => todo.title).join(', '),
        error: (e) => `Failed: ${(e as Error).message}`,
      }) ?? '';
    if (this.add.pending) this.textContent += ' (adding)';
  }
}
customElements.define('vanilla-todos', VanillaTodos);

/** A hand-written host that forgets to call hostUpdate: the mistake the warning is for. */
class ForgetfulHost extends HTMLElement {
  readonly controllers: { hostConnected?(): void; hostDisconnected?(): void }[] = [];
  readonly updateComplete = Promise.resolve(true);
  readonly todos = new ResourceController(this, TodoResource.getList);
  addController(controller: { hostConnected?(): void }) {
    this.controllers.push(controller);
  }
  removeController() {}
  requestUpdate() {}
  connectedCallback() {
    for (const controller of this.controllers) controller.hostConnected?.();
  }
  disconnectedCallback() {
    for (const controller of this.controllers) controller.hostDisconnected?.();
  }
}
customElements.define('forgetful-host', ForgetfulHost);

async function settle(): Promise<void> {
  for (let i = 0; i < 4; i++) await aTimeout(0);
}

/** A provider of `controller` holding `child`, in the page. */
async function mount(controller: Controller, child: Element): Promise<ResourceProvider> {
  const provider = document.createElement('resource-provider');
  provider.controller = controller;
  provider.append(child);
  const host = await fixture<HTMLDivElement>(html`<div></div>`);
  host.append(provider);
  await settle();
  return provider;
}

/** Replaces console.warn while the test runs; returns what it was given. */
function watchWarnings(): { seen: string[]; stop(): void } {
  const seen: string[] = [];
  const warn = console.warn;
  console.warn = (...args: unknown[]) => seen.push(args.join(' '));
  return { seen, stop: () => (console.warn = warn) };
}

describe('ResourceHostMixin', () => {
  it('hosts ResourceController in a vanilla element: pending, then the list', async () => {
    const { server, controller } = setup();
    const element = new VanillaTodos();
    await mount(controller, element);
    expect(element.textContent).to.equal('Loading…');
    expect(server.calls.map((r) => `${r.method} ${r.url}`)).to.deep.equal(['GET /todos']);
    server.take('GET /todos').respond(200, [{ id: '1', title: 'Write tests' }]);
    await until(() => expect(element.textContent).to.equal('Write tests'));
    expect(element.hasUpdated).to.equal(true);
  });

  it('batches update requests in a microtask, and updateComplete waits for the render', async () => {
    const { controller } = setup();
    const element = new VanillaTodos();
    await mount(controller, element);
    const before = element.renders;
    element.requestUpdate();
    element.requestUpdate();
    element.requestUpdate();
    expect(element.renders).to.equal(before);
    expect(await element.updateComplete).to.equal(true);
    expect(element.renders).to.equal(before + 1);
  });

  it('adds through MutationController, and the list shows the new member', async () => {
    const { server, controller } = setup();
    const element = new VanillaTodos();
    await mount(controller, element);
    server.take('GET /todos').respond(200, [{ id: '1', title: 'a' }]);
    await until(() => expect(element.textContent).to.equal('a'));
    const added = element.add.run({ title: 'b' });
    await until(() => expect(element.textContent).to.equal('a (adding)'));
    server.take('POST /todos').respond(201, { id: '2', title: 'b' });
    await added;
    await until(() => expect(element.textContent).to.equal('a, b'));
    expect(element.add.status).to.equal('success');
  });

  it('releases its subscription and listeners when removed', async () => {
    const { server, controller } = setup();
    const base = controller.stats().listeners;
    const element = new VanillaTodos();
    await mount(controller, element);
    server.take('GET /todos').respond(200, []);
    await until(() => expect(element.textContent).to.equal(''));
    expect(controller.stats()).to.deep.include({ subscriptions: 1, listeners: base + 1 });
    element.remove();
    await settle();
    expect(controller.stats()).to.deep.include({ subscriptions: 0, listeners: base });
  });
});

describe('the development warning for a host that never calls hostUpdate', () => {
  it('warns about a hand-written host that forgot it, and not about the mixin', async () => {
    const warnings = watchWarnings();
    const stop = developing();
    try {
      const { controller } = setup();
      const forgetful = new ForgetfulHost();
      const element = new VanillaTodos();
      const provider = await mount(controller, forgetful);
      provider.append(element);
      await aTimeout(1100);
      expect(warnings.seen).to.have.length(1);
      expect(warnings.seen[0]).to.contain('<forgetful-host> has a ResourceController');
      expect(warnings.seen[0]).to.contain('hostUpdate()');
    } finally {
      warnings.stop();
      stop();
    }
  });
});

describe('bindRead', () => {
  /** An element in the page that calls nothing itself. */
  const plain = () => document.createElement('plain-element');

  it('calls back with pending, then the data; not again for a refetch of the same data', async () => {
    const { server, controller } = setup();
    const element = plain();
    await mount(controller, element);
    const states: BoundReadState<Todo>[] = [];
    const binding = bindRead(element, TodoResource.get, { id: '1' }, (s) => states.push(s));
    expect(states.map((s) => s.status)).to.deep.equal(['pending']);
    await settle();
    server.take('GET /todos/1').respond(200, { id: '1', title: 'a' });
    await until(() => expect(states.map((s) => s.status)).to.deep.equal(['pending', 'complete']));
    expect(states[1]!.value!.title).to.equal('a');
    const refetched = binding.refetch();
    await settle();
    server.take('GET /todos/1').respond(200, { id: '1', title: 'a' });
    await refetched;
    await settle();
    expect(states).to.have.length(2);
    binding.setArgs({ id: '2' });
    await settle();
    server.take('GET /todos/2').respond(200, { id: '2', title: 'b' });
    await until(() => expect(binding.state.value?.title).to.equal('b'));
    expect(states.map((s) => s.value?.title)).to.deep.equal([undefined, 'a', undefined, 'b']);
    binding.unbind();
    await settle();
    expect(controller.stats()).to.deep.include({ subscriptions: 0 });
  });

  it('gives the error a ResourceController gives when no provider is above', async () => {
    const element = await fixture<HTMLElement>(html`<lonely-reader></lonely-reader>`);
    const states: BoundReadState<Todo>[] = [];
    const stop = developing();
    try {
      bindRead(element, TodoResource.get, { id: '1' }, (s) => states.push(s));
      await settle();
    } finally {
      stop();
    }
    expect(states.map((s) => s.status)).to.deep.equal(['pending', 'error']);
    expect((states[1]!.error as Error).message).to.equal(
      '<lonely-reader> found no <resource-provider> above it: wrap it (or an ancestor) in ' +
        '<resource-provider>, or provide controllerContext to it.',
    );
  });
});

describe('bindMutation', () => {
  it('runs through the provider above and calls back with each state', async () => {
    const { server, controller } = setup();
    const element = document.createElement('plain-element');
    await mount(controller, element);
    const statuses: string[] = [];
    const add = bindMutation(element, TodoResource.getList.push, (s) => statuses.push(s.status));
    const added = add.run({ title: 'b' });
    await settle();
    server.take('POST /todos').respond(201, { id: '2', title: 'b' });
    expect((await added).title).to.equal('b');
    expect(statuses).to.deep.equal(['pending', 'success']);
    expect(add.state.value?.title).to.equal('b');
    add.unbind();
  });

  it('rejects with the missing-provider error when no provider is above', async () => {
    const element = await fixture<HTMLElement>(html`<lonely-writer></lonely-writer>`);
    const add = bindMutation(element, TodoResource.getList.push, () => {});
    const error = await add.run({ title: 'b' }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).to.match(
      /^<lonely-writer> found no <resource-provider> above it to run/,
    );
    expect(add.state.status).to.equal('error');
  });
});
