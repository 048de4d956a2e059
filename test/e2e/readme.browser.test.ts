// Runs the guide's examples (readme-examples.ts, copies of docs/guide/ blocks) in each browser
// engine against the demo's API, so the guide's code is known to work, not only to compile.
import { expect, fixture, html } from '@open-wc/testing';
import { Controller } from '../../src/index.js';
import {
  AccountHooks,
  MoreTodos,
  PostResource,
  SortedTodoResource,
  TodoResource,
  Todo,
  UserResource,
  actionLog,
  applyPush,
  cachedController,
  completedElsewhere,
  liveController,
  callDirectly,
  loggedController,
  transfer,
  createTodos,
  forget,
  markDone,
  openOfUserOne,
  removeTodo,
  session,
  withController,
  type EndlessFeed,
  type NewTodo,
  type TodoRow,
  type TodoRows,
  type TodoToggle,
  type WhoAmI,
} from './readme-examples.js';
import { until as waitUntil } from '../../src/lit/test-utils/reader.js';

/** Waits for `check` to pass (3 s: the examples talk to the demo's API). */
const until = (check: () => void) => waitUntil(check, 3000);

const text = (element: Element) =>
  (element.shadowRoot ?? element).textContent!.replace(/\s+/g, ' ').trim();

async function serverTodo(id: string) {
  return (await fetch(`/api/todos/${id}`)).json();
}

/** Mounts `template` under a provider with its own Controller; returns both. */
async function mount(template: unknown) {
  const controller = new Controller();
  const provider = await fixture<HTMLElement & { controller: Controller }>(
    html`<resource-provider .controller=${controller}>${template}</resource-provider>`,
  );
  return { controller, provider };
}

