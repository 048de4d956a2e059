// ResourceController with the real Controller, real endpoints and msw, in each browser engine.
import { expect, fixture, html } from '@open-wc/testing';
import { http, HttpResponse, delay } from 'msw';
import { useHandlers } from '../../test/browser/msw.js';
import './define-provider.js';
import type { ResourceProvider } from './resource-provider.js';
import { Controller } from '../core/index.js';
import { RestEndpoint } from '../core/rest/rest-endpoint.js';
import { Entity } from '../core/schema/entity.js';
import { NetworkError } from '../core/errors.js';
import { defineReader, reader, textOf, until, type Reader } from './test-utils/reader.js';

class LitTodo extends Entity {
  id = '';
  title = '';
  completed = false;
  pk() {
    return this.id;
  }
  static key = 'LitTodo';
}

const getTodo = new RestEndpoint({ path: '/mock/lit/todos/:id', schema: LitTodo });
const patchTodo = new RestEndpoint({
  path: '/mock/lit/todos/:id',
  method: 'PATCH',
  schema: LitTodo,
  body: {} as Partial<LitTodo>,
});
const optimisticPatch = new RestEndpoint({
  path: '/mock/lit/todos/:id',
  method: 'PATCH',
  schema: LitTodo,
  body: {} as Partial<LitTodo>,
  optimistic: true,
});
const pollTodo = new RestEndpoint({
  path: '/mock/lit/todos/:id',
  schema: LitTodo,
  pollFrequency: 40,
});

const pollRows = new RestEndpoint({
  path: '/mock/lit/rows',
  schema: { rows: [LitTodo], total: 0 },
  pollFrequency: 30,
});

const todoTag = defineReader(getTodo, (todo) => `${todo.title}${todo.completed ? ' ✓' : ''}`);
const rowsTag = defineReader(pollRows, (page) =>
  page.rows.map((row: LitTodo) => row.title).join(', '),
);
const pollTag = defineReader(pollTodo, (todo) => todo.title);

/** Requests seen by the handlers, as 'METHOD /path'. */
let hits: string[] = [];

/** `slow` delays the answer for an id by some ms; `hold` until a promise settles. */
function todoHandlers(
  options: { slow?: Record<string, number>; hold?: Record<string, Promise<unknown>> } = {},
) {
  return [
    http.get('/mock/lit/todos/:id', async ({ params }) => {
      const id = String(params.id);
      hits.push(`GET ${id}`);
      const wait = options.slow?.[id];
      if (wait) await delay(wait);
      await options.hold?.[id];
      return HttpResponse.json({ id, title: `Todo ${id}`, completed: false });
    }),
    http.patch('/mock/lit/todos/:id', async ({ params, request }) => {
      const id = String(params.id);
      hits.push(`PATCH ${id}`);
      const body = (await request.json()) as Record<string, unknown>;
      return HttpResponse.json({ id, title: `Todo ${id}`, completed: false, ...body });
    }),
  ];
}

async function mount(controller: Controller, ...children: Element[]): Promise<ResourceProvider> {
  const provider = document.createElement('resource-provider');
  provider.controller = controller;
  provider.append(...children);
  await fixture(html`<div>${provider}</div>`);
  return provider;
}

/** What failure must leave alone: stored data and entities. */
function storedData(controller: Controller) {
  const { entities, endpoints } = controller.getState();
  return JSON.stringify({ entities, endpoints });
}

