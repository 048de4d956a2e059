// The demo's todos card in each browser engine against the real API: create (push and unshift into the
// matching lists), optimistic toggle (a move between Open and Done, one request) with rollback,
// delete from every list with the detail view fetching again; two providers sharing changes
// through sync-tabs both show a toggle's move. Each test checks the page and the API's own state.
import { expect, fixture, html } from '@open-wc/testing';
import type { DemoApp } from '../../demo/app.js';
import { Todo } from '../../demo/resources.js';
import type { ResourceProvider } from '../../src/lit/index.js';
import { registerProviderManagers } from '../../src/managers/index.js';
import {
  api,
  eventually,
  exists,
  openDemo,
  query,
  queryAll,
  requestCount,
  requestsSince,
  resetApi,
  slowApi,
  textOf,
  type,
  until,
} from './demo-page.js';
import type { TodoRow } from './demo-page.js';

function list(app: DemoApp, heading: 'All' | 'Open' | 'Done'): HTMLElement {
  return query(app, 'demo-todo-board', `demo-todo-list[heading="${heading}"]`);
}

function titles(listElement: HTMLElement): string[] {
  return queryAll(listElement, 'demo-todo-item').map((item) => textOf(query(item, '.title')));
}

function item(listElement: HTMLElement, title: string): HTMLElement {
  const found = queryAll(listElement, 'demo-todo-item').find(
    (element) => textOf(query(element, '.title')) === title,
  );
  if (!found) throw new Error(`no todo "${title}" in ${listElement.getAttribute('heading')}`);
  return found;
}

function checkbox(listElement: HTMLElement, title: string): HTMLInputElement {
  return query<HTMLInputElement>(item(listElement, title), 'input[type="checkbox"]');
}

/** Ada's seeded todos (server/api.mjs): only "Plan the release" is done. */
const ADA_ALL = [
  'Write the spec',
  'Review pull requests',
  'Plan the release',
  'Fix the flaky test',
];
const ADA_OPEN = ['Write the spec', 'Review pull requests', 'Fix the flaky test'];
const ADA_DONE = ['Plan the release'];

async function openTodos(): Promise<DemoApp> {
  const app = await openDemo();
  await until(() => {
    expect(titles(list(app, 'All'))).to.deep.equal(ADA_ALL);
    expect(titles(list(app, 'Open'))).to.deep.equal(ADA_OPEN);
    expect(titles(list(app, 'Done'))).to.deep.equal(ADA_DONE);
    // The board on screen: its <resource-boundary> hides it (the lists rendered inside) while
    // a read of the board waits longer than 150 ms, such as the users' tabs on a busy machine.
    expect(queryAll(app, 'demo-todo-board', 'button[data-user]')).to.have.length.above(0);
    expect(query(app, 'demo-todo-board').getClientRects().length, 'board shown').to.be.above(0);
  });
  return app;
}

/**
 * Waits for the form's create to be answered: the input clears then. A create is optimistic, so
 * the todo shows before the POST has reached the server (under load, a GET sent after the todo
 * shows can be answered before that POST is).
 */
function answered(app: DemoApp): Promise<void> {
  return until(() =>
    expect(
      query<HTMLInputElement>(app, 'demo-todo-board', 'demo-todo-form', 'input').value,
    ).to.equal(''),
  );
}

function create(app: DemoApp, title: string, where: 'push' | 'unshift'): void {
  const form = query(app, 'demo-todo-board', 'demo-todo-form');
  type(query<HTMLInputElement>(form, 'input'), title);
  query(form, `button[data-action="${where}"]`).click();
}

/**
 * What the page asked the API for since `since`, less the demo's clock card, which polls GET
 * /api/clock every second by design. Whether one of its polls falls inside a test's window
 * depends on the clock's timer, not on the board: a busy machine loads the board later in the
 * clock's second and the poll lands inside.
 */
async function boardRequestsSince(since: number): Promise<string[]> {
  return (await requestsSince(since)).filter((request) => request !== 'GET /clock');
}

