// The demo's REST API: in memory, seeded deterministically, reset on restart. It is a plain
// request handler, `handle({ method, path, query, headers, body })` → `{ status, body }`, so Node
// tests can call it directly; `apiMiddleware()` mounts it on the dev server and the test runner.
// Every change made through it is also told on GET /api/events (Server-Sent Events, events.mjs).
import { createEventLog, openEventStream } from './events.mjs';

const PAGE_SIZE = 5;
const REQUEST_LOG = 500;
const GROUPS = ['news', 'tech'];
/** How many pages' queued failures of /unstable are kept; the oldest page's go first. */
const FAILING_PAGES = 100;

function seed() {
  const users = [
    { id: '1', name: 'Ada Lovelace', username: 'ada' },
    { id: '2', name: 'Grace Hopper', username: 'grace' },
    { id: '3', name: 'Alan Turing', username: 'alan' },
  ];
  const titles = [
    'Write the spec',
    'Review pull requests',
    'Plan the release',
    'Fix the flaky test',
    'Update the docs',
    'Answer issues',
  ];
  const todos = [];
  let next = 1;
  for (const user of users) {
    titles.slice(0, 4).forEach((title, i) => {
      todos.push({
        id: String(next++),
        userId: Number(user.id),
        title,
        completed: (i + Number(user.id)) % 3 === 0,
      });
    });
  }
  const posts = [];
  let postId = 1;
  for (const group of GROUPS) {
    for (let i = 1; i <= 12; i++) {
      posts.push({
        id: String(postId++),
        group,
        title: `${group === 'news' ? 'News' : 'Tech'} post ${i}`,
        body: `Body of post ${i} in ${group}.`,
      });
    }
  }
  return {
    users,
    todos,
    posts,
    nextTodoId: next,
    clockTicks: 0,
    // Failures of /unstable still to come, by the page that asked (see pageOf).
    failNext: new Map(),
    unstableHits: 0,
  };
}

/**
 * The page a request of /unstable comes from: its Demo-Client header (demo/resources.ts sends one
 * chosen at random when the page loads), or '' for a request that names none (a tool, a test,
 * the server render). "Fail next 2" fails the next requests of the page that asked, not of
 * whoever comes next: another visitor, or the same tab reloaded, is another page.
 */
function pageOf(headers) {
  const value = headers['demo-client'];
  return typeof value === 'string' ? value.slice(0, 64) : '';
}

class HttpError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

const TODO_FIELDS = { title: 'string', completed: 'boolean', userId: 'number' };

function checkTodo(body, { partial }) {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new HttpError(400, 'The body must be a JSON object.');
  }
  for (const [field, value] of Object.entries(body)) {
    if (field === 'id') continue;
    const type = TODO_FIELDS[field];
    if (!type) throw new HttpError(400, `Unknown field "${field}".`);
    if (typeof value !== type) throw new HttpError(400, `Field "${field}" must be a ${type}.`);
  }
  if (!partial) {
    for (const field of ['title', 'userId']) {
      if (!(field in body)) throw new HttpError(400, `Field "${field}" is required.`);
    }
  }
  if ('title' in body && body.title.trim() === '')
    throw new HttpError(400, 'Field "title" must not be empty.');
}

