// A steady screen through ResourceController, in each engine: the keepPrevious view keeps the
// last list while the read of new args loads (`previous`), `refreshing` shows a request in
// flight under shown data, and a select view renders the host again only for a new result.
import { expect, html } from '@open-wc/testing';
import { LitElement } from 'lit';
import { mount, settle, text } from './test-utils/mount.js';
import { ResourceController } from './resource-controller.js';
import { Controller } from '../core/controller/controller.js';
import { FakeServer } from '../core/controller/test-utils/fake-fetch.js';
import { RestEndpoint } from '../core/rest/rest-endpoint.js';
import { Entity } from '../core/schema/entity.js';
import { keepPrevious, select } from '../views/index.js';

class Task extends Entity {
  id = '';
  title = '';
  done = false;
  pk() {
    return this.id;
  }
  static key = 'Task';
}

const getTasks = new RestEndpoint({
  path: '/tasks',
  searchParams: {} as { q?: string },
  schema: [Task],
});

class TaskSearch extends LitElement {
  static override properties = { q: {} };
  q = 'a';
  renders = 0;
  tasks = new ResourceController(this, getTasks, () => ({ q: this.q }), { view: keepPrevious });
  protected override createRenderRoot() {
    return this;
  }
  override render() {
    this.renders++;
    const state = `${this.tasks.previous ? 'previous' : 'current'} ${this.tasks.refreshing ? 'refreshing' : 'idle'}`;
    return this.tasks.render({
      pending: () => html`<p>Loading…</p>`,
      complete: (tasks) => html`<p>${state}: ${tasks.map((task) => task.title).join(', ')}</p>`,
      error: (error) => html`<p>error: ${(error as Error).message}</p>`,
    });
  }
}
customElements.define('steady-task-search', TaskSearch);

class DoneCount extends LitElement {
  renders = 0;
  done = new ResourceController(this, getTasks, () => ({}), {
    view: select((tasks: Task[]) => tasks.filter((task) => task.done).length),
  });
  protected override createRenderRoot() {
    return this;
  }
  override render() {
    this.renders++;
    return this.done.render({ complete: (count) => html`<p>${count} done</p>` });
  }
}
customElements.define('steady-done-count', DoneCount);

describe('a steady screen through ResourceController', () => {
  it('keeps the last list on screen, marked previous and refreshing, while new args load', async () => {
    const server = new FakeServer();
    const controller = new Controller({ fetch: server.fetch, retry: 0 });
    const provider = await mount(controller, html`<steady-task-search></steady-task-search>`);
    const view = provider.querySelector('steady-task-search')! as TaskSearch;
    expect(text(view)).to.equal('Loading…');
    server.take('GET /tasks?q=a').respond(200, [{ id: '1', title: 'apple' }]);
    await settle();
    expect(text(view)).to.equal('current idle: apple');

    view.q = 'ap';
    await settle();
    expect(text(view)).to.equal('previous refreshing: apple');
    expect(view.tasks.status).to.equal('complete');
    server.take('GET /tasks?q=ap').respond(200, [{ id: '2', title: 'apricot' }]);
    await settle();
    expect(text(view)).to.equal('current idle: apricot');

    // A refetch of what is shown: the same list, refreshing while it is in flight.
    const refetched = view.tasks.refetch();
    await settle();
    expect(text(view)).to.equal('current refreshing: apricot');
    server.take('GET /tasks?q=ap').respond(200, [{ id: '2', title: 'apricot' }]);
    await refetched;
    await settle();
    expect(text(view)).to.equal('current idle: apricot');

    // An error of new args is shown as an error, not hidden under the last list.
    view.q = 'x';
    await settle();
    server.take('GET /tasks?q=x').respond(500, { detail: 'down' });
    await settle();
    expect(text(view)).to.match(/^error: /);
  });

  it('renders a select view again only when what it selects changes', async () => {
    const server = new FakeServer();
    const controller = new Controller({ fetch: server.fetch });
    const provider = await mount(controller, html`<steady-done-count></steady-done-count>`);
    const view = provider.querySelector('steady-done-count')! as DoneCount;
    server.take('GET /tasks').respond(200, [
      { id: '1', title: 'a', done: true },
      { id: '2', title: 'b', done: false },
    ]);
    await settle();
    expect(text(view)).to.equal('1 done');
    const renders = view.renders;

    controller.set(Task, { id: '2', title: 'b, renamed' });
    await settle();
    expect(view.renders).to.equal(renders, 'a title edit does not render the count again');
    controller.set(Task, { id: '2', done: true });
    await settle();
    expect(text(view)).to.equal('2 done');
    expect(view.renders).to.equal(renders + 1);
  });
});