/** One "tab": a provider with Ada's Open and Done lists, syncing over `channel`. */
function tab(channel: string) {
  return html`
    <resource-provider sync-tabs=${channel}>
      <demo-todo-list heading="Open" .userId=${1} .completed=${false}></demo-todo-list>
      <demo-todo-list heading="Done" .userId=${1} .completed=${true}></demo-todo-list>
    </resource-provider>
  `;
}

function listsOf(provider: ResourceProvider) {
  const [open, done] = provider.querySelectorAll('demo-todo-list');
  return { open: open!, done: done! };
}

describe('demo e2e: todos', () => {
  beforeEach(resetApi);

  it('push adds a todo at the end of the lists it matches, unshift at the start', async () => {
    const app = await openTodos();

    create(app, 'Buy milk', 'push');
    await until(() => expect(titles(list(app, 'All'))).to.deep.equal([...ADA_ALL, 'Buy milk']));
    expect(titles(list(app, 'Open'))).to.deep.equal([...ADA_OPEN, 'Buy milk']);
    expect(titles(list(app, 'Done'))).to.deep.equal(ADA_DONE);
    await answered(app);

    create(app, 'Call the bank', 'unshift');
    await until(() => expect(titles(list(app, 'All'))[0]).to.equal('Call the bank'));
    expect(titles(list(app, 'Open'))).to.deep.equal(['Call the bank', ...ADA_OPEN, 'Buy milk']);
    expect(titles(list(app, 'Done'))).to.deep.equal(ADA_DONE);
    // Shown before the server has it: read the server once the page has its answer.
    await answered(app);
    expect(titles(list(app, 'All'))).to.deep.equal(['Call the bank', ...ADA_ALL, 'Buy milk']);

    // The server has both, for Ada, open.
    const { body: saved } = await api<TodoRow[]>('GET', '/todos?userId=1');
    expect(saved.map((todo) => todo.title)).to.deep.equal([
      ...ADA_ALL,
      'Buy milk',
      'Call the bank',
    ]);
    expect(saved.slice(-2).every((todo) => todo.userId === 1 && !todo.completed)).to.equal(true);

    // Grace's lists never held them.
    query(app, 'demo-todo-board', 'button[data-user="2"]').click();
    await until(() => expect(titles(list(app, 'All'))).to.have.length(4));
    expect(titles(list(app, 'All'))).not.to.include('Buy milk');
    // Back to Ada: her lists come from the store at once, new todos included.
    query(app, 'demo-todo-board', 'button[data-user="1"]').click();
    await query<HTMLElement & { updateComplete: Promise<unknown> }>(app, 'demo-todo-board')
      .updateComplete;
    await (list(app, 'All') as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
    expect(titles(list(app, 'All'))).to.deep.equal(['Call the bank', ...ADA_ALL, 'Buy milk']);
  });

  it('shows the API’s validation error for an empty title and creates nothing', async () => {
    const app = await openTodos();
    create(app, '   ', 'push');
    await until(() =>
      expect(textOf(query(app, 'demo-todo-board', 'demo-todo-form', '.error'))).to.equal(
        'Field "title" must not be empty.',
      ),
    );
    expect(titles(list(app, 'All'))).to.deep.equal(ADA_ALL);
    expect((await api<TodoRow[]>('GET', '/todos')).body).to.have.length(12);
  });

  it('the form keeps its layout with an error: the error wraps below, the toolbar stays in the card', async () => {
    const app = await openTodos();
    const board = query(app, 'demo-todo-board');
    const toolbar = query(board, '.toolbar');
    const form = query(board, 'demo-todo-form');
    const card = query(app, '#todos');
    const before = toolbar.getBoundingClientRect();
    create(app, '   ', 'push');
    await until(() => expect(exists(form, '.error')).to.equal(true));
    const inside = (inner: DOMRect, outer: DOMRect) =>
      inner.left >= outer.left - 0.5 && inner.right <= outer.right + 0.5;
    const cardBox = card.getBoundingClientRect();
    expect(inside(toolbar.getBoundingClientRect(), cardBox), 'toolbar inside the card').to.equal(
      true,
    );
    expect(inside(form.getBoundingClientRect(), cardBox), 'form inside the card').to.equal(true);
    expect(toolbar.getBoundingClientRect().width).to.be.closeTo(before.width, 0.5);
    expect(toolbar.scrollWidth).to.be.at.most(toolbar.clientWidth);
    // The error on a line of its own, under the buttons.
    const error = query(form, '.error').getBoundingClientRect();
    const button = query(form, 'button[data-action="unshift"]').getBoundingClientRect();
    expect(error.top).to.be.at.least(button.bottom - 0.5);
  });

  it('the form is disabled while its create is pending; a failure then a success clears the error', async () => {
    const app = await openTodos();
    const form = query<HTMLElement & { updateComplete: Promise<unknown> }>(
      app,
      'demo-todo-board',
      'demo-todo-form',
    );
    await slowApi(300);
    create(app, 'Slow one', 'push');
    await form.updateComplete;
    expect(query<HTMLButtonElement>(form, 'button[data-action="push"]').disabled).to.equal(true);
    expect(query<HTMLButtonElement>(form, 'button[data-action="unshift"]').disabled).to.equal(true);
    // The page's provider shows it too: index.html's progress bar is CSS on this state.
    expect(app.closest('resource-provider')!.matches(':state(mutating)')).to.equal(true);
    await until(() =>
      expect(query<HTMLButtonElement>(form, 'button[data-action="push"]').disabled).to.equal(false),
    );
    expect(titles(list(app, 'All'))).to.include('Slow one');
    expect(app.closest('resource-provider')!.matches(':state(mutating)')).to.equal(false);
    await slowApi(0);
    create(app, '', 'unshift');
    await until(() => expect(exists(form, '.error')).to.equal(true));
    create(app, 'Fine', 'unshift');
    await until(() => expect(titles(list(app, 'All'))[0]).to.equal('Fine'));
    expect(exists(form, '.error')).to.equal(false);
  });

  it('toggle moves the todo from Open to Done at once (optimistic): one PATCH, no list fetched again', async () => {
    const app = await openTodos();
    const before = await requestCount();
    await slowApi(400);

    const clicked = performance.now();
    checkbox(list(app, 'All'), 'Write the spec').click();
    await until(() => {
      expect(checkbox(list(app, 'All'), 'Write the spec').checked).to.equal(true);
      // Moved: out of Open, appended to Done.
      expect(titles(list(app, 'Open'))).to.deep.equal([
        'Review pull requests',
        'Fix the flaky test',
      ]);
      expect(titles(list(app, 'Done'))).to.deep.equal(['Plan the release', 'Write the spec']);
    }, 300);
    // Well before the server could answer the PATCH.
    expect(performance.now() - clicked).to.be.below(300);
    expect(checkbox(list(app, 'Done'), 'Write the spec').checked).to.equal(true);

    await eventually(async () =>
      expect(await boardRequestsSince(before)).to.deep.equal(['PATCH /todos/1']),
    );
    // The server's answer changes nothing the page shows, and nothing is fetched after it.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(titles(list(app, 'Done'))).to.deep.equal(['Plan the release', 'Write the spec']);
    expect(titles(list(app, 'Open'))).to.deep.equal(['Review pull requests', 'Fix the flaky test']);
    expect(titles(list(app, 'All'))).to.deep.equal(ADA_ALL);
    expect(await boardRequestsSince(before), 'one PATCH, no GET').to.deep.equal(['PATCH /todos/1']);
    expect((await api<TodoRow>('GET', '/todos/1')).body.completed).to.equal(true);
  });

  it('a toggle the server refuses is rolled back: the todo back in its list, at its place', async () => {
    const app = await openTodos();
    // Someone else deletes the todo behind the page's back: the PATCH will get 404.
    expect((await api('DELETE', '/todos/4')).status).to.equal(204);
    await slowApi(300);

    checkbox(list(app, 'All'), 'Fix the flaky test').click();
    await until(() => {
      expect(checkbox(list(app, 'All'), 'Fix the flaky test').checked).to.equal(true);
      expect(titles(list(app, 'Done'))).to.deep.equal(['Plan the release', 'Fix the flaky test']);
      expect(titles(list(app, 'Open'))).to.deep.equal(['Write the spec', 'Review pull requests']);
    }, 250);
    await until(() =>
      expect(checkbox(list(app, 'All'), 'Fix the flaky test').checked).to.equal(false),
    );
    expect(checkbox(list(app, 'Open'), 'Fix the flaky test').checked).to.equal(false);
    expect(titles(list(app, 'Open'))).to.deep.equal(ADA_OPEN);
    expect(titles(list(app, 'Done'))).to.deep.equal(ADA_DONE);
    expect(titles(list(app, 'All'))).to.deep.equal(ADA_ALL);
    expect((await api('GET', '/todos/4')).status).to.equal(404);
  });

  it('delete removes the todo from every list at once; the open detail fetches again (404)', async () => {
    const app = await openTodos();
    const detail = query(app, 'demo-todo-board', 'demo-todo-detail');
    query(item(list(app, 'All'), 'Write the spec'), '.title').click();
    await until(() => expect(textOf(query(detail, 'dd.title'))).to.equal('Write the spec'));

    const seen: string[] = [];
    const observer = new MutationObserver(() => seen.push(textOf(detail)));
    observer.observe(detail.shadowRoot!, { childList: true, subtree: true, characterData: true });

    query(item(list(app, 'Open'), 'Write the spec'), 'button.delete').click();
    await until(() => expect(titles(list(app, 'All'))).not.to.include('Write the spec'));
    expect(titles(list(app, 'Open'))).to.deep.equal(['Review pull requests', 'Fix the flaky test']);
    expect(titles(list(app, 'All'))).to.deep.equal(ADA_ALL.slice(1));

    await until(() => expect(exists(detail, '.gone')).to.equal(true));
    observer.disconnect();
    expect(textOf(query(detail, '.gone'))).to.contain('404');
    // Between the two it was loading again: the entity it requires had become INVALID.
    expect(seen.some((text) => text.includes('Loading todo 1'))).to.equal(true);

    expect((await api('GET', '/todos/1')).status).to.equal(404);
    expect((await api<TodoRow[]>('GET', '/todos?userId=1')).body.map((t) => t.title)).to.deep.equal(
      ADA_ALL.slice(1),
    );
  });

  it('two tabs (providers with sync-tabs): one PATCH, zero GETs; the todo lands in Done in both', async () => {
    registerProviderManagers({ entities: { Todo } });
    const first = await fixture<ResourceProvider>(tab('move-sync'));
    const second = await fixture<ResourceProvider>(tab('move-sync'));
    const a = listsOf(first);
    const b = listsOf(second);
    await until(() => {
      for (const { open, done } of [a, b]) {
        expect(titles(open)).to.deep.equal(ADA_OPEN);
        expect(titles(done)).to.deep.equal(ADA_DONE);
      }
    });
    const before = await requestCount();
    await slowApi(300);

    const item = queryAll(a.open, 'demo-todo-item').find(
      (element) => textOf(query(element, '.title')) === 'Review pull requests',
    )!;
    query<HTMLInputElement>(item, 'input[type="checkbox"]').click();
    // The first provider moves it at once (optimistic); the second waits for the commit.
    await until(() => {
      expect(titles(a.open)).to.deep.equal(['Write the spec', 'Fix the flaky test']);
      expect(titles(a.done)).to.deep.equal(['Plan the release', 'Review pull requests']);
    }, 250);
    expect(titles(b.open), 'a pending update stays in its tab').to.deep.equal(ADA_OPEN);

    await until(() => {
      expect(titles(b.open)).to.deep.equal(['Write the spec', 'Fix the flaky test']);
      expect(titles(b.done)).to.deep.equal(['Plan the release', 'Review pull requests']);
    }, 4000);
    // Settled: no list of either provider asked the server again.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await requestsSince(before), 'one PATCH, no GET').to.deep.equal(['PATCH /todos/2']);
    expect(titles(a.done)).to.deep.equal(['Plan the release', 'Review pull requests']);
    expect(titles(b.done)).to.deep.equal(['Plan the release', 'Review pull requests']);

    // The server agrees: Ada's done todos are the ones both tabs show (in its own order).
    await eventually(async () => {
      const { body } = await api<{ title: string }[]>('GET', '/todos?userId=1&completed=true');
      expect(body.map((todo) => todo.title).sort()).to.deep.equal([
        'Plan the release',
        'Review pull requests',
      ]);
    });
  });
});
