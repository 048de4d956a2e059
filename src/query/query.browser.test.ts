// Queries over the store (resource-elements/query) through ResourceController, in each engine: an
// element reads the open chores of one person, sorted, from what a list fetched, with no request
// of its own; a push, an update's answer and a delete change what it shows; a count renders its
// host again only when the count changes.
import { expect, fixture, html } from '@open-wc/testing';
import { LitElement } from 'lit';
import { http, HttpResponse } from 'msw';
import { useHandlers } from '../../test/browser/msw.js';
import '../lit/define-provider.js';
import { Controller, Entity, createResource } from '../core/index.js';
import { ResourceController } from '../lit/index.js';
import { queryAll } from './index.js';
import { textOf, until } from '../lit/test-utils/reader.js';

class Chore extends Entity {
  id = '';
  title = '';
  owner = '';
  done = false;
  pk() {
    return this.id;
  }
  static key = 'QueryChore';
}

const Chores = createResource({ path: '/mock/query/chores/:id', schema: Chore });

const openChores = queryAll(Chore, (chores, { owner }: { owner: string }) =>
  chores
    .filter((chore) => !chore.done && chore.owner === owner)
    .sort((a, b) => a.title.localeCompare(b.title)),
);
const doneCount = queryAll(Chore, (chores) => chores.filter((chore) => chore.done).length);

class OpenChores extends LitElement {
  static override properties = { owner: {} };
  owner = 'ann';
  readonly chores = new ResourceController(this, openChores, () => ({ owner: this.owner }));
  protected override createRenderRoot() {
    return this;
  }
  override render() {
    return this.chores.render({
      pending: () => 'pending',
      complete: (chores) => chores.map((chore) => chore.title).join(',') || '(none)',
      error: (error) => `error: ${(error as Error).message}`,
    });
  }
}
customElements.define('query-open-chores', OpenChores);

class DoneCount extends LitElement {
  renders = 0;
  readonly done = new ResourceController(this, doneCount);
  protected override createRenderRoot() {
    return this;
  }
  override render() {
    this.renders++;
    return `${this.done.value ?? 'pending'} done`;
  }
}
customElements.define('query-done-count', DoneCount);

/** Fetches the whole list once: what fills the store the queries read. */
class AllChores extends LitElement {
  readonly chores = new ResourceController(this, Chores.getList);
  protected override createRenderRoot() {
    return this;
  }
  override render() {
    return this.chores.render({ complete: (chores) => `${chores.length} chores` });
  }
}
customElements.define('query-all-chores', AllChores);

let rows: { id: string; title: string; owner: string; done: boolean }[] = [];
let hits: string[] = [];

function handlers() {
  return [
    http.get('/mock/query/chores', () => {
      hits.push('GET list');
      return HttpResponse.json(rows);
    }),
    http.patch('/mock/query/chores/:id', async ({ params, request }) => {
      hits.push(`PATCH ${String(params.id)}`);
      const row = rows.find((r) => r.id === params.id)!;
      Object.assign(row, await request.json());
      return HttpResponse.json(row);
    }),
    http.delete('/mock/query/chores/:id', ({ params }) => {
      hits.push(`DELETE ${String(params.id)}`);
      rows = rows.filter((r) => r.id !== params.id);
      return new HttpResponse(null, { status: 204 });
    }),
  ];
}

/** The elements under a provider of `controller`, with or without the list that fills the store. */
async function page(controller: Controller, withList = true) {
  const provider = document.createElement('resource-provider');
  provider.controller = controller;
  const open = document.createElement('query-open-chores') as OpenChores;
  const count = document.createElement('query-done-count') as DoneCount;
  provider.append(open, count);
  if (withList) provider.append(document.createElement('query-all-chores'));
  await fixture(html`<div>${provider}</div>`);
  return { open, count };
}

describe('queryAll through ResourceController', () => {
  beforeEach(async () => {
    rows = [
      { id: '1', title: 'sweep', owner: 'ann', done: false },
      { id: '2', title: 'dust', owner: 'ann', done: false },
      { id: '3', title: 'mop', owner: 'bob', done: false },
      { id: '4', title: 'iron', owner: 'ann', done: true },
    ];
    hits = [];
    await useHandlers(...handlers());
  });

  it('shows what the list brought, filtered and sorted, with no request of its own', async () => {
    const controller = new Controller();
    const { open, count } = await page(controller);
    await until(() => expect(textOf(open)).to.equal('dust,sweep'));
    expect(textOf(count)).to.equal('1 done');
    expect(hits).to.deep.equal(['GET list']);
    open.owner = 'bob';
    await until(() => expect(textOf(open)).to.equal('mop'));
    expect(hits).to.deep.equal(['GET list'], 'new params read the store again, nothing is sent');
  });

  it('alone, it is complete at once with what the store holds, and sends nothing', async () => {
    const controller = new Controller();
    const { open, count } = await page(controller, false);
    await until(() => expect(textOf(open)).to.equal('(none)'));
    expect(textOf(count)).to.equal('0 done');
    controller.set([Chore], rows);
    await until(() => expect(textOf(open)).to.equal('dust,sweep'));
    expect(textOf(count)).to.equal('1 done');
    expect(hits).to.deep.equal([]);
  });

  it('follows a push, an update’s answer and a delete', async () => {
    const controller = new Controller();
    const { open } = await page(controller);
    await until(() => expect(textOf(open)).to.equal('dust,sweep'));
    hits = [];
    controller.set(Chore, { id: '5', title: 'cook', owner: 'ann', done: false });
    await until(() => expect(textOf(open)).to.equal('cook,dust,sweep'));
    await controller.fetch(Chores.partialUpdate, { id: '2' }, { done: true });
    await until(() => expect(textOf(open)).to.equal('cook,sweep'));
    await controller.fetch(Chores.delete, { id: '1' });
    await until(() => expect(textOf(open)).to.equal('cook'));
    expect(hits).to.deep.equal(['PATCH 2', 'DELETE 1'], 'no list fetched again');
  });

  it('renders a count again only when the count changes', async () => {
    const controller = new Controller();
    const { open, count } = await page(controller);
    await until(() => expect(textOf(open)).to.equal('dust,sweep'));
    await count.updateComplete;
    const renders = count.renders;
    controller.set(Chore, { id: '2', title: 'dust the shelves' });
    await until(() => expect(textOf(open)).to.equal('dust the shelves,sweep'));
    await count.updateComplete;
    expect(count.renders).to.equal(renders, 'a title changed, the count did not');
    controller.set(Chore, { id: '2', done: true });
    await until(() => expect(textOf(count)).to.equal('2 done'));
    expect(count.renders).to.equal(renders + 1);
  });
});
