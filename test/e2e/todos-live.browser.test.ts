// The demo's todos card under the provider index.html has (events, sync-tabs, persist,
// offline-queue, with the managers demo/live-setup.ts registers), in each engine against the real
// API (issue 38): a toggle moves the todo between Open and Done, and it stays where its values put
// it once both the PATCH answer and the server's pushed update of the todo (Server-Sent Events)
// have landed, in whichever order they arrive. Toggling back works, and toggles in a row end as
// the server has them. A todo another client completes moves too: the lists follow their filters
// (followFilters in demo/resources.ts), so the server's push alone moves it. The test watches the
// page's Controller events to know when the answer and the push have landed; the lists are read
// from the page and the todos from the API.
import { expect, fixture, fixtureCleanup, html } from '@open-wc/testing';
import '../../demo/live-setup.js';
import '../../demo/offline-switch.js';
import type { DemoApp } from '../../demo/app.js';
import { session } from '../../demo/resources.js';
import type { Controller, ControllerEvent } from '../../src/index.js';
import type { ResourceProvider } from '../../src/lit/index.js';
import {
  api,
  eventually,
  query,
  queryAll,
  requestCount,
  requestsSince,
  resetApi,
  textOf,
  until,
} from './demo-page.js';
import type { TodoRow } from './demo-page.js';

type Heading = 'All' | 'Open' | 'Done';

/** Ada's seeded todos (server/api.mjs): only "Plan the release" is done. */
const ADA_ALL = [
  'Write the spec',
  'Review pull requests',
  'Plan the release',
  'Fix the flaky test',
];

function list(app: DemoApp, heading: Heading): HTMLElement {
  return query(app, 'demo-todo-board', `demo-todo-list[heading="${heading}"]`);
}

function titles(app: DemoApp, heading: Heading): string[] {
  return queryAll(list(app, heading), 'demo-todo-item').map((item) =>
    textOf(query(item, '.title')),
  );
}

/** The number the list shows beside its heading. */
function count(app: DemoApp, heading: Heading): string {
  return textOf(query(list(app, heading), '.count'));
}

function checkbox(app: DemoApp, heading: Heading, title: string): HTMLInputElement {
  const item = queryAll(list(app, heading), 'demo-todo-item').find(
    (element) => textOf(query(element, '.title')) === title,
  );
  if (!item) throw new Error(`no todo "${title}" in ${heading}`);
  return query<HTMLInputElement>(item, 'input[type="checkbox"]');
}

/** Open and Done as the page shows them: titles in order, the counts, and every box's tick. */
function expectLists(app: DemoApp, open: string[], done: string[]): void {
  expect(titles(app, 'Open'), 'Open').to.deep.equal(open);
  expect(titles(app, 'Done'), 'Done').to.deep.equal(done);
  expect(count(app, 'Open'), 'Open count').to.equal(String(open.length));
  expect(count(app, 'Done'), 'Done count').to.equal(String(done.length));
  for (const title of open) expect(checkbox(app, 'Open', title).checked, title).to.equal(false);
  for (const title of done) expect(checkbox(app, 'Done', title).checked, title).to.equal(true);
  // All keeps every todo in its place, ticked as the todo is.
  expect(titles(app, 'All'), 'All').to.deep.equal(ADA_ALL);
  for (const title of ADA_ALL) {
    expect(checkbox(app, 'All', title).checked, `${title} in All`).to.equal(done.includes(title));
  }
}

async function eventStats(): Promise<{ open: number }> {
  return (await api<{ open: number }>('GET', '/__events')).body;
}

/**
 * What reached the page's store for the todos: the server's pushed updates ("push 1 true": todo
 * 1, completed) and the answers to the toggles' PATCHes ("answer 1"), in the order they landed.
 */
function watchLandings(provider: ResourceProvider): string[] {
  const landed: string[] = [];
  const controller = provider.controller as Controller;
  controller.events.subscribe((event: ControllerEvent) => {
    if (event.type === 'action' && event.action.type === 'entities/set') {
      const { id, completed } = event.action.value as TodoRow;
      landed.push(`push ${id} ${completed}`);
    } else if (event.type === 'request' && event.phase === 'settle') {
      const patched = /^PATCH \/api\/todos\/(\w+)$/.exec(event.key);
      if (patched) landed.push(`answer ${patched[1]}${event.ok ? '' : ' failed'}`);
    }
  });
  return landed;
}

