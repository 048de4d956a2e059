// Realtime and sync in Chromium against the real demo API (issue 18): an edit made through the
// API reaches the page over Server-Sent Events and re-renders only its row; a dropped stream
// resumes after Last-Event-ID; two pages of one browser context stay in sync with no request in
// the second; a reload restores from IndexedDB before the slow network answers; a new buster
// discards the old cache. Requests are counted at the API (GET /api/__requests, by sending page).
import { expect, fixture, fixtureCleanup, html } from '@open-wc/testing';
import '../../src/index.js';
import '../../demo/todo-list.js';
import '../../demo/app.js';
import { Todo, TodoResource } from '../../demo/resources.js';
import { TodoItem } from '../../demo/todo-item.js';
import type { ResourceProvider } from '../../src/lit/index.js';
import { registerProviderManagers } from '../../src/managers/index.js';
import {
  api,
  eventually,
  query,
  queryAll,
  resetApi,
  slowApi,
  storedRecord,
  textOf,
  until,
} from './demo-page.js';

interface Logged {
  method: string;
  path: string;
  from: string;
}

const FRAME = '/test/e2e/live-frame.html';

async function requestLog(): Promise<Logged[]> {
  return (await api<Logged[]>('GET', '/__requests')).body;
}

async function eventStats(): Promise<{
  open: number;
  resumes: string[];
  resumed: number;
  last?: string;
}> {
  return (await api('GET', '/__events')).body;
}

function titles(list: Element): string[] {
  return queryAll(list, 'demo-todo-item').map((item) => textOf(query(item, '.title')));
}

const frames: HTMLIFrameElement[] = [];

/** Loads the second page in an iframe: same origin, same browser context, its own document. */
async function openFrame(search: string): Promise<HTMLIFrameElement> {
  const frame = document.createElement('iframe');
  frames.push(frame);
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  frame.src = `${FRAME}?${search}`;
  document.body.append(frame);
  await loaded;
  return frame;
}

async function reload(frame: HTMLIFrameElement, search?: string): Promise<void> {
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  if (search === undefined) frame.contentWindow!.location.reload();
  else frame.src = `${FRAME}?${search}`;
  await loaded;
}

function frameList(frame: HTMLIFrameElement): Element {
  const list = frame.contentDocument!.querySelector('demo-todo-list');
  if (!list) throw new Error('the frame has no list yet');
  return list;
}

/** Whether the frame's own fetch of the todo list has been answered (Resource Timing). */
function listAnswered(frame: HTMLIFrameElement): boolean {
  return frame
    .contentWindow!.performance.getEntriesByType('resource')
    .some((entry) => new URL(entry.name).pathname === '/api/todos');
}

/** The record PersistManager keeps under `name`, read straight from IndexedDB. */
const savedRecord = (name: string) => storedRecord<{ buster: string; state: any }>(name);

