// MutationController on the real Controller with a fake server answered by hand: statuses, the
// promise run returns, overlapping runs, reset, re-renders, optimistic endpoints, hooks, a host
// that leaves, and a host with no provider.
import { expect, fixture, html } from '@open-wc/testing';
import { LitElement } from 'lit';
import './define-provider.js';
import { ResourceProvider } from './resource-provider.js';
import { MutationController, MutationStatus } from './mutation-controller.js';
import { until } from './test-utils/reader.js';
import { Controller } from '../core/controller/controller.js';
import { FakeServer } from '../core/controller/test-utils/fake-fetch.js';
import { createResource } from '../core/rest/create-resource.js';
import { Entity } from '../core/schema/entity.js';

class Task extends Entity {
  id = '';
  title = '';
  pk() {
    return this.id;
  }
  static key = 'MutTask';
}

const TaskResource = createResource({ path: '/tasks/:id', schema: Task, optimistic: true });
const PlainTasks = createResource({ path: '/plain/:id', schema: Task });

let hookCalls = 0;

class TaskEditor extends LitElement {
  renders = 0;
  readonly rename = new MutationController(this, PlainTasks.partialUpdate);
  readonly optimisticRename = new MutationController(this, TaskResource.partialUpdate);
  readonly create = new MutationController(this, () => {
    hookCalls++;
    return PlainTasks.getList.push;
  });
  protected override createRenderRoot() {
    return this;
  }
  override render() {
    this.renders++;
    const { status, error } = this.rename;
    return html`<button ?disabled=${this.rename.pending}>Save</button>
      <span class="status">${status}</span>
      <span class="error">${error ? (error as Error).message : ''}</span>`;
  }
}
customElements.define('mutation-task-editor', TaskEditor);

let made: Controller[] = [];
let rejections: unknown[] = [];
const onRejection = (event: PromiseRejectionEvent) => void rejections.push(event.reason);

function setup() {
  const server = new FakeServer();
  const controller = new Controller({ fetch: server.fetch });
  made.push(controller);
  return { server, controller };
}

async function mount(
  controller: Controller,
): Promise<{ provider: ResourceProvider; editor: TaskEditor }> {
  const provider = document.createElement('resource-provider');
  provider.controller = controller;
  provider.append(document.createElement('mutation-task-editor'));
  await fixture(html`<div>${provider}</div>`);
  const editor = provider.querySelector<TaskEditor>('mutation-task-editor')!;
  await editor.updateComplete;
  return { provider, editor };
}

