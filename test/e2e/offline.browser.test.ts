// The offline queue in the browser against the demo's real API: mutations made offline are kept
// in IndexedDB with their optimistic effect shown, shown again after a reload, and sent once
// online, in order and once each even with two tabs; a mutation the server refuses on replay is
// rolled back alone. Requests are counted at the API (GET /api/__requests, by sending page).
import { expect } from '@open-wc/testing';
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

const FRAME = '/test/e2e/offline-frame.html';

interface Logged {
  method: string;
  path: string;
  from: string;
}

const frames: HTMLIFrameElement[] = [];

async function open(queue: string, offline: boolean): Promise<HTMLIFrameElement> {
  // Each iframe has its own window but shares this tab's session storage (same origin): the
  // switch's flag is set for it before it loads.
  sessionStorage.setItem('resource-elements-demo:offline', offline ? '1' : '0');
  const frame = document.createElement('iframe');
  frames.push(frame);
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  frame.src = `${FRAME}?queue=${queue}`;
  document.body.append(frame);
  await loaded;
  await until(() => expect(titles(frame)).to.have.length.greaterThan(0), 4000);
  return frame;
}

async function reload(frame: HTMLIFrameElement): Promise<void> {
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  frame.contentWindow!.location.reload();
  await loaded;
  await until(() => expect(titles(frame)).to.have.length.greaterThan(0), 4000);
}

const page = (frame: HTMLIFrameElement) => frame.contentWindow!.offlineFrame;
const controller = (frame: HTMLIFrameElement) =>
  page(frame).provider.controller as import('../../src/index.js').Controller;

function titles(frame: HTMLIFrameElement): string[] {
  const list = frame.contentDocument?.querySelector('demo-todo-list');
  if (!list?.shadowRoot) return [];
  return queryAll(list, 'demo-todo-item').map((item) => textOf(query(item, '.title')));
}

/** The titles of the todos the list marks as waiting to sync (the mark shown, with its words). */
function marked(frame: HTMLIFrameElement): string[] {
  const list = frame.contentDocument?.querySelector('demo-todo-list');
  if (!list?.shadowRoot) return [];
  return queryAll(list, 'demo-todo-item')
    .filter(
      (item) => item.shadowRoot?.querySelector('.sync')?.textContent?.trim() === 'waiting to sync',
    )
    .map((item) => textOf(query(item, '.title')));
}

function setOnline(frame: HTMLIFrameElement, online: boolean): void {
  // What the demo's switch does: the window events the browser sends.
  frame.contentWindow!.dispatchEvent(new Event(online ? 'online' : 'offline'));
}

async function mutations(): Promise<string[]> {
  const log = (await api<Logged[]>('GET', '/__requests')).body;
  return log.filter((entry) => entry.method !== 'GET').map((e) => `${e.method} ${e.path}`);
}

/** The queue as stored in IndexedDB (the same database PersistManager uses). */
const storedQueue = async (name: string) =>
  (await storedRecord<{ mutations: { id: string }[] }>(`queue:${name}`))?.mutations ?? [];

const pending = (frame: HTMLIFrameElement) =>
  (page(frame).provider as unknown as { pendingSync: number }).pendingSync;

