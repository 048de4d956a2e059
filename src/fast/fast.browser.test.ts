// resource-elements/fast against the real Controller and a fake server answered by hand: FAST 3
// elements whose templates bind to readResource and mutateResource, under <resource-provider>.
import { expect, fixture, html as litHtml, aTimeout } from '@open-wc/testing';
import {
  FASTElement,
  Observable,
  Updates,
  attr,
  html,
  nullableNumberConverter,
  observable,
  repeat,
  when,
} from '@microsoft/fast-element';
import '../lit/define-provider.js';
import type { ResourceProvider } from '../lit/resource-provider.js';
import { until } from '../lit/test-utils/reader.js';
import { Controller } from '../core/controller/controller.js';
import { Todo, TodoResource, developing, setup } from '../elements/test-utils/fixtures.js';
import { bindRead } from '../elements/index.js';
import { keepPrevious } from '../views/index.js';
import { mutateResource, readResource } from './index.js';

const template = html<FastTodos>`
  ${when((x) => x.todos.status === 'pending', html`<p class="pending">Loading…</p>`)}
  ${when(
    (x) => x.todos.status === 'error',
    html<FastTodos>`<p class="error">${(x) => (x.todos.error as Error).message}</p>`,
  )}
  <ul>
    ${repeat((x) => x.todos.value ?? [], html<Todo>`<li>${(todo) => todo.title}</li>`)}
  </ul>
  <button ?disabled=${(x) => x.create.pending}>Add</button>
  ${when(
    (x) => x.create.error,
    html<FastTodos>`<p class="failed">${(x) => (x.create.error as Error).message}</p>`,
  )}
`;

/** A FAST element: the todos of `user-id`, and an Add button. */
class FastTodos extends FASTElement {
  @attr({ attribute: 'user-id', converter: nullableNumberConverter }) userId: number | null = 1;
  /** Read by the params function only when `userId` is 0 (a condition: a volatile binding). */
  @observable fallback = 7;
  /** Makes the params function throw while set. */
  @observable broken: Error | null = null;
  /** How many times the params function ran. */
  paramsRuns = 0;
  readonly todos = readResource(this, TodoResource.getList, (x) => {
    x.paramsRuns++;
    if (x.broken) throw x.broken;
    if (x.userId === null) return null;
    return { userId: x.userId === 0 ? x.fallback : x.userId };
  });
  readonly create = mutateResource(this, TodoResource.getList.push);
}
await FastTodos.define({ name: 'fast-todos-test', template });

/** A FAST element with no template: reads a list that takes no params, with no function. */
class FastOne extends FASTElement {
  readonly all = readResource(this, TodoResource.getList);
}
await FastOne.define({ name: 'fast-one-test' });

/** Keeps the last user's list on screen while the next one loads (the `view` option). */
class FastSteady extends FASTElement {
  @observable userId = 1;
  readonly todos = readResource(this, TodoResource.getList, (x) => ({ userId: x.userId }), {
    view: keepPrevious,
  });
}
await FastSteady.define({ name: 'fast-steady-test' });

/** Lets fetches settle and FAST's update queue (a frame) run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    await aTimeout(0);
    await Updates.next();
  }
}

/** A provider of `controller` holding `child`, in the page. */
async function mount<C extends Element>(controller: Controller, child: C): Promise<C> {
  const provider = document.createElement('resource-provider') as ResourceProvider;
  provider.controller = controller;
  provider.append(child);
  const host = await fixture<HTMLDivElement>(litHtml`<div></div>`);
  host.append(provider);
  await settle();
  return child;
}

const shown = (element: Element) =>
  (element.shadowRoot!.textContent ?? '').replace(/\s+/g, ' ').trim();
const titles = (element: Element) =>
  [...element.shadowRoot!.querySelectorAll('li')].map((li) => li.textContent!.trim());

/** The changes FAST's observation reports for `property` of `source`. */
function changesOf(source: object, property: string): { count: number; stop(): void } {
  const seen = { count: 0, stop: () => notifier.unsubscribe(subscriber, property) };
  const subscriber = { handleChange: () => seen.count++ };
  const notifier = Observable.getNotifier(source);
  notifier.subscribe(subscriber, property);
  return seen;
}

