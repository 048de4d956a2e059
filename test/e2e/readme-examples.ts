// The guide's examples (docs/guide/*.md), as one module that readme.browser.test.ts (beside it)
// runs against the demo's API. Each section below names the page it comes from, and
// test/docs-blocks.test.mjs checks that its code is a code block of that page, line for line
// (imports and `export` aside; a section may wrap a block in a function that returns what the test
// looks at). The pages import from 'resource-elements'; here that is the source itself, so the
// tests need no build (the test runner would resolve the package name to dist/).
import { LitElement, html, isServer, noChange } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { consume } from '@lit/context';
import {
  Controller,
  Entity,
  MutationController,
  NetworkError,
  ResourceController,
  RestEndpoint,
  controllerContext,
  createResource,
  hookifyResource,
  schema,
  type ControllerLike,
  type Manager,
  type RestGenerics,
} from '../../src/index.js';
import { repeat } from 'lit/directives/repeat.js';
import { SignalWatcher, watch } from '@lit-labs/signals';
import { Signal } from 'signal-polyfill';
import { InfiniteController } from '../../src/infinite/index.js';
import { entitySignal, readSignal } from '../../src/signals/index.js';
import { dehydrate, hydrate } from '../../src/hydration/index.js';
import { followFilters } from '../../src/follow/index.js';
import { queryAll } from '../../src/query/index.js';
import {
  PersistManager,
  PushManager,
  TabSyncManager,
  eventSource,
} from '../../src/managers/index.js';

// --- docs/guide/entities.md ---
export class Todo extends Entity {
  id = '';
  userId = 0;
  title = '';
  completed = false;
  pk() {
    return this.id;
  }
  static key = 'Todo';
}

// --- docs/guide/resources.md ---
export const TodoResource = createResource({
  path: '/api/todos/:id',
  schema: Todo,
  searchParams: {} as { userId?: number; completed?: boolean },
  body: {} as { title: string; userId: number; completed?: boolean },
});

// --- docs/guide/resources.md ---
export async function callDirectly() {
  const todo = await TodoResource.get({ id: '1' }); // GET /api/todos/1, plain JSON, no store
  const open = await TodoResource.getList({ userId: 1, completed: false }); // GET /api/todos?userId=1&completed=false
  return { todo, open };
}

// --- docs/guide/resources.md ---
export function misuse() {
  // @ts-expect-error the id is required
  void TodoResource.get({});
  // @ts-expect-error `user` is not a search parameter of getList
  void TodoResource.getList({ user: 1 });
}

// --- docs/guide/provider.md ---
export function watchActivity(): void {
  const provider = document.querySelector('resource-provider')!;
  provider.addEventListener('resource-activity', ({ detail }) => {
    document.title = detail.fetching + detail.mutating > 0 ? 'Saving… – Todos' : 'Todos';
  });
}

// --- docs/guide/resource-controller.md ---
@customElement('todo-list')
export class TodoList extends LitElement {
  @property({ type: Number }) userId = 1;

  #todos = new ResourceController(this, TodoResource.getList, () => ({ userId: this.userId }));

  render() {
    return this.#todos.render({
      pending: () => html`<p>Loading…</p>`,
      complete: (todos) =>
        html`<ul>
          ${todos.map((todo) => html`<li>${todo.title}</li>`)}
        </ul>`,
      error: (error) => html`<p>Failed: ${(error as Error).message}</p>`,
    });
  }
}

// --- docs/guide/mutations.md ---
@customElement('todo-toggle')
export class TodoToggle extends LitElement {
  @consume({ context: controllerContext, subscribe: true })
  controller?: ControllerLike;

  @property({ attribute: false }) todo?: Todo;

  render() {
    const done = this.todo?.completed ?? false;
    // `?checked` for server rendering, `.checked` once clicked: see "Server rendering".
    return html`<input
      type="checkbox"
      ?checked=${done}
      .checked=${isServer ? noChange : done}
      @change=${this.toggle}
    />`;
  }

