// Elements reading a createResource() resource through <resource-provider>, against msw in
// each browser engine: lists and creates, delete, pagination, hooks with headers from useInit.
import { expect, fixture, html } from '@open-wc/testing';
import { LitElement } from 'lit';
import { consume } from '@lit/context';
import { controllerContext } from './controller-context.js';
import type { ControllerLike } from '../core/index.js';
import { http, HttpResponse } from 'msw';
import { useHandlers } from '../../test/browser/msw.js';
import './define-provider.js';
import { Controller } from '../core/index.js';
import { createResource } from '../core/rest/create-resource.js';
import { hookifyResource } from '../core/rest/hookify-resource.js';
import { Entity } from '../core/schema/entity.js';
import { defineReader, reader, textOf, until, type Reader } from './test-utils/reader.js';

class Task extends Entity {
  id = '';
  title = '';
  userId = '';
  pk() {
    return this.id;
  }
  static key = 'LitTask';
}

const TaskResource = createResource({
  path: '/mock/lit/tasks/:id',
  schema: Task,
  searchParams: {} as { userId?: string },
  paginationField: 'page',
});

let token = 'first-token';
const TaskHooks = hookifyResource(TaskResource, () => ({ headers: { 'Access-Token': token } }));

const titles = (tasks: readonly Task[]) => tasks.map((task) => task.title).join(',') || '(none)';
const listTag = defineReader(TaskResource.getList, titles);
const detailTag = defineReader(TaskResource.get, (task) => task.title);
const hookedTag = defineReader(TaskHooks.useGet, (task) => task.title);

/** An element that changes a task through the Controller it consumes. */
class RenameButton extends LitElement {
  @consume({ context: controllerContext, subscribe: true })
  controller?: ControllerLike;
  taskId = '';
  rename(title: string) {
    return this.controller!.fetch(TaskResource.partialUpdate, { id: this.taskId }, { title });
  }
}
customElements.define('lit-rename-button', RenameButton);

interface Row {
  id: string;
  title: string;
  userId: string;
}

/** The fake server: rows, the requests it saw, and the Access-Token headers it got. */
let rows: Row[] = [];
let hits: string[] = [];
let tokens: (string | null)[] = [];
let nextId = 100;

const PAGE = 2;

function handlers() {
  return [
    http.get('/mock/lit/tasks', ({ request }) => {
      const url = new URL(request.url);
      hits.push(`GET ${url.pathname}${url.search}`);
      const userId = url.searchParams.get('userId');
      const page = Number(url.searchParams.get('page') ?? '1');
      const matching = rows.filter((row) => userId === null || row.userId === userId);
      // Pages overlap by one row, as a shifting server list would: getPage must not duplicate it.
      const start = Math.max(0, (page - 1) * PAGE - (page > 1 ? 1 : 0));
      return HttpResponse.json(matching.slice(start, start + PAGE + (page > 1 ? 1 : 0)));
    }),
    http.get('/mock/lit/tasks/:id', ({ params, request }) => {
      hits.push(`GET ${String(params.id)}`);
      tokens.push(request.headers.get('Access-Token'));
      const row = rows.find((r) => r.id === params.id);
      return row
        ? HttpResponse.json(row)
        : HttpResponse.json({ message: 'not found' }, { status: 404 });
    }),
    http.post('/mock/lit/tasks', async ({ request }) => {
      const body = (await request.json()) as Omit<Row, 'id'>;
      const row = { ...body, id: `${nextId++}` };
      hits.push(`POST ${row.title}`);
      rows.push(row);
      return HttpResponse.json(row, { status: 201 });
    }),
    http.patch('/mock/lit/tasks/:id', async ({ params, request }) => {
      const body = (await request.json()) as Partial<Row>;
      hits.push(`PATCH ${String(params.id)}`);
      const row = rows.find((r) => r.id === params.id)!;
      Object.assign(row, body);
      return HttpResponse.json(row);
    }),
    http.delete('/mock/lit/tasks/:id', ({ params }) => {
      hits.push(`DELETE ${String(params.id)}`);
      rows = rows.filter((row) => row.id !== params.id);
      return new HttpResponse(null, { status: 204 });
    }),
  ];
}

async function mount(controller: Controller, ...children: Element[]): Promise<void> {
  const provider = document.createElement('resource-provider');
  provider.controller = controller;
  provider.append(...children);
  await fixture(html`<div>${provider}</div>`);
  await until(() =>
    children.forEach((child) => expect((child as Reader<any>).reader.status).to.equal('complete')),
  );
  await Promise.all(children.map((child) => (child as Reader<any>).updateComplete));
}