describe('readResource', () => {
  it('renders pending, then the list, from the provider above', async () => {
    const { server, controller } = setup();
    const element = await mount(controller, new FastTodos());
    expect(shown(element)).to.equal('Loading… Add');
    expect(element.todos.status).to.equal('pending');
    server.take('GET /todos?userId=1').respond(200, [
      { id: '1', userId: 1, title: 'a' },
      { id: '2', userId: 1, title: 'b' },
    ]);
    await until(() => expect(titles(element)).to.deep.equal(['a', 'b']));
    expect(element.shadowRoot!.querySelector('.pending')).to.equal(null);
    expect(element.todos.status).to.equal('complete');
    expect(element.todos.previous).to.equal(false);
  });

  it('notifies each field only when it changes: the same data again notifies nothing', async () => {
    const { server, controller } = setup();
    const element = await mount(controller, new FastTodos());
    const status = changesOf(element.todos, 'status');
    const value = changesOf(element.todos, 'value');
    const error = changesOf(element.todos, 'error');
    server.take('GET /todos?userId=1').respond(200, [{ id: '1', userId: 1, title: 'a' }]);
    await until(() => expect(element.todos.status).to.equal('complete'));
    expect([status.count, value.count, error.count]).to.deep.equal([1, 1, 0]);
    const refetched = element.todos.refetch();
    await settle();
    server.take('GET /todos?userId=1').respond(200, [{ id: '1', userId: 1, title: 'a' }]);
    await refetched;
    await settle();
    expect([status.count, value.count, error.count]).to.deep.equal([1, 1, 0]);
    // Another title: the value changes, the status stays complete.
    const again = element.todos.refetch();
    await settle();
    server.take('GET /todos?userId=1').respond(200, [{ id: '1', userId: 1, title: 'b' }]);
    await again;
    await until(() => expect(titles(element)).to.deep.equal(['b']));
    expect([status.count, value.count, error.count]).to.deep.equal([1, 2, 0]);
    for (const changes of [status, value, error]) changes.stop();
  });

  it('reads again when an observable the params function read changes', async () => {
    const { server, controller } = setup();
    const element = await mount(controller, new FastTodos());
    server.take('GET /todos?userId=1').respond(200, [{ id: '1', userId: 1, title: 'a' }]);
    await until(() => expect(titles(element)).to.deep.equal(['a']));
    element.setAttribute('user-id', '2');
    await settle();
    expect(server.waiting.map((r) => `${r.method} ${r.url}`)).to.deep.equal([
      'GET /todos?userId=2',
    ]);
    server.take('GET /todos?userId=2').respond(200, [{ id: '3', userId: 2, title: 'c' }]);
    await until(() => expect(titles(element)).to.deep.equal(['c']));
    // A branch reads another observable from then on: a change of it is heard too.
    element.userId = 0;
    await settle();
    server.take('GET /todos?userId=7').respond(200, []);
    element.fallback = 8;
    await settle();
    server.take('GET /todos?userId=8').respond(200, [{ id: '4', userId: 8, title: 'd' }]);
    await until(() => expect(titles(element)).to.deep.equal(['d']));
    // Back to user 1: the stored list shows at once.
    element.userId = 1;
    await until(() => expect(titles(element)).to.deep.equal(['a']));
  });

  it('reads nothing for null params, and shows what a throwing params function threw', async () => {
    const { server, controller } = setup();
    const element = await mount(controller, new FastTodos());
    server.take('GET /todos?userId=1').respond(200, [{ id: '1', userId: 1, title: 'a' }]);
    await until(() => expect(titles(element)).to.deep.equal(['a']));
    element.broken = new Error('no user chosen');
    await until(() => expect(shown(element)).to.equal('no user chosen Add'));
    expect(element.todos.status).to.equal('error');
    expect(element.todos.error).to.equal(element.broken);
    element.broken = null;
    await until(() => expect(titles(element)).to.deep.equal(['a']));
    expect(element.todos.error).to.equal(undefined);
    element.userId = null;
    await settle();
    expect(element.todos.value).to.equal(undefined);
    expect(server.waiting).to.have.length(0);
  });

  it('takes a view: the last list stays, marked previous, while the next loads', async () => {
    const { server, controller } = setup();
    const element = await mount(controller, new FastSteady());
    const previous = changesOf(element.todos, 'previous');
    server.take('GET /todos?userId=1').respond(200, [{ id: '1', userId: 1, title: 'a' }]);
    await until(() => expect(element.todos.status).to.equal('complete'));
    element.userId = 2;
    await settle();
    expect(element.todos.value?.map((todo) => todo.title)).to.deep.equal(['a']);
    expect(element.todos.previous).to.equal(true);
    server.take('GET /todos?userId=2').respond(200, [{ id: '2', userId: 2, title: 'b' }]);
    await until(() => expect(element.todos.previous).to.equal(false));
    expect(element.todos.value?.map((todo) => todo.title)).to.deep.equal(['b']);
    expect(previous.count).to.equal(2);
    previous.stop();
  });

  it('reads an endpoint that takes no params without a function', async () => {
    const { server, controller } = setup();
    const element = await mount(controller, new FastOne());
    server.take('GET /todos').respond(200, [{ id: '1', userId: 1, title: 'a' }]);
    await until(() => expect(element.all.value?.map((todo) => todo.title)).to.deep.equal(['a']));
  });

  it('lets go of the read when the element leaves, and binds again when it comes back', async () => {
    const { server, controller } = setup();
    const base = controller.stats().listeners;
    const element = await mount(controller, new FastTodos());
    const provider = element.parentElement!;
    server.take('GET /todos?userId=1').respond(200, [{ id: '1', userId: 1, title: 'a' }]);
    await until(() => expect(titles(element)).to.deep.equal(['a']));
    expect(controller.stats()).to.deep.include({ subscriptions: 1, listeners: base + 1 });
    element.remove();
    await settle();
    expect(controller.stats()).to.deep.include({ subscriptions: 0, listeners: base });
    // Not connected: a change of its params sends nothing.
    element.userId = 2;
    await settle();
    expect(server.waiting).to.have.length(0);
    provider.append(element);
    await settle();
    expect(controller.stats()).to.deep.include({ subscriptions: 1, listeners: base + 1 });
    server.take('GET /todos?userId=2').respond(200, [{ id: '2', userId: 2, title: 'b' }]);
    await until(() => expect(titles(element)).to.deep.equal(['b']));
    // Only the new connection watches the params: one change runs the function once.
    const runs = element.paramsRuns;
    element.userId = 3;
    await settle();
    expect(element.paramsRuns).to.equal(runs + 1);
    expect(server.waiting.map((r) => r.url)).to.deep.equal(['/todos?userId=3']);
  });

  it('gives the error bindRead gives when no provider is above', async () => {
    const host = await fixture<HTMLDivElement>(litHtml`<div></div>`);
    const stop = developing();
    const lonely = document.createElement('lonely-reader');
    try {
      const element = new FastTodos();
      host.append(element, lonely);
      const states: unknown[] = [];
      bindRead(lonely, TodoResource.getList, {}, (state) => states.push(state.error));
      await settle();
      expect(element.todos.status).to.equal('error');
      expect((element.todos.error as Error).message).to.equal(
        (states.at(-1) as Error).message.replace('lonely-reader', 'fast-todos-test'),
      );
      expect((element.todos.error as Error).message).to.match(
        /^<fast-todos-test> found no <resource-provider> above it: wrap it/,
      );
      await until(() => expect(element.shadowRoot!.querySelector('.error')).to.not.equal(null));
    } finally {
      stop();
    }
  });

  it('refuses an element that is not a FAST element, with advice in development', async () => {
    const plain = document.createElement('div');
    const stop = developing();
    try {
      expect(() => readResource(plain as never, TodoResource.getList)).to.throw(
        TypeError,
        '<div> has no $fastController: readResource and mutateResource bind to a FASTElement; ' +
          'for any other element use bindRead and bindMutation from resource-elements/elements.',
      );
    } finally {
      stop();
    }
    expect(() => mutateResource(plain as never, TodoResource.delete)).to.throw(
      TypeError,
      /^<div> has no \$fastController\.$/,
    );
  });
});