describe('offline queue (real API, IndexedDB, Web Locks)', function () {
  this.timeout(20_000);
  beforeEach(async () => {
    await resetApi();
  });
  afterEach(async () => {
    frames.splice(0).forEach((frame) => frame.remove());
    sessionStorage.removeItem('resource-elements-demo:offline');
    await resetApi();
  });

  it('offline add and edit, reload, two tabs online: the server gets each once, in order', async () => {
    const queue = `a${Date.now()}`;
    const first = await open(queue, true);
    await until(() => expect(titles(first)).to.have.length(4));
    const { TodoResource, create } = page(first);
    void controller(first).fetch(create, {}, { title: 'Buy milk', userId: 1 });
    void controller(first).fetch(TodoResource.partialUpdate, { id: '2' }, { title: 'Edited' });
    await until(() => expect(titles(first)).to.include.members(['Buy milk', 'Edited']));
    await until(() => expect(pending(first)).to.equal(2));
    expect(page(first).provider.matches(':state(pending-sync)')).to.equal(true);
    expect(await mutations()).to.deep.equal([], 'nothing sent offline');
    // Kept once written: a page closed before that loses them (the write takes milliseconds).
    await eventually(async () => expect(await storedQueue(queue)).to.have.length(2));

    await reload(first);
    await until(() => expect(titles(first)).to.include.members(['Buy milk', 'Edited']));
    expect(pending(first)).to.equal(2);
    const second = await open(queue, true);
    await until(() => expect(titles(second)).to.include.members(['Buy milk', 'Edited']));
    expect(await mutations()).to.deep.equal([]);

    setOnline(first, true);
    setOnline(second, true);
    await until(() => expect(pending(first) + pending(second)).to.equal(0), 6000);
    expect(await mutations()).to.deep.equal(['POST /todos', 'PATCH /todos/2']);
    const server = (await api<{ title: string }[]>('GET', '/todos?userId=1')).body;
    expect(server.map((todo) => todo.title)).to.include.members(['Buy milk', 'Edited']);
    for (const frame of [first, second]) {
      await until(() => expect(titles(frame)).to.include.members(['Buy milk', 'Edited']));
      expect(titles(frame)).to.have.length(5);
      expect(page(frame).provider.matches(':state(pending-sync)')).to.equal(false);
    }
  });

  it('a tab already open shows what another queues, and drops it once that tab sent it (#38 item 5)', async () => {
    const queue = `c${Date.now()}`;
    const first = await open(queue, true);
    const second = await open(queue, true);
    await until(() => expect(titles(second)).to.have.length(4));
    const { TodoResource } = page(first);
    void controller(first).fetch(TodoResource.partialUpdate, { id: '2' }, { title: 'Edited' });
    await until(() => expect(titles(second)).to.include('Edited'));
    await until(() => expect(pending(second)).to.equal(1));
    expect(page(second).provider.matches(':state(pending-sync)')).to.equal(true);
    expect(pending(first)).to.equal(1);
    expect(await mutations()).to.deep.equal([], 'nothing sent offline');

    // Only the first tab comes back online; the second, offline still, replays the answer.
    setOnline(first, true);
    await until(() => expect(pending(second)).to.equal(0), 6000);
    await until(() => expect(pending(first)).to.equal(0));
    expect(await mutations()).to.deep.equal(['PATCH /todos/2']);
    expect(titles(second)).to.include('Edited');
    expect(page(second).provider.matches(':state(pending-sync)')).to.equal(false);
    const committed = controller(second).getState().entities.Todo as Record<
      string,
      { title: string }
    >;
    expect(committed['2']!.title).to.equal('Edited', 'the answer committed, not only shown');
  });

  it('a todo created or edited offline is marked waiting to sync until the server has it; one sent online is not (#38 item 14)', async () => {
    const first = await open(`d${Date.now()}`, true);
    await until(() => expect(titles(first)).to.have.length(4));
    const { TodoResource, create } = page(first);
    void controller(first).fetch(create, {}, { title: 'Buy milk', userId: 1 });
    void controller(first).fetch(TodoResource.partialUpdate, { id: '2' }, { title: 'Edited' });
    await until(() => expect(marked(first)).to.have.members(['Buy milk', 'Edited']));
    expect(titles(first)).to.have.length(5);

    setOnline(first, true);
    await until(() => expect(pending(first)).to.equal(0), 6000);
    await until(() => expect(marked(first)).to.deep.equal([]));
    expect(titles(first)).to.include.members(['Buy milk', 'Edited']);

    // Online with nothing queued, a create is sent at once: shown before the answer (with no
    // id yet, as offline), but it does not wait to sync.
    await slowApi(500);
    const sent = controller(first).fetch(create, {}, { title: 'Sent online', userId: 1 });
    await until(() => expect(titles(first)).to.include('Sent online'));
    expect(pending(first)).to.equal(0);
    expect(marked(first)).to.deep.equal([]);
    await sent;
    expect(marked(first)).to.deep.equal([]);
  });

  it('a replay the server refuses (400) is rolled back alone and reported', async () => {
    const first = await open(`b${Date.now()}`, true);
    await until(() => expect(titles(first)).to.have.length(4));
    const before = titles(first);
    const { TodoResource } = page(first);
    const refused = controller(first).fetch(TodoResource.partialUpdate, { id: '1' }, { title: '' });
    refused.catch(() => {});
    void controller(first).fetch(TodoResource.partialUpdate, { id: '3' }, { title: 'Kept' });
    await until(() => expect(titles(first)).to.include('Kept'));
    expect(titles(first)).to.include('');

    setOnline(first, true);
    await until(() => expect(pending(first)).to.equal(0), 6000);
    expect(await mutations()).to.deep.equal(['PATCH /todos/1', 'PATCH /todos/3']);
    await until(() => expect(titles(first)[0]).to.equal(before[0]));
    expect(titles(first)).to.include('Kept');
    expect(page(first).rejected).to.have.length(1);
    // What <resource-devtools> lists as the refused mutation's row: its key with the server's error.
    const errors = controller(first).getState().errors;
    expect(Object.keys(errors)).to.deep.equal(['PATCH /api/todos/1']);
    expect((errors['PATCH /api/todos/1']!.error as { status?: number }).status).to.equal(400);
    const error = await refused.then(
      () => undefined,
      (e: unknown) => e as { status?: number },
    );
    expect(error?.status).to.equal(400);
  });
});
