// resource-elements/signals in Lit (SignalWatcher and watch() from @lit-labs/signals), against
// the demo's real API (/api, server/api.mjs): a list of 1,000 rows, each row bound to its entity
// through entitySignal, and the list through readSignal.
import { expect } from '@open-wc/testing';
import { LitElement, html } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { SignalWatcher, watch } from '@lit-labs/signals';
import { Signal } from 'signal-polyfill';
import { Controller } from '../core/index.js';
import '../lit/define-provider.js';
import { Todo, TodoResource } from '../../demo/resources.js';
import { until as waitUntil } from '../lit/test-utils/reader.js';
import { entitySignal, readSignal } from './index.js';

const until = (check: () => void) => waitUntil(check, 8000);
const USER = 9;
const ROWS = 1000;

/** Host renders, by element: a binding that updates alone renders no host. */
const renders = new Map<string, number>();
const rendered = (name: string) => renders.set(name, (renders.get(name) ?? 0) + 1);
const totalRenders = () => [...renders.values()].reduce((sum, n) => sum + n, 0);

class SignalRow extends SignalWatcher(LitElement) {
  readonly #id = new Signal.State('');
  set todoId(id: string) {
    this.#id.set(id);
  }
  readonly todo = entitySignal(this, Todo, () => ({ id: this.#id.get() }));
  // Not `title`: HTMLElement has one (assigned, it would become a string attribute).
  readonly label = new Signal.Computed(() => this.todo.get()?.title ?? '');

  override render() {
    rendered(`row ${Signal.subtle.untrack(() => this.#id.get())}`);
    return html`<span>${watch(this.label)}</span>`;
  }
}

/** The ids of the list, the same array while they are the same. */
const sameIds = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((id, i) => id === b[i]);

class SignalList extends SignalWatcher(LitElement) {
  readonly todos = readSignal(this, TodoResource.getList, { userId: USER });
  readonly ids = new Signal.Computed(() => (this.todos.get().value ?? []).map((todo) => todo.id), {
    equals: sameIds,
  });
  readonly rows = new Signal.Computed(() =>
    repeat(
      this.ids.get(),
      (id) => id,
      (id) => html`<signal-row .todoId=${id}></signal-row>`,
    ),
  );

  override render() {
    rendered('list');
    return html`${watch(this.rows)}`;
  }
}
customElements.define('signal-row', SignalRow);
customElements.define('signal-list', SignalList);

async function mount() {
  const provider = document.createElement('resource-provider');
  const controller = new Controller();
  provider.controller = controller;
  const list = document.createElement('signal-list') as SignalList;
  provider.append(list);
  document.body.append(provider);
  return { provider, list, controller };
}

const rowsOf = (list: SignalList) => [...list.shadowRoot!.querySelectorAll('signal-row')];
const titleOf = (row: Element) => row.shadowRoot?.querySelector('span')?.textContent ?? '';

describe('resource-elements/signals with @lit-labs/signals, against the demo API', function () {
  this.timeout(20_000);
  let first = '';
  beforeEach(async () => {
    await fetch('/api/__reset', { method: 'POST' });
    const answer = await fetch('/api/__fill', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userId: USER, count: ROWS }),
    });
    first = ((await answer.json()) as { first: string }).first;
    renders.clear();
  });
  afterEach(async () => {
    document.querySelectorAll('resource-provider').forEach((provider) => provider.remove());
    await fetch('/api/__reset', { method: 'POST' });
  });

  it('updates one entity: one binding changes, no host renders again', async () => {
    const { list, controller } = await mount();
    await until(() => expect(rowsOf(list)).to.have.length(ROWS));
    await until(() => expect(rowsOf(list).every((row) => titleOf(row) !== '')).to.equal(true));
    expect(titleOf(rowsOf(list)[0]!)).to.equal('Todo 1');
    expect(renders.get('list')).to.equal(1, 'the rows arrive through watch(), not a render');
    const before = totalRenders();

    // Every text node of every row, to see which of them change.
    const changed = new Set<Element>();
    const observer = new MutationObserver((records) => {
      for (const record of records) {
        changed.add((record.target.getRootNode() as ShadowRoot).host);
      }
    });
    for (const row of rowsOf(list)) {
      observer.observe(row.shadowRoot!, { subtree: true, childList: true, characterData: true });
    }
    const id = String(Number(first) + 41);
    await controller.fetch(TodoResource.partialUpdate, { id }, { title: 'Renamed' });
    const row = rowsOf(list)[41]!;
    await until(() => expect(titleOf(row)).to.equal('Renamed'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    observer.disconnect();

    expect([...changed]).to.deep.equal([row], 'only the row of that todo changed');
    expect(totalRenders()).to.equal(before, 'no host rendered again');
    const server = (await (await fetch(`/api/todos/${id}`)).json()) as { title: string };
    expect(server.title).to.equal('Renamed');
  });

  it('lets go of every subscription and store listener once the list leaves the page', async () => {
    const { provider, list, controller } = await mount();
    await until(() => expect(rowsOf(list)).to.have.length(ROWS));
    // The list's read is subscribed; the rows' entity signals share one store listener.
    expect(controller.stats().subscriptions).to.equal(1);
    const listening = controller.stats().listeners;
    expect(listening).to.be.greaterThan(0);

    list.remove();
    await until(() => expect(controller.stats().subscriptions).to.equal(0));
    await until(() => expect(controller.stats().listeners).to.equal(0));
    provider.remove();
  });
});