/** How many times `entry` is in `landed`. */
function times(landed: string[], entry: string): number {
  return landed.filter((seen) => seen === entry).length;
}

let opened = 0;

/**
 * Renders the demo under index.html's provider. Its own IndexedDB record (persist-name) for each
 * test: a copy persisted by an earlier test must not be restored over the reset API's data.
 */
async function openLiveDemo(): Promise<{ app: DemoApp; landed: string[] }> {
  session.token = '';
  sessionStorage.removeItem('resource-elements-demo:offline');
  const provider = await fixture<ResourceProvider>(html`
    <resource-provider
      events="/api/events"
      sync-tabs="resource-elements-demo"
      persist="demo-v1"
      persist-name=${`todos-live-${Date.now()}-${++opened}`}
      offline-queue="demo"
    >
      <offline-switch></offline-switch>
      <demo-app></demo-app>
    </resource-provider>
  `);
  const landed = watchLandings(provider);
  const app = provider.querySelector('demo-app')!;
  await until(() => {
    expect(titles(app, 'All')).to.deep.equal(ADA_ALL);
    expectLists(
      app,
      ['Write the spec', 'Review pull requests', 'Fix the flaky test'],
      ['Plan the release'],
    );
  }, 4000);
  // The page follows the API's stream: a change made from now on is pushed to it.
  await eventually(async () => expect((await eventStats()).open).to.equal(1));
  return { app, landed };
}

/** Waits until the server has handled `n` PATCHes of `path` (`/todos/1`) since `since`. */
async function patchesHandled(since: number, path: string, n: number): Promise<void> {
  await eventually(async () =>
    expect(
      (await requestsSince(since)).filter((r) => r === `PATCH ${path}`),
    ).to.have.length.at.least(n),
  );
}