async function settled(...views: Reader<any>[]): Promise<void> {
  await Promise.all(views.map((view) => view.updateComplete));
}

describe('elements reading a createResource() resource (msw)', () => {
  beforeEach(async () => {
    rows = [
      { id: '1', title: 'a', userId: '1' },
      { id: '2', title: 'b', userId: '1' },
      { id: '3', title: 'c', userId: '1' },
      { id: '4', title: 'x', userId: '2' },
    ];
    hits = [];
    tokens = [];
    token = 'first-token';
    await useHandlers(...handlers());
  });

  it('push and unshift show the created task in the matching lists only', async () => {
    const controller = new Controller();
    const mine = reader(listTag, { userId: '1' });
    const theirs = reader(listTag, { userId: '2' });
    await mount(controller, mine, theirs);
    expect(textOf(mine)).to.equal('a,b');
    expect(textOf(theirs)).to.equal('x');

    await controller.fetch(
      TaskResource.getList.push,
      { userId: '1' },
      { title: 'new', userId: '1' },
    );
    await settled(mine, theirs);
    expect(textOf(mine)).to.equal('a,b,new');
    expect(textOf(theirs)).to.equal('x');

    await controller.fetch(
      TaskResource.getList.unshift,
      { userId: '2' },
      { title: 'top', userId: '2' },
    );
    await settled(mine, theirs);
    expect(textOf(mine)).to.equal('a,b,new');
    expect(textOf(theirs)).to.equal('top,x');
    expect(hits.filter((hit) => hit.startsWith('GET'))).to.have.length(2);
  });

  it('delete removes the task from every list and sends its detail view back to pending', async () => {
    const controller = new Controller();
    const mine = reader(listTag, { userId: '1' });
    const all = reader(listTag, {});
    const detail = reader(detailTag, { id: '1' });
    await mount(controller, mine, all, detail);
    expect(textOf(mine)).to.equal('a,b');
    expect(textOf(all)).to.equal('a,b');
    expect(textOf(detail)).to.equal('a');

    const statuses: string[] = [];
    const observer = new MutationObserver(() => statuses.push(detail.reader.status));
    observer.observe(detail, { childList: true, subtree: true });
    await controller.fetch(TaskResource.delete, { id: '1' });
    await settled(mine, all, detail);
    expect(textOf(mine)).to.equal('b');
    expect(textOf(all)).to.equal('b');
    expect(statuses[0]).to.equal('pending');
    // Pending means fetched again; the server no longer has it.
    await until(() => expect(detail.reader.status).to.equal('error'));
    observer.disconnect();
    expect(hits).to.include('DELETE 1');
    expect(hits.filter((hit) => hit === 'GET 1')).to.have.length(2);
  });

  it('getPage appends the next page to the list without duplicates', async () => {
    const controller = new Controller();
    const mine = reader(listTag, { userId: '1' });
    await mount(controller, mine);
    expect(textOf(mine)).to.equal('a,b');
    await controller.fetch(TaskResource.getList.getPage, { userId: '1', page: 2 });
    await settled(mine);
    expect(hits).to.include('GET /mock/lit/tasks?userId=1&page=2');
    expect(textOf(mine)).to.equal('a,b,c');
  });

  it('an element changes data through the consumed Controller; every view of it updates', async () => {
    const controller = new Controller();
    const mine = reader(listTag, { userId: '1' });
    const detail = reader(detailTag, { id: '2' });
    await mount(controller, mine, detail);
    const button = document.createElement('lit-rename-button') as RenameButton;
    button.taskId = '2';
    detail.after(button);
    await button.rename('renamed');
    await settled(mine, detail);
    expect(textOf(mine)).to.equal('a,renamed');
    expect(textOf(detail)).to.equal('renamed');
    expect(hits).to.include('PATCH 2');
  });

  it('a hook from hookifyResource sends the Access-Token header from useInit', async () => {
    const controller = new Controller();
    const view = reader(hookedTag, { id: '2' });
    await mount(controller, view);
    expect(textOf(view)).to.equal('b');
    expect(tokens).to.deep.equal(['first-token']);

    // The hook runs on each update: a refetch after the token changed sends the new one.
    token = 'second-token';
    view.requestUpdate();
    await view.updateComplete;
    await view.reader.refetch();
    expect(tokens).to.deep.equal(['first-token', 'second-token']);
  });
});