/** Creates one API with its own state. `latency` (ms) delays every answer, to show pending states. */
export function createApi({ latency = 0 } = {}) {
  let state = seed();
  // Tests slow the API down for a while (POST /__latency) to see what a page shows meanwhile;
  // a reset restores the latency the API was made with.
  let delay = latency;
  // What changed through the API, for GET /api/events.
  const log = createEventLog();
  // The latest requests the API answered, test routes (/__…) left out: method, path with its
  // query, and the page that sent them. Tests read it (GET /__requests) to count what a page asked for.
  const requests = [];
  const upserted = (todo) => log.emit({ type: 'upsert', entity: 'Todo', data: todo });

  const find = (list, id, what) => {
    const item = list.find((entry) => entry.id === id);
    if (!item) throw new HttpError(404, `No ${what} with id "${id}".`);
    return item;
  };

  const routes = [
    [
      'POST',
      /^\/__reset$/,
      () => (
        (state = seed()),
        (delay = latency),
        (requests.length = 0),
        log.emit({ type: 'reset' }),
        { status: 204 }
      ),
    ],
    ['GET', /^\/__requests$/, () => ({ body: requests })],
    [
      'POST',
      /^\/__fill$/,
      ({ body }) => {
        // Many todos for one user at once (a long list for tests), until the next reset.
        const { userId, count } = body ?? {};
        if (!Number.isInteger(userId) || !Number.isInteger(count) || count < 1 || count > 5_000)
          throw new HttpError(400, 'Fields "userId" and "count" (1 to 5000) must be integers.');
        const added = Array.from({ length: count }, (_, i) => ({
          id: String(state.nextTodoId++),
          userId,
          title: `Todo ${i + 1}`,
          completed: false,
        }));
        state.todos = [...state.todos, ...added];
        return { body: { first: added[0].id, last: added.at(-1).id } };
      },
    ],
    [
      'GET',
      /^\/__events$/,
      () => ({
        body: { open: log.open, resumes: log.resumes, resumed: log.resumed, last: log.last },
      }),
    ],
    ['POST', /^\/__events\/drop$/, () => (log.drop(), { status: 204 })],
    [
      'POST',
      /^\/__latency$/,
      ({ body }) => {
        const ms = body?.ms;
        if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0 || ms > 10_000)
          throw new HttpError(400, 'Field "ms" must be a number from 0 to 10000.');
        delay = ms;
        return { body: { latency: delay } };
      },
    ],
    ['GET', /^\/users$/, () => ({ body: state.users })],
    ['GET', /^\/users\/([^/]+)$/, (_, [id]) => ({ body: find(state.users, id, 'user') })],
    [
      'GET',
      /^\/me$/,
      ({ headers }) => {
        const token = headers['access-token'];
        if (!token) throw new HttpError(401, 'Send an Access-Token header.');
        return { body: { id: 'me', token, name: `Token holder (${String(token).slice(0, 12)})` } };
      },
    ],
    [
      'GET',
      /^\/todos$/,
      ({ query }) => {
        let todos = state.todos;
        if (query.userId !== undefined)
          todos = todos.filter((todo) => String(todo.userId) === query.userId);
        if (query.completed !== undefined)
          todos = todos.filter((todo) => String(todo.completed) === query.completed);
        return { body: todos };
      },
    ],
    ['GET', /^\/todos\/([^/]+)$/, (_, [id]) => ({ body: find(state.todos, id, 'todo') })],
    [
      'POST',
      /^\/todos$/,
      ({ body }) => {
        checkTodo(body, { partial: false });
        const todo = { completed: false, ...body, id: String(state.nextTodoId++) };
        state.todos = [...state.todos, todo];
        upserted(todo);
        return { status: 201, body: todo };
      },
    ],
    [
      'PUT',
      /^\/todos\/([^/]+)$/,
      ({ body }, [id]) => {
        find(state.todos, id, 'todo');
        checkTodo(body, { partial: false });
        const todo = { completed: false, ...body, id };
        state.todos = state.todos.map((entry) => (entry.id === id ? todo : entry));
        upserted(todo);
        return { body: todo };
      },
    ],
    [
      'PATCH',
      /^\/todos\/([^/]+)$/,
      ({ body }, [id]) => {
        const existing = find(state.todos, id, 'todo');
        checkTodo(body, { partial: true });
        const todo = { ...existing, ...body, id };
        state.todos = state.todos.map((entry) => (entry.id === id ? todo : entry));
        upserted(todo);
        return { body: todo };
      },
    ],
    [
      'DELETE',
      /^\/todos\/([^/]+)$/,
      (_, [id]) => {
        find(state.todos, id, 'todo');
        state.todos = state.todos.filter((entry) => entry.id !== id);
        log.emit({ type: 'delete', entity: 'Todo', pk: id });
        return { status: 204 };
      },
    ],
    [
      'GET',
      /^\/([^/]+)\/posts$/,
      ({ query }, [group]) => {
        if (!GROUPS.includes(group)) throw new HttpError(404, `No group "${group}".`);
        const page = query.page === undefined ? 1 : Number(query.page);
        if (!Number.isInteger(page) || page < 1)
          throw new HttpError(400, 'Query "page" must be a whole number from 1.');
        // `q`: the posts whose title holds it, any case (a search box), paged the same way.
        const q = String(query.q ?? '').toLowerCase();
        const posts = state.posts.filter(
          (post) => post.group === group && post.title.toLowerCase().includes(q),
        );
        return { body: posts.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE) };
      },
    ],
    [
      'GET',
      /^\/([^/]+)\/posts\/([^/]+)$/,
      (_, [group, id]) => {
        const post = find(state.posts, id, 'post');
        if (post.group !== group) throw new HttpError(404, `No post "${id}" in group "${group}".`);
        return { body: post };
      },
    ],
    [
      'GET',
      /^\/clock$/,
      () => ({ body: { id: 'clock', now: new Date().toISOString(), ticks: ++state.clockTicks } }),
    ],
    [
      'POST',
      /^\/unstable\/fail$/,
      ({ body, headers }) => {
        const times = body && typeof body.times === 'number' ? body.times : 1;
        const page = pageOf(headers);
        // Set anew, as the newest: the oldest page's failures leave first.
        state.failNext.delete(page);
        if (times > 0) state.failNext.set(page, times);
        if (state.failNext.size > FAILING_PAGES) {
          state.failNext.delete(state.failNext.keys().next().value);
        }
        return { body: { failNext: times } };
      },
    ],
    [
      'GET',
      /^\/unstable\/stats$/,
      ({ headers }) => ({
        body: { hits: state.unstableHits, failNext: state.failNext.get(pageOf(headers)) ?? 0 },
      }),
    ],
    [
      'GET',
      /^\/unstable$/,
      ({ headers }) => {
        state.unstableHits += 1;
        const page = pageOf(headers);
        const left = state.failNext.get(page) ?? 0;
        if (left > 0) {
          if (left > 1) state.failNext.set(page, left - 1);
          else state.failNext.delete(page);
          throw new HttpError(503, 'The unstable endpoint failed on purpose. Retry to succeed.');
        }
        return {
          body: { id: 'unstable', hits: state.unstableHits, message: 'It worked this time.' },
        };
      },
    ],
  ];

  /** Answers one request. `path` is below the API's mount point, e.g. "/todos/1". */
  function handle({ method, path, query = {}, headers = {}, rawBody }) {
    let body;
    if (rawBody !== undefined && rawBody !== '') {
      try {
        body = JSON.parse(rawBody);
      } catch {
        return { status: 400, body: { error: 'The body is not valid JSON.' } };
      }
    }
    const decoded = path.split('/').map((part) => {
      try {
        return decodeURIComponent(part);
      } catch {
        return part;
      }
    });
    const clean = decoded.join('/');
    if (!clean.startsWith('/__')) {
      // Which page asked (its path, from Referer): tests count the requests of one page.
      let from = '';
      try {
        from = headers.referer ? new URL(headers.referer).pathname : '';
      } catch {
        // not a URL: counted without a page
      }
      const search = new URLSearchParams(query).toString();
      requests.push({ method, path: `${clean}${search ? `?${search}` : ''}`, from });
      if (requests.length > REQUEST_LOG) requests.shift();
    }
    let pathMatched = false;
    for (const [routeMethod, pattern, run] of routes) {
      const match = pattern.exec(clean);
      if (!match) continue;
      pathMatched = true;
      if (routeMethod !== method) continue;
      try {
        const result = run({ query, headers, body }, match.slice(1));
        return { status: result.status ?? 200, body: result.body };
      } catch (error) {
        if (error instanceof HttpError)
          return { status: error.status, body: { error: error.message } };
        throw error;
      }
    }
    return pathMatched
      ? { status: 405, body: { error: `${method} is not allowed on ${clean}.` } }
      : { status: 404, body: { error: `No route for ${method} ${clean}.` } };
  }

  return {
    handle,
    /** The current delay (ms) before each answer. */
    get latency() {
      return delay;
    },
    reset: () => ((state = seed()), (delay = latency), (requests.length = 0)),
    state: () => state,
    /** The change log behind GET /api/events. */
    events: log,
  };
}