describe('mutateResource', () => {
  it('runs through the provider; the button follows pending, the list shows the new member', async () => {
    const { server, controller } = setup();
    const element = await mount(controller, new FastTodos());
    server.take('GET /todos?userId=1').respond(200, [{ id: '1', userId: 1, title: 'a' }]);
    await until(() => expect(titles(element)).to.deep.equal(['a']));
    const button = element.shadowRoot!.querySelector('button')!;
    const statuses = changesOf(element.create, 'status');
    expect(element.create.status).to.equal('idle');
    const added = element.create.run({ title: 'b', userId: 1 });
    expect(element.create.status).to.equal('pending');
    await until(() => expect(button.disabled).to.equal(true));
    server.take('POST /todos').respond(201, { id: '2', userId: 1, title: 'b' });
    expect((await added).title).to.equal('b');
    await until(() => expect(button.disabled).to.equal(false));
    expect(element.create.status).to.equal('success');
    expect(element.create.value?.title).to.equal('b');
    await until(() => expect(titles(element)).to.deep.equal(['a', 'b']));
    element.create.reset();
    expect(element.create.status).to.equal('idle');
    expect(element.create.value).to.equal(undefined);
    expect(statuses.count).to.equal(3);
    statuses.stop();
  });

  it("shows a failed run's error, and the next run clears it", async () => {
    const { server, controller } = setup();
    const element = await mount(controller, new FastTodos());
    server.take('GET /todos?userId=1').respond(200, []);
    const failed = element.create.run({ title: '' });
    // Ignored by the caller on purpose: the state tells.
    failed.catch(() => {});
    await settle();
    server.take('POST /todos').respond(400, { error: 'Title must not be empty.' });
    await until(() => expect(element.create.status).to.equal('error'));
    await until(() =>
      expect(element.shadowRoot!.querySelector('.failed')?.textContent ?? '').to.include(
        'Title must not be empty.',
      ),
    );
    const added = element.create.run({ title: 'b' });
    await until(() => expect(element.shadowRoot!.querySelector('.failed')).to.equal(null));
    expect(element.create.error).to.equal(undefined);
    await settle();
    server.take('POST /todos').respond(201, { id: '2', userId: 1, title: 'b' });
    await added;
  });

  it('rejects with the missing-provider error while the element is not connected', async () => {
    const { server, controller } = setup();
    const element = new FastTodos();
    const unhandled: unknown[] = [];
    const onUnhandled = (event: PromiseRejectionEvent) => unhandled.push(event.reason);
    window.addEventListener('unhandledrejection', onUnhandled);
    try {
      // Ignored: the state shows the error, and no rejection is left unhandled.
      void element.create.run({ title: 'a' });
      await aTimeout(20);
      expect(element.create.status).to.equal('error');
      expect((element.create.error as Error).message).to.match(
        /^<fast-todos-test> found no <resource-provider> above it to run a mutation/,
      );
      expect(unhandled).to.deep.equal([]);
      element.create.reset();
      expect(element.create.status).to.equal('idle');
      void element.create.run({ title: 'a' });
      expect(element.create.status).to.equal('error');
    } finally {
      window.removeEventListener('unhandledrejection', onUnhandled);
    }
    // Connected, it starts idle and runs through the provider.
    await mount(controller, element);
    expect(element.create.status).to.equal('idle');
    const added = element.create.run({ title: 'a' });
    await settle();
    server.take('POST /todos').respond(201, { id: '1', userId: 1, title: 'a' });
    expect((await added).id).to.equal('1');
  });

  it('is idle again when the element leaves: a run in flight then settles its promise only', async () => {
    const { server, controller } = setup();
    const element = await mount(controller, new FastTodos());
    const provider = element.parentElement!;
    server.take('GET /todos?userId=1').respond(200, []);
    const added = element.create.run({ title: 'a' });
    await settle();
    element.remove();
    expect(element.create.status).to.equal('idle');
    server.take('POST /todos').respond(201, { id: '1', userId: 1, title: 'a' });
    expect((await added).id).to.equal('1');
    await settle();
    expect(element.create.status).to.equal('idle');
    expect(element.create.value).to.equal(undefined);
    provider.append(element);
    const again = element.create.run({ title: 'b' });
    expect(element.create.status).to.equal('pending');
    await settle();
    server.take('POST /todos').respond(201, { id: '2', userId: 1, title: 'b' });
    await again;
    expect(element.create.status).to.equal('success');
  });
});
