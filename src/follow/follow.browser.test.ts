// Lists that follow their filters (resource-elements/follow), in each engine: elements showing
// the Open and Done lists of a followed resource move a task between them when a pushed write,
// another tab's write (TabSyncManager over a real BroadcastChannel) or an update's answer completes
// it, with no list fetched again; the lists of a resource nobody follows stay as they were.
import { expect, fixture, html } from '@open-wc/testing';
import { http, HttpResponse } from 'msw';
import { useHandlers } from '../../test/browser/msw.js';
import '../lit/define-provider.js';
import { Controller, Entity, createResource } from '../core/index.js';
import { TabSyncManager } from '../managers/index.js';
import { followFilters } from './index.js';
import { defineReader, reader, textOf, until, type Reader } from '../lit/test-utils/reader.js';

class Task extends Entity {
  id = '';
  title = '';
  done = false;
  pk() {
    return this.id;
  }
  static key = 'FollowTask';
}

/** The same tasks in lists that do not follow: today's behaviour. */
class PlainTask extends Task {
  static override key = 'PlainFollowTask';
}

const options = { path: '/mock/follow/tasks/:id', searchParams: {} as { done?: boolean } } as const;
const Tasks = followFilters(createResource({ ...options, schema: Task }));
const PlainTasks = createResource({ ...options, schema: PlainTask });

const titles = (tasks: readonly Task[]) => tasks.map((task) => task.title).join(',') || '(none)';
const listTag = defineReader(Tasks.getList, titles);
const plainTag = defineReader(PlainTasks.getList, titles);

let rows: { id: string; title: string; done: boolean }[] = [];
let hits: string[] = [];

function handlers() {
  return [
    http.get('/mock/follow/tasks', ({ request }) => {
      const url = new URL(request.url);
      hits.push(`GET ${url.pathname}${url.search}`);
      const done = url.searchParams.get('done');
      return HttpResponse.json(rows.filter((row) => done === null || String(row.done) === done));
    }),
    http.patch('/mock/follow/tasks/:id', async ({ params, request }) => {
      hits.push(`PATCH ${String(params.id)}`);
      const row = rows.find((r) => r.id === params.id)!;
      Object.assign(row, await request.json());
      return HttpResponse.json(row);
    }),
  ];
}

/** Open and Done of `tag` under a provider of `controller`, once both show their answer. */
async function board(controller: Controller, tag = listTag) {
  const open = reader(tag, { done: false }) as Reader<typeof Tasks.getList>;
  const done = reader(tag, { done: true }) as Reader<typeof Tasks.getList>;
  const provider = document.createElement('resource-provider');
  provider.controller = controller;
  provider.append(open, done);
  await fixture(html`<div>${provider}</div>`);
  await until(() => {
    expect(open.reader.status).to.equal('complete');
    expect(done.reader.status).to.equal('complete');
  });
  return { open, done };
}

describe('followFilters: Open and Done follow their filter in the page', () => {
  beforeEach(async () => {
    rows = [
      { id: '1', title: 'a', done: false },
      { id: '2', title: 'b', done: false },
      { id: '3', title: 'c', done: true },
    ];
    hits = [];
    await useHandlers(...handlers());
  });

  it('a pushed write moves the task, with no request', async () => {
    const controller = new Controller();
    const { open, done } = await board(controller);
    expect([textOf(open), textOf(done)]).to.deep.equal(['a,b', 'c']);
    hits = [];
    // What the push manager does with a server-sent change.
    controller.set(Task, { id: '1', title: 'a', done: true });
    await until(() => expect([textOf(open), textOf(done)]).to.deep.equal(['b', 'c,a']));
    controller.set(Task, { id: '1', done: false });
    await until(() => expect([textOf(open), textOf(done)]).to.deep.equal(['b,a', 'c']));
    expect(hits).to.deep.equal([]);
  });

  it("another tab's write (BroadcastChannel) moves it in this one", async () => {
    const channel = `follow-${Math.random()}`;
    const here = new Controller({ managers: [new TabSyncManager({ channel })] });
    const otherTab = new Controller({ managers: [new TabSyncManager({ channel })] });
    try {
      const { open, done } = await board(here);
      hits = [];
      otherTab.set(Task, { id: '2', title: 'b', done: true });
      await until(() => expect([textOf(open), textOf(done)]).to.deep.equal(['a', 'c,b']));
      expect(hits).to.deep.equal([]);
    } finally {
      otherTab.dispose();
      here.dispose();
    }
  });

  it("an update's answer (partialUpdate, not move) moves it: one PATCH, no list fetched", async () => {
    const controller = new Controller();
    const { open, done } = await board(controller);
    hits = [];
    await controller.fetch(Tasks.partialUpdate, { id: '1' }, { done: true });
    await until(() => expect([textOf(open), textOf(done)]).to.deep.equal(['b', 'c,a']));
    expect(hits).to.deep.equal(['PATCH 1']);
  });

  it('lists nobody follows stay as the server answered them', async () => {
    const controller = new Controller();
    const { open, done } = await board(controller, plainTag);
    controller.set(PlainTask, { id: '1', title: 'a', done: true });
    await Promise.all([open.updateComplete, done.updateComplete]);
    expect([textOf(open), textOf(done)]).to.deep.equal(['a,b', 'c']);
  });
});
