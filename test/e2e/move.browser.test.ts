// The demo's toggle is a move (issue 34, item 3) in Chromium against the real demo API: two
// providers on one page, each with its own store, share changes through `sync-tabs`. A toggle in
// the first sends one PATCH and no GET, moves the todo from Open to Done in its lists at once, and
// the second provider's lists follow when the PATCH commits, without a request of their own.
import { expect, fixture, fixtureCleanup, html } from '@open-wc/testing';
import '../../src/index.js';
import '../../demo/todo-list.js';
import { Todo } from '../../demo/resources.js';
import type { ResourceProvider } from '../../src/lit/index.js';
import { registerProviderManagers } from '../../src/managers/index.js';
import {
  api,
  eventually,
  query,
  queryAll,
  requestCount,
  requestsSince,
  resetApi,
  slowApi,
  textOf,
  until,
} from './demo-page.js';

function titles(list: Element): string[] {
  return queryAll(list, 'demo-todo-item').map((item) => textOf(query(item, '.title')));
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
  const [open, done] = [...provider.querySelectorAll('demo-todo-list')] as unknown as [
    Element,
    Element,
  ];
  return { open, done };
}

/** Ada's seeded todos (server/api.mjs): only "Plan the release" is done. */
const ADA_OPEN = ['Write the spec', 'Review pull requests', 'Fix the flaky test'];
const ADA_DONE = ['Plan the release'];

describe('move (Chromium, real API): the toggle moves a todo with one request, in both tabs', () => {
  beforeEach(resetApi);
  afterEach(async () => {
    fixtureCleanup();
    await resetApi();
  });

  it('one PATCH, zero GETs; the todo lands in Done in both providers', async () => {
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