describe('README examples', () => {
  beforeEach(async () => {
    await fetch('/api/__reset', { method: 'POST' });
    session.token = '';
  });

  it('calls endpoints directly and through a Controller', async () => {
    const { todo, open } = await callDirectly();
    expect(todo.title).to.equal('Write the spec');
    expect(open.map((t) => t.title)).to.deep.equal([
      'Write the spec',
      'Review pull requests',
      'Fix the flaky test',
    ]);
    expect(await withController()).to.equal(true);
    expect((await MoreTodos.byUser({ userId: 2 })).length).to.equal(4);
  });

  it('lists todos, creates with push and unshift, toggles from an element', async () => {
    const { controller, provider } = await mount(
      html`<todo-list .userId=${1}></todo-list><todo-toggle></todo-toggle>`,
    );
    const list = provider.querySelector('todo-list')!;
    await until(() => expect(list.shadowRoot!.querySelectorAll('li')).to.have.length(4));

    expect(await createTodos(controller)).to.deep.equal(['Buy milk', 'Call the bank']);
    await until(() => expect(list.shadowRoot!.querySelectorAll('li')).to.have.length(6));
    const items = [...list.shadowRoot!.querySelectorAll('li')].map((li) => li.textContent);
    expect(items[0]).to.equal('Call the bank');
    expect(items[5]).to.equal('Buy milk');

    const toggle = provider.querySelector<TodoToggle>('todo-toggle')!;
    toggle.todo = await controller.fetch(TodoResource.get, { id: '2' });
    await toggle.updateComplete;
    toggle.shadowRoot!.querySelector('input')!.click();
    await until(() =>
      expect(controller.getResponse(TodoResource.get, { id: '2' }).data?.completed).to.equal(true),
    );
    expect((await serverTodo('2')).completed).to.equal(true);
  });

  it('MutationController: the form adds a todo, disabled while pending, and clears its input', async () => {
    const { controller, provider } = await mount(html`<new-todo></new-todo>`);
    const form = provider.querySelector<NewTodo>('new-todo')!;
    await form.updateComplete;
    const input = form.shadowRoot!.querySelector('input')!;
    input.value = 'Water the plants';
    input.dispatchEvent(new InputEvent('input'));
    form.shadowRoot!.querySelector('button')!.click();
    await form.updateComplete;
    expect(form.shadowRoot!.querySelector('button')!.disabled).to.equal(true);
    await until(() => expect(form.shadowRoot!.querySelector('button')!.disabled).to.equal(false));
    expect(form.title).to.equal('');
    expect(form.shadowRoot!.querySelector('[role=alert]')).to.equal(null);
    const list = await controller.fetch(TodoResource.getList, { userId: 1 });
    expect(list.map((todo) => todo.title)).to.include('Water the plants');
  });

  it('InfiniteController: More loads the next pages until the last, each post once', async () => {
    // Far below the viewport, so its sentinel stays out of view and only More loads pages (in
    // view, the sentinel loads them by itself, racing the first check for five posts).
    const { provider } = await mount(
      html`<div style="height: 3000px"></div>
        <endless-feed></endless-feed>`,
    );
    const feed = provider.querySelector<EndlessFeed>('endless-feed')!;
    const items = () => [...feed.shadowRoot!.querySelectorAll('li')].map((li) => li.textContent);
    await until(() => expect(items()).to.have.length(5));
    const more = () => feed.shadowRoot!.querySelector('button');
    more()!.click();
    await until(() => expect(items()).to.have.length(10));
    more()!.click();
    await until(() => expect(items()).to.have.length(12));
    expect(new Set(items()).size).to.equal(12);
    expect(more()).to.equal(null);
    expect(feed.shadowRoot!.textContent).to.contain('That is all.');
  });

  it('a custom Collection ignores sort when matching lists', async () => {
    const controller = new Controller();
    await controller.fetch(SortedTodoResource.getList, { userId: 1, sort: 'title' });
    await controller.fetch(SortedTodoResource.getList.push, { title: 'Sorted', userId: 1 });
    const list = controller.getResponse(SortedTodoResource.getList, { userId: 1, sort: 'title' });
    expect(list.data!.map((t) => t.title)).to.include('Sorted');
  });

  it('followed lists: a pushed completion moves the todo from Open to Done, no list fetched', async () => {
    const controller = new Controller();
    const lists = await completedElsewhere(controller);
    expect(lists).to.deep.equal([
      ['Review pull requests', 'Fix the flaky test'],
      ['Plan the release', 'Write the spec'],
    ]);
  });

  it('queries: the open todos of a user and the done counts, from the store, with no request of their own', async () => {
    const open = await openOfUserOne();
    expect(open!.map((todo) => todo.title)).to.deep.equal([
      'Fix the flaky test',
      'Review pull requests',
      'Write the spec',
    ]);
    await fetch('/api/__reset', { method: 'POST' });
    const { provider } = await mount(html`<todo-board></todo-board>`);
    const board = provider.querySelector('todo-board')!;
    const items = () => [...board.shadowRoot!.querySelectorAll('li')].map((li) => li.textContent);
    await until(() => expect(text(board)).to.contain('User 1 has done 1.'));
    expect(items()).to.deep.equal(['Fix the flaky test', 'Review pull requests', 'Write the spec']);
    board.shadowRoot!.querySelector('button')!.click();
    await until(() => expect(text(board)).to.contain('User 2 has done 1.'));
    expect(items()).to.deep.equal(['Fix the flaky test', 'Plan the release', 'Write the spec']);
    board.shadowRoot!.querySelector('button')!.click();
    await until(() => expect(text(board)).to.contain('User 3 has done 2.'));
    expect(items()).to.deep.equal(['Plan the release', 'Review pull requests']);
    const requests = (await (await fetch('/api/__requests')).json()) as { path: string }[];
    expect(requests.map((request) => request.path)).to.deep.equal(['/todos']);
  });

  it('loads the next page', async () => {
    const { provider } = await mount(html`<post-feed></post-feed>`);
    const feed = provider.querySelector('post-feed')!;
    await until(() => expect(feed.shadowRoot!.querySelectorAll('li')).to.have.length(5));
    feed.shadowRoot!.querySelector('button')!.click();
    await until(() => expect(feed.shadowRoot!.querySelectorAll('li')).to.have.length(10));
    expect(PostResource.getList.getPage.url({ group: 'news', page: 2 })).to.equal(
      '/api/news/posts?page=2',
    );
  });

  it('applies a custom optimistic response, deletes, invalidates, shows 404', async () => {
    const { controller, provider } = await mount(html`<todo-detail todoId="3"></todo-detail>`);
    const detail = provider.querySelector('todo-detail')!;
    await until(() => expect(text(detail)).to.equal('Plan the release'));

    const done = controller.fetch(markDone, { id: '1' }, { completed: true });
    await done.catch(() => undefined); // nothing stored for todo 1: the guess aborts, the request runs
    expect((await serverTodo('1')).completed).to.equal(true);

    await removeTodo(controller, '3');
    await until(() => expect(text(detail)).to.equal('No todo 3.'));
    forget(controller);
  });

  it('sends the Access-Token from the hook, and credentials from the custom Endpoint', async () => {
    const { controller, provider } = await mount(
      html`<who-am-i></who-am-i><server-clock></server-clock>`,
    );
    const who = provider.querySelector<WhoAmI>('who-am-i')!;
    // Without a token the server answers 401, and a client error stays until asked again.
    await until(() =>
      expect(controller.getError(AccountHooks.useMe())).to.have.property('status', 401),
    );
    await who.useToken('abc');
    await until(() => expect(text(who)).to.equal('Signed in as Token holder (abc)'));
    expect(AccountHooks.useMe().requestInit?.headers).to.deep.equal({ 'Access-Token': 'abc' });
    expect((await UserResource.get.getRequestInit(undefined)).credentials).to.equal('same-origin');
    const clock = provider.querySelector('server-clock')!;
    await until(() => expect(text(clock)).to.match(/^\d{4}-\d\d-\d\dT/));
  });

  it('the logger manager sees the actions and failures of its Controller', async () => {
    actionLog.length = 0;
    await loggedController.fetch(TodoResource.get, { id: '2' });
    expect(actionLog).to.include('response/set');
    await loggedController.fetch(TodoResource.get, { id: '999' }).catch(() => undefined);
    expect(actionLog).to.include('failed: GET /api/todos/999');
  });

  it('liveController follows /api/events; cachedController restores what an earlier one saved', async () => {
    const live = liveController();
    try {
      await live.fetch(TodoResource.get, { id: '3' });
      for (let tries = 0; ; tries++) {
        const { open } = await (await fetch('/api/__events')).json();
        if (open === 1) break;
        if (tries > 100) throw new Error(`${open} streams open at the API`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await fetch('/api/todos/3', {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ title: 'Pushed to the README' }),
      });
      await until(() =>
        expect(live.getResponse(TodoResource.get, { id: '3' }).data!.title).to.equal(
          'Pushed to the README',
        ),
      );
    } finally {
      live.dispose();
    }

    const first = cachedController();
    await first.fetch(TodoResource.get, { id: '4' });
    first.dispose(); // leaving saves what is unsaved
    const second = cachedController();
    try {
      await until(() =>
        expect(second.getResponse(TodoResource.get, { id: '4' }).data?.id).to.equal('4'),
      );
    } finally {
      second.dispose();
    }
  });

  it('applies pushed data with no request, and moves a store to a new Controller', async () => {
    const from = new Controller();
    const list = await from.fetch(TodoResource.getList, { userId: 1 });
    const first = list[0]!;
    applyPush(from, { todo: { ...first, title: 'Renamed elsewhere' } as Todo });
    const renamed = from.getResponse(TodoResource.getList, { userId: 1 }).data!;
    expect(renamed[0]!.title).to.equal('Renamed elsewhere');
    applyPush(from, { deleted: true, todo: first });
    expect(
      from.getResponse(TodoResource.getList, { userId: 1 }).data!.map((t) => t.id),
    ).to.not.include(first.id);
    const to = new Controller({ fetch: () => Promise.reject(new Error('no request expected')) });
    transfer(from, to);
    const moved = to.getResponse(TodoResource.getList, { userId: 1 });
    expect(moved.expiryStatus).to.equal('valid');
    expect(moved.data!.map((t) => t.id)).to.deep.equal(
      from.getResponse(TodoResource.getList, { userId: 1 }).data!.map((t) => t.id),
    );
  });

  it('signals: the rows of user 1, a rename shown in its row with no render of any host', async () => {
    const { controller, provider } = await mount(html`<todo-rows></todo-rows>`);
    const list = provider.querySelector('todo-rows') as TodoRows;
    const rows = () => [...list.shadowRoot!.querySelectorAll('todo-row')];
    await until(() =>
      expect(rows().map(text)).to.deep.equal([
        'Write the spec',
        'Review pull requests',
        'Plan the release',
        'Fix the flaky test',
      ]),
    );
    let renders = 0;
    const count = (element: { render(): unknown }) => {
      const render = element.render.bind(element);
      element.render = () => (renders++, render());
    };
    count(list);
    rows().forEach((row) => count(row as unknown as { render(): unknown }));
    await controller.fetch(TodoResource.partialUpdate, { id: '2' }, { title: 'Renamed' });
    await until(() => expect(text(rows()[1]!)).to.equal('Renamed'));
    expect(renders).to.equal(0);

    list.userId.set(2);
    await until(() =>
      expect(rows().map((row) => (row as TodoRow).todo.get()?.userId)).to.deep.equal([2, 2, 2, 2]),
    );
    expect((await serverTodo('2')).title).to.equal('Renamed');
  });
});