function readBody(request) {
  return new Promise((resolve, reject) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk) => (text += chunk));
    request.on('end', () => resolve(text));
    request.on('error', reject);
  });
}

/** Koa-style middleware serving `api` under `prefix` (default /api). */
export function apiMiddleware(api = createApi(), prefix = '/api') {
  return async function restApi(context, next) {
    if (context.path !== prefix && !context.path.startsWith(`${prefix}/`)) return next();
    if (context.method === 'GET' && context.path === `${prefix}/events`) {
      // A stream, not a JSON answer: written straight to the socket, Koa stays out of it.
      context.respond = false;
      const lastEventId = context.get('last-event-id') || context.query.lastEventId;
      openEventStream(api.events, context.req, context.res, lastEventId || undefined);
      return;
    }
    const rawBody = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(context.method)
      ? await readBody(context.req)
      : undefined;
    if (api.latency > 0) await new Promise((resolve) => setTimeout(resolve, api.latency));
    const query = Object.fromEntries(new URLSearchParams(context.querystring));
    const { status, body } = api.handle({
      method: context.method,
      path: context.path.slice(prefix.length) || '/',
      query,
      headers: context.headers,
      rawBody,
    });
    context.status = status;
    if (body !== undefined) {
      context.type = 'application/json';
      context.body = JSON.stringify(body);
    }
  };
}