describe('ResourceController with the real Controller (msw)', () => {
  beforeEach(async () => {
    hits = [];
    await useHandlers(...todoHandlers());
  });

  it('renders pending, then complete', async () => {
    // The answer waits until the pending state was seen: mount() waits for a frame, and a busy
    // WebKit under xvfb can take longer to give one than msw takes to answer.
    let answer!: () => void;
    await useHandlers(...todoHandlers({ hold: { '1': new Promise<void>((r) => (answer = r)) } }));
    const controller = new Controller();
    const view = reader(todoTag, { id: '1' });
    await mount(controller, view);
    expect(textOf(view)).to.equal('pending');
    expect(view.reader.status).to.equal('pending');
    answer();
    await until(() => expect(textOf(view)).to.equal('Todo 1'));
    expect(view.reader.status).to.equal('complete');
    expect(view.reader.value).to.be.instanceOf(LitTodo);
    expect(hits).to.deep.equal(['GET 1']);
  });

  for (const [name, respond, check] of [
    [
      '500',
      () => HttpResponse.json({ message: 'down' }, { status: 500 }),
      (error: unknown) => {
        expect(error).to.be.instanceOf(NetworkError);
        expect((error as NetworkError).status).to.equal(500);
      },
    ],
    ['a network failure', () => HttpResponse.error(), () => {}],
    [
      'malformed JSON',
      () =>
        new HttpResponse('{"id": "9", oops', { headers: { 'Content-Type': 'application/json' } }),
      (error: unknown) => expect((error as Error).message).to.contain('/mock/lit/todos/9'),
    ],
  ] as const) {
    it(`renders the error template for ${name}, leaving the store unchanged`, async () => {
      // retry: 0: the subject is what one failure shows (retries: src/lit/retry.browser.test.ts).
      const controller = new Controller({ retry: 0 });
      await controller.fetch(getTodo, { id: '1' });
      const before = storedData(controller);
      await useHandlers(
        http.get('/mock/lit/todos/9', () => respond()),
        ...todoHandlers(),
      );
      const view = reader(todoTag, { id: '9' });
      await mount(controller, view);
      await until(() => expect(view.reader.status).to.equal('error'));
      await view.updateComplete;
      check(view.reader.error);
      expect(view.querySelector('.error')!.textContent).to.equal(
        (view.reader.error as Error).message,
      );
      expect(storedData(controller)).to.equal(before);
      // The failure is not retried on each render while it is fresh.
      view.requestUpdate();
      await view.updateComplete;
      expect(view.reader.status).to.equal('error');
    });
  }

  it('shares one request between elements reading the same todo', async () => {
    const controller = new Controller();
    const views = Array.from({ length: 5 }, () => reader(todoTag, { id: '3' }));
    await mount(controller, ...views);
    await until(() => views.forEach((v) => expect(textOf(v)).to.equal('Todo 3')));
    expect(hits).to.deep.equal(['GET 3']);
  });

  it('fetches new args; the late response for the old args never reaches the host', async () => {
    await useHandlers(...todoHandlers({ slow: { '1': 150 } }));
    const controller = new Controller();
    const view = reader(todoTag, { id: '1' });
    await mount(controller, view);
    const shown: string[] = [];
    const observer = new MutationObserver(() => shown.push(textOf(view)));
    observer.observe(view, { childList: true, subtree: true, characterData: true });
    view.params = { id: '2' };
    await until(() => expect(textOf(view)).to.equal('Todo 2'));
    await until(() => expect(controller.stats().inFlight).to.equal(0));
    await view.updateComplete;
    observer.disconnect();
    expect(hits).to.deep.equal(['GET 1', 'GET 2']);
    expect(shown).to.not.include('Todo 1');
    expect(textOf(view)).to.equal('Todo 2');
  });

  it('re-renders only the element whose todo changed (100 siblings)', async () => {
    const controller = new Controller();
    const views = Array.from({ length: 100 }, (_, i) => reader(todoTag, { id: `${i}` }));
    await mount(controller, ...views);
    await until(() => views.forEach((v) => expect(v.reader.status).to.equal('complete')));
    await Promise.all(views.map((v) => v.updateComplete));
    const before = views.map((v) => v.renders);
    await controller.fetch(patchTodo, { id: '42' }, { completed: true });
    await Promise.all(views.map((v) => v.updateComplete));
    const rerendered = views.flatMap((v, i) => (v.renders !== before[i] ? [i] : []));
    expect(rerendered).to.deep.equal([42]);
    expect(views[42]!.renders - before[42]!).to.equal(1);
    expect(textOf(views[42]!)).to.equal('Todo 42 ✓');
  });

  it('renders an optimistic change at once and rolls it back visibly on failure', async () => {
    const controller = new Controller();
    const view = reader(todoTag, { id: '5' });
    await mount(controller, view);
    await until(() => expect(textOf(view)).to.equal('Todo 5'));
    await useHandlers(
      http.patch('/mock/lit/todos/5', async () => {
        await delay(100);
        return HttpResponse.json({ message: 'no' }, { status: 409 });
      }),
      ...todoHandlers(),
    );
    const result = controller.fetch(optimisticPatch, { id: '5' }, { completed: true });
    await view.updateComplete;
    expect(textOf(view)).to.equal('Todo 5 ✓');
    await result.then(
      () => expect.fail('the PATCH should fail'),
      () => {},
    );
    await view.updateComplete;
    expect(textOf(view)).to.equal('Todo 5');
  });

  it('while an optimistic change is pending, other data arriving does not render its element again', async () => {
    const controller = new Controller();
    const view = reader(todoTag, { id: '7' });
    await mount(controller, view);
    await until(() => expect(textOf(view)).to.equal('Todo 7'));
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    await useHandlers(
      http.patch('/mock/lit/todos/7', async () => {
        await held;
        return HttpResponse.json({ id: '7', title: 'Todo 7', completed: true });
      }),
      ...todoHandlers(),
    );
    const result = controller.fetch(optimisticPatch, { id: '7' }, { completed: true });
    await view.updateComplete;
    expect(textOf(view)).to.equal('Todo 7 ✓');
    const renders = view.renders;
    // Other elements load their data while the change is pending.
    const others = [8, 9, 10].map((id) => reader(todoTag, { id: String(id) }));
    view.parentElement!.append(...others);
    await until(() =>
      others.forEach((other) => expect(textOf(other)).to.equal(`Todo ${other.params!.id}`)),
    );
    await view.updateComplete;
    expect(view.renders).to.equal(renders);
    answer();
    await result;
  });

  it('a poll that answers what is shown does not render the element again', async () => {
    let polls = 0;
    await useHandlers(
      http.get('/mock/lit/rows', () => {
        polls++;
        return HttpResponse.json({
          rows: [{ id: '1', title: 'Row 1', completed: false }],
          total: 1,
        });
      }),
    );
    const controller = new Controller({ gcTime: Infinity });
    const view = reader(rowsTag, {});
    await mount(controller, view);
    await until(() => expect(textOf(view)).to.equal('Row 1'));
    const renders = view.renders;
    const after = polls;
    await until(() => expect(polls).to.be.greaterThan(after + 2));
    await view.updateComplete;
    expect(view.renders).to.equal(renders);
    view.remove();
  });

  it('polls while connected and stops when disconnected', async () => {
    const controller = new Controller({ gcTime: Infinity });
    const view = reader(pollTag, { id: '6' });
    await mount(controller, view);
    await until(() => expect(hits.length).to.be.greaterThan(2));
    view.remove();
    await until(() => expect(controller.stats().inFlight).to.equal(0));
    const count = hits.length;
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(hits.length).to.equal(count);
  });

  it('leaks no timers, listeners or subscriptions after 100 elements disconnect', async () => {
    const controller = new Controller({ gcTime: Infinity });
    const baseline = controller.stats();
    const views = Array.from({ length: 100 }, (_, i) => reader(pollTag, { id: `${i}` }));
    const provider = await mount(controller, ...views);
    // 100 reads (and their aborts) through msw's service worker: WebKit sometimes needs more than
    // the default 2 s (the test is about what is left after, not how fast it gets there).
    await until(() => views.forEach((v) => expect(v.reader.status).to.equal('complete')), 10_000);
    expect(controller.stats()).to.deep.include({ subscriptions: 100, listeners: 100 });
    expect(controller.stats().timers).to.be.greaterThan(baseline.timers);
    for (const view of views) view.remove();
    await until(() => expect(controller.stats().inFlight).to.equal(0), 10_000);
    expect(controller.stats()).to.deep.equal(baseline);
    expect(provider.childElementCount).to.equal(0);
  });

  it('moving an element within the page neither refetches nor flickers', async () => {
    const controller = new Controller();
    const view = reader(todoTag, { id: '8' });
    const other = document.createElement('section');
    await mount(controller, view, other);
    await until(() => expect(textOf(view)).to.equal('Todo 8'));
    const shown: string[] = [];
    const observer = new MutationObserver(() => shown.push(textOf(view)));
    observer.observe(view, { childList: true, subtree: true, characterData: true });
    other.append(view);
    await view.updateComplete;
    await new Promise((resolve) => setTimeout(resolve, 20));
    observer.disconnect();
    expect(shown.filter((text) => text !== 'Todo 8')).to.deep.equal([]);
    expect(hits).to.deep.equal(['GET 8']);
    expect(controller.stats()).to.deep.include({ subscriptions: 1, listeners: 1 });
  });
});

declare global {
  interface HTMLElementTagNameMap {
    [tag: `test-reader-${number}`]: Reader<typeof getTodo>;
  }
}