/** Lets fetch, body parsing and Lit's update run (macrotasks). */
async function settle(): Promise<void> {
  for (let i = 0; i < 4; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}

const text = (editor: Element, selector: string) =>
  editor.querySelector(selector)!.textContent!.trim();

describe('MutationController', () => {
  beforeEach(() => {
    rejections = [];
    window.addEventListener('unhandledrejection', onRejection);
  });
  afterEach(async () => {
    await settle();
    window.removeEventListener('unhandledrejection', onRejection);
    for (const controller of made) controller.dispose();
    made = [];
    expect(rejections.map(String), 'no unhandled rejection').to.deep.equal([]);
  });

  it('exposes MutationStatus', () => {
    expect(MutationStatus).to.deep.equal({
      Idle: 'idle',
      Pending: 'pending',
      Success: 'success',
      Error: 'error',
    });
  });

  it('idle, then pending (host re-rendered, button disabled), then success with the value', async () => {
    const { server, controller } = setup();
    controller.setResponse(PlainTasks.get, { id: '1' }, { id: '1', title: 'old' });
    const { editor } = await mount(controller);
    expect(editor.rename.status).to.equal('idle');
    const renders = editor.renders;
    const done = editor.rename.run({ id: '1' }, { title: 'new' });
    expect(editor.rename.status).to.equal('pending');
    await editor.updateComplete;
    expect(editor.renders).to.equal(renders + 1);
    expect(text(editor, '.status')).to.equal('pending');
    expect(editor.querySelector('button')!.disabled).to.equal(true);
    await until(() => expect(server.waiting).to.have.length(1));
    const request = server.take();
    expect(`${request.method} ${request.url}`).to.equal('PATCH /plain/1');
    expect(request.body).to.deep.equal({ title: 'new' });
    request.respond(200, { id: '1', title: 'new' });
    const value = await done;
    expect(value).to.be.instanceOf(Task);
    expect(value.title).to.equal('new');
    expect(editor.rename.status).to.equal('success');
    expect(editor.rename.value).to.equal(value);
    await editor.updateComplete;
    expect(text(editor, '.status')).to.equal('success');
    expect(editor.querySelector('button')!.disabled).to.equal(false);
    expect(controller.getResponse(PlainTasks.get, { id: '1' }).data!.title).to.equal('new');
  });

  it('a failure shows in error; the promise rejects for a caller that awaits, and an ignored one is not unhandled', async () => {
    const { server, controller } = setup();
    const { editor } = await mount(controller);
    const ignored = editor.rename.run({ id: '1' }, { title: 'x' });
    void ignored; // nobody handles it: no unhandled rejection (checked after each test)
    await until(() => expect(server.waiting).to.have.length(1));
    server.take().respond(422, { message: 'title taken' });
    await until(() => expect(editor.rename.status).to.equal('error'));
    await editor.updateComplete;
    expect(text(editor, '.error')).to.contain('422');
    expect(editor.rename.value).to.equal(undefined);

    const awaited = editor.rename.run({ id: '1' }, { title: 'y' });
    expect(editor.rename.error).to.equal(undefined, 'a new run clears the last error');
    await until(() => expect(server.waiting).to.have.length(1));
    server.take().respond(500, { message: 'down' });
    let caught: unknown;
    await awaited.catch((error: unknown) => (caught = error));
    expect((caught as { status: number }).status).to.equal(500);
    expect(editor.rename.error).to.equal(caught);
    expect(server.calls).to.have.length(2, 'a mutation is not retried');
  });

  it('overlapping runs: the status follows the latest, whatever order they settle in', async () => {
    const { server, controller } = setup();
    const { editor } = await mount(controller);
    const first = editor.rename.run({ id: '1' }, { title: 'first' });
    const second = editor.rename.run({ id: '1' }, { title: 'second' });
    await until(() => expect(server.waiting).to.have.length(2));
    const [a, b] = [server.take(), server.take()];
    b.respond(500, { message: 'second failed' });
    await second.catch(() => {});
    expect(editor.rename.status).to.equal('error');
    a.respond(200, { id: '1', title: 'first' });
    expect((await first).title).to.equal('first');
    // The first run's success is older news: the latest run failed.
    expect(editor.rename.status).to.equal('error');
    expect(editor.rename.value).to.equal(undefined);

    const third = editor.rename.run({ id: '1' }, { title: 'third' });
    const fourth = editor.rename.run({ id: '1' }, { title: 'fourth' });
    await until(() => expect(server.waiting).to.have.length(2));
    const [c, d] = [server.take(), server.take()];
    d.respond(200, { id: '1', title: 'fourth' });
    await fourth;
    expect(editor.rename.status).to.equal('success');
    c.respond(500, { message: 'third failed late' });
    await third.catch(() => {});
    expect(editor.rename.status).to.equal('success');
    expect(editor.rename.value!.title).to.equal('fourth');
    expect(editor.rename.error).to.equal(undefined);
  });

  it('reset: back to idle at once; a run in flight no longer changes the state', async () => {
    const { server, controller } = setup();
    const { editor } = await mount(controller);
    const running = editor.rename.run({ id: '1' }, { title: 'x' });
    editor.rename.reset();
    expect(editor.rename.status).to.equal('idle');
    await editor.updateComplete;
    expect(text(editor, '.status')).to.equal('idle');
    await until(() => expect(server.waiting).to.have.length(1));
    server.take().respond(200, { id: '1', title: 'x' });
    await running;
    expect(editor.rename.status).to.equal('idle');
    expect(editor.rename.value).to.equal(undefined);
  });

  it('optimistic endpoint: the guess shows at once while the status is pending', async () => {
    const { server, controller } = setup();
    controller.setResponse(TaskResource.get, { id: '1' }, { id: '1', title: 'old' });
    const { editor } = await mount(controller);
    const done = editor.optimisticRename.run({ id: '1' }, { title: 'guessed' });
    expect(controller.getResponse(TaskResource.get, { id: '1' }).data!.title).to.equal('guessed');
    expect(editor.optimisticRename.status).to.equal('pending');
    await until(() => expect(server.waiting).to.have.length(1));
    server.take().respond(500, { message: 'no' });
    await done.catch(() => {});
    expect(editor.optimisticRename.status).to.equal('error');
    expect(controller.getResponse(TaskResource.get, { id: '1' }).data!.title).to.equal('old');
  });

  it('a hook is called at each run, and its endpoint runs', async () => {
    const { server, controller } = setup();
    const { editor } = await mount(controller);
    hookCalls = 0;
    const created = editor.create.run({ title: 'made' });
    expect(hookCalls).to.equal(1);
    await until(() => expect(server.waiting).to.have.length(1));
    const request = server.take();
    expect(`${request.method} ${request.url}`).to.equal('POST /plain');
    request.respond(201, { id: '9', title: 'made' });
    expect((await created).id).to.equal('9');
  });

  it('a host that leaves does not abort its mutation; it lands in the store', async () => {
    const { server, controller } = setup();
    controller.setResponse(PlainTasks.get, { id: '1' }, { id: '1', title: 'old' });
    const { editor } = await mount(controller);
    const done = editor.rename.run({ id: '1' }, { title: 'after leaving' });
    await until(() => expect(server.waiting).to.have.length(1));
    editor.remove();
    await settle();
    const request = server.take();
    expect(request.signal?.aborted ?? false).to.equal(false);
    request.respond(200, { id: '1', title: 'after leaving' });
    await done;
    expect(controller.getResponse(PlainTasks.get, { id: '1' }).data!.title).to.equal(
      'after leaving',
    );
  });

  it('args the endpoint refuses (no id for /plain/:id): error naming the parameter, no request', async () => {
    const { server, controller } = setup();
    const { editor } = await mount(controller);
    const ignored = editor.rename.run({} as never, { title: 'x' });
    void ignored; // not handled: still no unhandled rejection
    await until(() => expect(editor.rename.status).to.equal('error'));
    const message = (editor.rename.error as Error).message;
    expect(message).to.contain('"id"');
    expect(message).to.contain('/plain/:id');
    await settle();
    expect(server.calls).to.have.length(0);
  });

  it('with no provider: run rejects with an error naming the element, shown in error', async () => {
    const editor = await fixture<TaskEditor>(html`<mutation-task-editor></mutation-task-editor>`);
    let caught: unknown;
    await editor.rename
      .run({ id: '1' }, { title: 'x' })
      .catch((error: unknown) => (caught = error));
    expect((caught as Error).message).to.contain('<mutation-task-editor>');
    expect((caught as Error).message).to.contain('<resource-provider>');
    expect(editor.rename.status).to.equal('error');
    expect(editor.rename.error).to.equal(caught);
  });
  it('a host moved out of every provider: run rejects as with no provider; moved into another, it runs there', async () => {
    const first = setup();
    const { provider, editor } = await mount(first.controller);
    // Moved out of the provider while connected: there is no provider above it now.
    provider.after(editor);
    let caught: unknown;
    editor.rename
      .run({ id: '1' }, { title: 'nowhere' })
      .catch((error: unknown) => (caught = error));
    await settle();
    // Before: the run went to the Controller of the provider the element had left.
    expect(first.server.calls.map((call) => call.url)).to.deep.equal([]);
    expect((caught as Error).message).to.contain('<mutation-task-editor>');
    expect((caught as Error).message).to.contain('<resource-provider>');
    expect(editor.rename.status).to.equal('error');
    // Into another provider: its Controller runs it.
    const second = setup();
    const other = document.createElement('resource-provider');
    other.controller = second.controller;
    provider.after(other);
    other.append(editor);
    const saved = editor.rename.run({ id: '1' }, { title: 'second' });
    await until(() => expect(second.server.calls).to.have.length(1));
    second.server.take('PATCH /plain/1').respond(200, { id: '1', title: 'second' });
    expect((await saved).title).to.equal('second');
    expect(first.server.calls).to.have.length(0);
    // A host that left the page keeps the last Controller: a save on leaving still runs.
    editor.remove();
    const onLeaving = editor.rename.run({ id: '1' }, { title: 'on leaving' });
    await until(() => expect(second.server.calls).to.have.length(2));
    second.server.take('PATCH /plain/1').respond(200, { id: '1', title: 'on leaving' });
    expect((await onLeaving).title).to.equal('on leaving');
  });

  it('binds to a provider that upgrades after its children (no ResourceController on the page)', async () => {
    // Nothing else on this page reads: the MutationController itself must keep its request for
    // the Controller until a provider arrives.
    const tag = 'late-mutation-provider';
    const wrapper = await fixture<HTMLDivElement>(
      html`<div>
        <late-mutation-provider
          ><mutation-task-editor></mutation-task-editor
        ></late-mutation-provider>
      </div>`,
    );
    const editor = wrapper.querySelector<TaskEditor>('mutation-task-editor')!;
    await editor.updateComplete;
    const { server, controller } = setup();
    (wrapper.querySelector(tag) as unknown as ResourceProvider).controller = controller;
    customElements.define(tag, class extends ResourceProvider {});
    await settle();
    const saved = editor.rename.run({ id: '1' }, { title: 'late' });
    await until(() => expect(server.calls).to.have.length(1));
    server.take('PATCH /plain/1').respond(200, { id: '1', title: 'late' });
    expect((await saved).title).to.equal('late');
    expect(editor.rename.status).to.equal('success');
  });
});