  toggle = async () => {
    const { id, completed } = this.todo!;
    await this.controller?.fetch(TodoResource.partialUpdate, { id }, { completed: !completed });
  };
}

// --- docs/guide/mutation-controller.md ---
@customElement('new-todo')
export class NewTodo extends LitElement {
  #create = new MutationController(this, TodoResource.getList.push);
  @state() title = '';

  render() {
    return html`<form @submit=${this.submit}>
      <input
        .value=${this.title}
        @input=${(e: InputEvent) => (this.title = (e.target as HTMLInputElement).value)}
      />
      <button ?disabled=${this.#create.pending}>Add</button>
      ${this.#create.error ? html`<p role="alert">${(this.#create.error as Error).message}</p>` : ''}
    </form>`;
  }

  submit = async (event: Event) => {
    event.preventDefault();
    const todo = await this.#create.run({ userId: 1, title: this.title }).catch(() => undefined);
    if (todo) this.title = ''; // typed: a Todo
  };
}

// --- docs/guide/mutations.md ---
export async function withController() {
  const controller = new Controller();
  const todo = await controller.fetch(TodoResource.get, { id: '1' });
  const again = controller.getResponse(TodoResource.get, { id: '1' }).data; // the same object as todo
  return todo === again;
}

// --- docs/guide/collections.md ---
export async function createTodos(controller: ControllerLike) {
  // Joins the end of every stored list whose args match: {}, { userId: 1 },
  // { userId: 1, completed: false } — not { completed: true }, not { userId: 2 }.
  const milk = await controller.fetch(TodoResource.getList.push, {
    title: 'Buy milk',
    userId: 1,
    completed: false,
  });
  // The answer's fields, then the URL params and body: list args are matched against them.
  const bank = await controller.fetch(
    TodoResource.getList.unshift,
    { userId: 1 },
    { title: 'Call the bank', userId: 1 },
  );
  return [milk.title, bank.title];
}

// --- docs/guide/collections.md ---
export class SortedTodos extends schema.Collection {
  // `sort` orders a list; it does not decide which lists a new todo joins.
  override nonFilterArgumentKeys(key: string) {
    return key === 'sort' || key.startsWith('order');
  }
}

export const SortedTodoResource = createResource({
  path: '/api/todos/:id',
  schema: Todo,
  searchParams: {} as { userId?: number; sort?: 'title' },
  Collection: SortedTodos,
});

// --- docs/guide/collections.md ---
// Open and Done follow the todos' `completed`, whatever writes it.
export const FollowedTodos = followFilters(
  createResource({
    path: '/api/todos/:id',
    schema: Todo,
    searchParams: {} as { userId?: number; completed?: boolean },
  }),
);

export async function completedElsewhere(controller: Controller) {
  const open = { userId: 1, completed: false };
  const done = { userId: 1, completed: true };
  await controller.fetch(FollowedTodos.getList, open);
  await controller.fetch(FollowedTodos.getList, done);
  // Another client completed todo 1 and the server pushed it (PushManager makes this call):
  controller.set(Todo, { id: '1', completed: true });
  // Todo 1 left Open and is at the end of Done; no list was fetched again.
  return [open, done].map((args) =>
    controller.getResponse(FollowedTodos.getList, args).data!.map((todo) => todo.title),
  );
}

// --- docs/guide/queries.md ---
/** The open todos of one user, by title. */
export const openTodos = queryAll(
  Todo,
  (todos, { userId }: { userId: number }) =>
    todos
      .filter((todo) => !todo.completed && todo.userId === userId)
      .sort((a, b) => a.title.localeCompare(b.title)),
  { name: 'openTodos' },
);

/** How many todos each user has done, by user id. */
export const doneByUser = queryAll(Todo, (todos) => {
  const counts: Record<number, number> = {};
  for (const todo of todos) {
    if (todo.completed) counts[todo.userId] = (counts[todo.userId] ?? 0) + 1;
  }
  return counts;
});

// --- docs/guide/queries.md ---
@customElement('todo-board')
export class TodoBoard extends LitElement {
  @state() userId = 1;

  // Fetches every todo once (and keeps them while the board is shown).
  readonly #all = new ResourceController(this, TodoResource.getList);
  // Read from the store: no request, for any user.
  readonly #open = new ResourceController(this, openTodos, () => ({ userId: this.userId }));
  readonly #done = new ResourceController(this, doneByUser);

  override render() {
    if (this.#all.status === 'pending') return html`<p>Loading…</p>`;
    return html`
      <button @click=${() => (this.userId += 1)}>Next user</button>
      <p>User ${this.userId} has done ${this.#done.value?.[this.userId] ?? 0}.</p>
      <ul>
        ${this.#open.value?.map((todo) => html`<li>${todo.title}</li>`)}
      </ul>
    `;
  }
}

// --- docs/guide/queries.md ---
export async function openOfUserOne() {
  const controller = new Controller();
  await controller.fetch(TodoResource.getList, {});
  const { data } = controller.getResponse(openTodos, { userId: 1 });
  console.log(data?.map((todo) => todo.title));
  return data;
}

// --- docs/guide/pagination.md ---
export class Post extends Entity {
  id = '';
  group = '';
  title = '';
  pk() {
    return this.id;
  }
  static key = 'Post';
}

export const PostResource = createResource({
  path: '/api/:group/posts/:id',
  schema: Post,
  paginationField: 'page',
});

@customElement('post-feed')
export class PostFeed extends LitElement {
  @consume({ context: controllerContext, subscribe: true })
  controller?: ControllerLike;

  #posts = new ResourceController(this, PostResource.getList, () => ({ group: 'news' }));

  render() {
    return this.#posts.render({
      complete: (posts) => html`
        <ol>
          ${posts.map((post) => html`<li>${post.title}</li>`)}
        </ol>
        <button @click=${() => this.loadMore(posts.length / 5 + 1)}>Load more</button>
      `,
    });
  }

  loadMore(page: number) {
    // GET /api/news/posts?page=2, appended to the { group: 'news' } list
    return this.controller?.fetch(PostResource.getList.getPage, { group: 'news', page });
  }
}

// --- docs/guide/pagination.md ---
export const getPostPage = new RestEndpoint({
  path: '/api/:group/posts',
  schema: { data: { results: new schema.Collection([Post]) }, total: 0 },
  paginationField: 'page',
});

// --- docs/guide/infinite-lists.md ---
@customElement('endless-feed')
export class EndlessFeed extends LitElement {
  #posts = new InfiniteController(this, PostResource.getList, () => ({ group: 'news' }), {
    // Five per page: a full page may have a next one. With a cursor API: (last) => last.nextCursor
    nextPage: (lastPage, pages) => (lastPage.length === 5 ? pages + 1 : undefined),
  });

  render() {
    const posts = this.#posts;
    return html`${posts.render({
        complete: (list) =>
          html`<ol>
            ${list.map((post) => html`<li>${post.title}</li>`)}
          </ol>`,
      })}
      <div ${posts.sentinel()}></div>
      ${
        posts.hasMore
          ? html`<button ?disabled=${posts.loadingMore} @click=${() => posts.loadMore()}>
              More
            </button>`
          : 'That is all.'
      }`;
  }
}

// --- docs/guide/optimistic-updates.md ---
export const OptimisticTodoResource = TodoResource.extend({
  partialUpdate: { optimistic: true },
});

// --- docs/guide/optimistic-updates.md ---
export const markDone = TodoResource.partialUpdate.extend({
  getOptimisticResponse(snapshot, params, body) {
    const stored = snapshot.get(Todo, params);
    if (!stored) throw snapshot.abort; // nothing to show yet: apply nothing
    return { ...stored, ...body };
  },
});

// --- docs/guide/invalidate.md ---
export async function removeTodo(controller: ControllerLike, id: string) {
  // DELETE /api/todos/:id, schema new schema.Invalidate(Todo): the todo leaves every list;
  // a view that requires it goes back to pending and fetches it again.
  await controller.fetch(TodoResource.delete, { id });
}

// --- docs/guide/invalidate.md ---
export function forget(controller: Controller) {
  controller.invalidate(TodoResource.get, { id: '1' });
  controller.invalidateAll((key) => key.startsWith('GET /api/todos'));
}

// --- docs/guide/auth-headers.md ---
export const session = { token: '' };

export class Account extends Entity {
  id = '';
  name = '';
  pk() {
    return this.id;
  }
  static key = 'Account';
}

export const AccountResource = createResource({
  path: '/api/users/:id',
  schema: Account,
}).extend('me', { path: '/api/me', schema: Account });

export const AccountHooks = hookifyResource(AccountResource, () => ({
  headers: { 'Access-Token': session.token },
}));

@customElement('who-am-i')
export class WhoAmI extends LitElement {
  @consume({ context: controllerContext, subscribe: true })
  controller?: ControllerLike;

  #me = new ResourceController(this, AccountHooks.useMe);

  render() {
    return this.#me.render({ complete: (me) => html`Signed in as ${me.name}` });
  }

  /** The header is not part of the cache key: fetch again after the token changed. */
  async useToken(token: string) {
    session.token = token;
    this.requestUpdate(); // the hook runs in the update and picks the new header up
    await this.updateComplete;
    // refetch() joins an identical read in flight, and one may carry the old token: drop it.
    this.controller?.invalidate(AccountResource.me);
    await this.#me.refetch();
  }
}

// --- docs/guide/custom-endpoint.md ---
export class SameOriginEndpoint<O extends RestGenerics = RestGenerics> extends RestEndpoint<O> {
  override async getRequestInit(body: unknown): Promise<RequestInit> {
    return { ...(await super.getRequestInit(body)), credentials: 'same-origin' };
  }
}

export const UserResource = createResource({
  path: '/api/users/:id',
  schema: Account,
  Endpoint: SameOriginEndpoint,
});

// --- docs/guide/extend.md ---
export const MoreTodos = TodoResource.extend((Base) => ({
  // Same request as getList, but userId is required.
  byUser: Base.getList.extend({ searchParams: {} as { userId: number } }),
}));

// --- test only: the one-line example in the text of docs/guide/extend.md ---
export const quickToStale = TodoResource.get.extend({ dataExpiryLength: 5_000 });

// --- docs/guide/polling.md ---
export class ClockTick extends Entity {
  id = '';
  now = '';
  ticks = 0;
  pk() {
    return this.id;
  }
  static key = 'ClockTick';
}

export const clock = new RestEndpoint({
  path: '/api/clock',
  schema: ClockTick,
  pollFrequency: 1000,
});

@customElement('server-clock')
export class ServerClock extends LitElement {
  #clock = new ResourceController(this, clock); // polls while connected

  render() {
    return this.#clock.render({ complete: (tick) => html`${tick.now}` });
  }
}

// --- docs/guide/errors.md ---
@customElement('todo-detail')
export class TodoDetail extends LitElement {
  @property() todoId = '1';

  #todo = new ResourceController(this, TodoResource.get, () => ({ id: this.todoId }));

  render() {
    return this.#todo.render({
      pending: () => html`Loading…`,
      complete: (todo) => html`${todo.title}`,
      error: (error) =>
        error instanceof NetworkError && error.status === 404
          ? html`No todo ${this.todoId}.`
          : html`${(error as Error).message}
              <button @click=${() => this.#todo.refetch()}>Retry</button>`,
    });
  }
}

// --- test only ---
declare global {
  interface HTMLElementTagNameMap {
    'todo-list': TodoList;
    'todo-toggle': TodoToggle;
    'new-todo': NewTodo;
    'endless-feed': EndlessFeed;
    'post-feed': PostFeed;
    'who-am-i': WhoAmI;
    'server-clock': ServerClock;
    'todo-detail': TodoDetail;
  }
}

// --- docs/guide/retries.md ---
export class Stats extends Entity {
  id = '';
  visits = 0;
  pk() {
    return this.id;
  }
  static key = 'Stats';
}

export const StatsResource = createResource({ path: '/stats/:id', schema: Stats, retry: 5 });
export const getReport = new RestEndpoint({
  path: '/reports/:id',
  // A report is built on demand: retry its 404 too, every 2 s, ten times.
  retry: (failures, error) => failures <= 10 && (error as NetworkError).status === 404 && 2_000,
});
export const sendPing = new RestEndpoint({ path: '/ping', method: 'POST', retry: 2 }); // opted in

// Reads of endpoints without their own `retry`; 0 turns retries off (tests of error states).
export const quietController = new Controller({ retry: 0 });

// --- docs/guide/managers-and-events.md ---
export const actionLog: string[] = [];

export const logger: Manager = {
  attach(controller) {
    return controller.events.subscribe((event) => {
      if (event.type === 'action') actionLog.push(event.action.type);
      if (event.type === 'request' && event.phase === 'settle' && !event.ok) {
        actionLog.push(`failed: ${event.key}`);
      }
    });
  },
};

export const loggedController = new Controller({ managers: [logger] });

// --- docs/guide/pushed-data.md ---
export function applyPush(controller: Controller, message: { deleted?: boolean; todo: Todo }) {
  if (message.deleted) controller.invalidate(Todo, message.todo.id);
  else controller.set(Todo, message.todo);
}

// --- docs/guide/hydration.md ---
export function transfer(from: Controller, to: Controller) {
  hydrate(to, JSON.parse(JSON.stringify(dehydrate(from))));
}

// --- docs/guide/realtime-and-sync.md ---
export function liveController(): Controller {
  const push = new PushManager({ source: eventSource('/api/events'), entities: { Todo } });
  return new Controller({ managers: [push] });
}

// --- docs/guide/realtime-and-sync.md ---
export function cachedController(): Controller {
  const persist = new PersistManager({ buster: 'app-v1', maxAge: 24 * 3600_000 });
  return new Controller({
    managers: [persist, new TabSyncManager({ channel: 'my-app-v1' })],
    fetch: persist.gateFetch(),
  });
}

// --- docs/guide/signals.md ---
@customElement('todo-row')
export class TodoRow extends SignalWatcher(LitElement) {
  readonly #id = new Signal.State('');
  set todoId(id: string) {
    this.#id.set(id);
  }
  readonly todo = entitySignal(this, Todo, () => ({ id: this.#id.get() }));
  // Not `title`: HTMLElement has a `title` property of its own.
  readonly label = new Signal.Computed(() => this.todo.get()?.title ?? '');
  readonly done = new Signal.Computed(() => this.todo.get()?.completed ?? false);

  render() {
    return html`<label>
      <input type="checkbox" .checked=${watch(this.done)} disabled />
      ${watch(this.label)}
    </label>`;
  }
}

@customElement('todo-rows')
export class TodoRows extends SignalWatcher(LitElement) {
  readonly userId = new Signal.State(1);
  readonly todos = readSignal(this, TodoResource.getList, () => ({ userId: this.userId.get() }));
  // The ids alone, the same array while they are the same: a renamed todo leaves it unchanged.
  readonly ids = new Signal.Computed(() => (this.todos.get().value ?? []).map((todo) => todo.id), {
    equals: (a, b) => a.length === b.length && a.every((id, i) => id === b[i]),
  });
  // The status alone: a renamed todo changes the read's value, not its status.
  readonly status = new Signal.Computed(() => this.todos.get().status);
  readonly rows = new Signal.Computed(() => {
    const status = this.status.get();
    const error = status === 'error' ? this.todos.get().error : undefined;
    if (status === 'error') return html`<p role="alert">${String(error)}</p>`;
    if (status === 'pending') return html`<p>Loading…</p>`;
    return repeat(
      this.ids.get(),
      (id) => id,
      (id) => html`<todo-row .todoId=${id}></todo-row>`,
    );
  });

  render() {
    return html`${watch(this.rows)}`;
  }
}