describe('demo e2e: todos under the full provider (events, sync-tabs, persist, offline-queue)', function () {
  this.timeout(20_000);

  beforeEach(async () => {
    await resetApi();
    // The previous test's page has closed its stream.
    await eventually(async () => expect((await eventStats()).open).to.equal(0), 12_000);
  });

  afterEach(async () => {
    fixtureCleanup();
    await resetApi();
  });

  it('a toggle in Open moves the todo to Done, where it stays once the answer and the push have landed', async () => {
    const { app, landed } = await openLiveDemo();

    checkbox(app, 'Open', 'Write the spec').click();
    // Optimistic: moved at once.
    await until(() =>
      expectLists(
        app,
        ['Review pull requests', 'Fix the flaky test'],
        ['Plan the release', 'Write the spec'],
      ),
    );
    // The PATCH answer and the server's pushed update of todo 1, in either order.
    await until(() => {
      expect(times(landed, 'answer 1'), landed.join(', ')).to.equal(1);
      expect(times(landed, 'push 1 true'), landed.join(', ')).to.equal(1);
    }, 4000);
    // Still in Done once the page has rendered both.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expectLists(
      app,
      ['Review pull requests', 'Fix the flaky test'],
      ['Plan the release', 'Write the spec'],
    );
    expect((await api<TodoRow>('GET', '/todos/1')).body.completed).to.equal(true);
  });

  it('a todo another client completes moves from Open to Done when the server pushes it, with no request', async () => {
    const { app, landed } = await openLiveDemo();
    const since = await requestCount();
    // Not this page's Controller: another client of the API (curl, another browser).
    await api('PATCH', '/todos/1', { completed: true });
    await until(() => expect(times(landed, 'push 1 true'), landed.join(', ')).to.equal(1), 4000);
    await until(() =>
      expectLists(
        app,
        ['Review pull requests', 'Fix the flaky test'],
        ['Plan the release', 'Write the spec'],
      ),
    );
    await api('PATCH', '/todos/1', { completed: false });
    await until(() =>
      expectLists(
        app,
        ['Review pull requests', 'Fix the flaky test', 'Write the spec'],
        ['Plan the release'],
      ),
    );
    // The two PATCHes above are all the API was asked: the page fetched no list again.
    expect(await requestsSince(since)).to.deep.equal(['PATCH /todos/1', 'PATCH /todos/1']);
  });

  it('toggling back moves the todo to the end of Open, where it stays', async () => {
    const { app, landed } = await openLiveDemo();

    checkbox(app, 'Open', 'Review pull requests').click();
    await until(() => {
      expect(times(landed, 'answer 2')).to.equal(1);
      expect(times(landed, 'push 2 true')).to.equal(1);
    }, 4000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expectLists(
      app,
      ['Write the spec', 'Fix the flaky test'],
      ['Plan the release', 'Review pull requests'],
    );

    checkbox(app, 'Done', 'Review pull requests').click();
    await until(() =>
      expectLists(
        app,
        ['Write the spec', 'Fix the flaky test', 'Review pull requests'],
        ['Plan the release'],
      ),
    );
    await until(() => {
      expect(times(landed, 'answer 2'), landed.join(', ')).to.equal(2);
      expect(times(landed, 'push 2 false'), landed.join(', ')).to.equal(1);
    }, 4000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expectLists(
      app,
      ['Write the spec', 'Fix the flaky test', 'Review pull requests'],
      ['Plan the release'],
    );
    expect((await api<TodoRow>('GET', '/todos/2')).body.completed).to.equal(false);
  });

  it('toggles in a row, answers and pushes landing in between, end as the server has them', async () => {
    const { app, landed } = await openLiveDemo();
    const since = (await api<unknown[]>('GET', '/__requests')).body.length;
    const { body: seeded } = await api<TodoRow[]>('GET', '/todos?userId=1');
    const pathOf = (title: string) => `/todos/${seeded.find((todo) => todo.title === title)!.id}`;
    // Each click as soon as the page shows the last one; a todo clicked again only once the
    // server has handled its previous PATCH, so the server gets them in the order they were made.
    const clicks: [Heading, string][] = [
      ['Open', 'Write the spec'],
      ['Open', 'Review pull requests'],
      ['Done', 'Plan the release'],
      ['Done', 'Write the spec'],
      ['Open', 'Fix the flaky test'],
      ['Open', 'Write the spec'],
      ['Done', 'Review pull requests'],
    ];
    const clicked = new Map<string, number>();
    for (const [heading, title] of clicks) {
      const before = clicked.get(title) ?? 0;
      if (before > 0) await patchesHandled(since, pathOf(title), before);
      await until(() => expect(checkbox(app, heading, title).checked).to.equal(heading === 'Done'));
      checkbox(app, heading, title).click();
      const other: Heading = heading === 'Open' ? 'Done' : 'Open';
      await until(() => expect(titles(app, other)).to.include(title));
      clicked.set(title, before + 1);
    }
    for (const [title, n] of clicked) await patchesHandled(since, pathOf(title), n);
    // Every answer, and the push of every PATCH, has reached the page.
    await until(() => {
      const answers = landed.filter((entry) => entry.startsWith('answer ')).length;
      const pushes = landed.filter((entry) => entry.startsWith('push ')).length;
      expect(answers, landed.join(', ')).to.equal(clicks.length);
      expect(pushes, landed.join(', ')).to.equal(clicks.length);
    }, 4000);
    await new Promise((resolve) => setTimeout(resolve, 100));

    const { body: server } = await api<TodoRow[]>('GET', '/todos?userId=1');
    const open = server.filter((todo) => !todo.completed).map((todo) => todo.title);
    const done = server.filter((todo) => todo.completed).map((todo) => todo.title);
    // The server has what the clicks made: each one flipped its todo, from the seeded state.
    const made = new Set(['Plan the release']);
    for (const [, title] of clicks) {
      if (!made.delete(title)) made.add(title);
    }
    expect([...done].sort()).to.deep.equal([...made].sort());
    expect([...open].sort()).to.deep.equal(ADA_ALL.filter((title) => !made.has(title)).sort());
    // The page: the same todos in each list (in the order they arrived there), ticked as done.
    expect([...titles(app, 'Open')].sort()).to.deep.equal([...open].sort());
    expect([...titles(app, 'Done')].sort()).to.deep.equal([...done].sort());
    expectLists(app, titles(app, 'Open'), titles(app, 'Done'));
  });
});