describe('live (Chromium, real API): server push, tab sync, persistence', () => {
  beforeEach(async function () {
    // A browser under load may take a while to close the previous test's stream.
    this.timeout(15_000);
    await resetApi();
    await eventually(async () => expect((await eventStats()).open).to.equal(0), 12_000);
  });

  afterEach(async () => {
    fixtureCleanup(); // the providers leave now, closing their streams, before the next test
    frames.splice(0).forEach((frame) => frame.remove());
    await resetApi();
  });

  async function pushedPage(push: { initialDelay?: number } = {}) {
    registerProviderManagers({ entities: { Todo }, push });
    const provider = await fixture<ResourceProvider>(html`
      <resource-provider events="/api/events">
        <demo-todo-list heading="All"></demo-todo-list>
        <demo-todo-list heading="Open" .completed=${false}></demo-todo-list>
      </resource-provider>
    `);
    const [all, open] = [...provider.querySelectorAll('demo-todo-list')] as unknown as [
      Element,
      Element,
    ];
    await until(() => expect(titles(all)).to.have.length.above(0));
    await until(() => expect(titles(open)).to.have.length.above(0));
    await eventually(async () => expect((await eventStats()).open).to.equal(1));
    return { provider, all, open };
  }

  it('an edit made through the API appears via SSE, re-rendering only its row, with no request', async () => {
    const { all, open } = await pushedPage();
    const { body: openTodos } = await api<{ id: string }[]>('GET', '/todos?completed=false');
    const id = openTodos[0]!.id;
    const rendered: TodoItem[] = [];
    const proto = TodoItem.prototype as unknown as { update(changed: unknown): void };
    const own = Object.hasOwn(proto, 'update');
    const original = proto.update;
    proto.update = function (this: TodoItem, changed: unknown) {
      rendered.push(this);
      original.call(this, changed);
    };
    const before = await requestLog();
    try {
      await api('PATCH', `/todos/${id}`, { title: 'Edited elsewhere' });
      await until(() => expect(titles(all)).to.include('Edited elsewhere'));
      await until(() => expect(titles(open)).to.include('Edited elsewhere'));
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      if (own) proto.update = original;
      else delete (proto as Partial<typeof proto>).update;
    }
    // One row per list that shows the todo; no other row of either list.
    expect(rendered.map((item) => item.todo.id)).to.deep.equal([id, id]);
    const after = await requestLog();
    expect(
      after.slice(before.length).map((entry) => `${entry.method} ${entry.path}`),
    ).to.deep.equal([`PATCH /todos/${id}`]);
  });

  it("the demo's Live card lists a change made from outside, and the board shows it", async () => {
    registerProviderManagers({ entities: { Todo } });
    const provider = await fixture<ResourceProvider>(html`
      <resource-provider events="/api/events"><demo-app></demo-app></resource-provider>
    `);
    const app = provider.querySelector('demo-app')!;
    const all = query(app, 'demo-todo-board', 'demo-todo-list[heading="All"]');
    await until(() => expect(titles(all)).to.have.length.above(0));
    await eventually(async () => expect((await eventStats()).open).to.equal(1));
    const live = query(app, 'demo-live');
    expect(textOf(live)).to.include('Nothing yet');
    query<HTMLButtonElement>(live, 'button').click();
    await until(() => expect(textOf(live)).to.match(/Todo 1: “Renamed elsewhere at [\d:]+”/));
    await until(() => expect(titles(all).join()).to.match(/Renamed elsewhere at/));
  });

  it('a dropped connection resumes with Last-Event-ID: what changed meanwhile is replayed, not refetched', async () => {
    // A long first delay: the edit below happens while the page is disconnected.
    const { all } = await pushedPage({ initialDelay: 1000 });
    await api('PATCH', '/todos/1', { title: 'Before the drop' });
    await until(() => expect(titles(all)).to.include('Before the drop'));
    const { resumed, last } = await eventStats();
    const before = await requestLog();

    await api('POST', '/__events/drop');
    await eventually(async () => expect((await eventStats()).open).to.equal(0));
    await api('PATCH', '/todos/2', { title: 'While disconnected' });
    expect(titles(all)).to.not.include('While disconnected');

    await until(() => expect(titles(all)).to.include('While disconnected'), 4000);
    const stats = await eventStats();
    expect(stats.resumed).to.equal(resumed + 1);
    // It resumed after the last event it had seen: the one before the drop (the edit of todo 1).
    expect(stats.resumes[stats.resumes.length - 1]).to.equal(last);
    const after = await requestLog();
    expect(
      after.slice(before.length).map((entry) => `${entry.method} ${entry.path}`),
    ).to.deep.equal(['PATCH /todos/2'], 'the page asked for nothing: the change was replayed');
  });

  it('two pages in one browser context stay in sync, with zero requests in the second', async () => {
    registerProviderManagers({ entities: { Todo } });
    const provider = await fixture<ResourceProvider>(html`
      <resource-provider sync-tabs="live-sync">
        <demo-todo-list heading="All"></demo-todo-list>
      </resource-provider>
    `);
    const list = provider.querySelector('demo-todo-list')!;
    await until(() => expect(titles(list)).to.have.length.above(0));
    const frame = await openFrame('sync-tabs=live-sync');
    await until(() => expect(titles(frameList(frame))).to.deep.equal(titles(list)));
    const fromFrame = async () =>
      (await requestLog()).filter((entry) => entry.from === FRAME).length;
    const frameRequests = await fromFrame();

    const controller = provider.controller;
    await controller.fetch(TodoResource.partialUpdate, { id: '1' }, { title: 'Synced' });
    await until(() => expect(titles(frameList(frame))).to.include('Synced'));
    await controller.fetch(TodoResource.delete, { id: '2' });
    await until(() => expect(titles(frameList(frame))).to.deep.equal(titles(list)));
    expect(titles(list)).to.include('Synced');
    expect(await fromFrame()).to.equal(frameRequests, 'the second page sent no request');
  });

  it('a reload restores from IndexedDB and renders before the delayed network answers', async () => {
    const name = `live-reload-${Date.now()}`;
    const frame = await openFrame(`persist=live-v1&name=${name}`);
    await until(() => expect(titles(frameList(frame))).to.have.length.above(0));
    const shown = titles(frameList(frame));
    await eventually(async () => {
      const saved = await savedRecord(name);
      expect(saved?.buster).to.equal('live-v1');
      expect(Object.keys(saved!.state.entities.Todo ?? {})).to.have.length.above(0);
    });

    await slowApi(1500);
    await reload(frame);
    await until(() => expect(titles(frameList(frame))).to.deep.equal(shown), 1400);
    expect(listAnswered(frame), 'the list was shown before its request was answered').to.equal(
      false,
    );
  });

  it('a buster change discards the old cache', async () => {
    const name = `live-buster-${Date.now()}`;
    const frame = await openFrame(`persist=live-v1&name=${name}`);
    await until(() => expect(titles(frameList(frame))).to.have.length.above(0));
    await eventually(async () => expect((await savedRecord(name))?.buster).to.equal('live-v1'));
    // The server's data moves on; the v1 cache still has the old title.
    await api('PATCH', '/todos/1', { title: 'Only on the server' });
    await slowApi(500);

    await reload(frame, `persist=live-v2&name=${name}`);
    // Until the network answers, nothing is shown from the old cache.
    let shownEarly = false;
    await until(() => {
      const list = frame.contentDocument!.querySelector('demo-todo-list');
      if (list && titles(list).length > 0 && !listAnswered(frame)) shownEarly = true;
      expect(titles(frameList(frame))).to.include('Only on the server');
    }, 4000);
    expect(shownEarly, 'nothing from the discarded cache was shown').to.equal(false);
    await eventually(async () => expect((await savedRecord(name))?.buster).to.equal('live-v2'));
  });
});
