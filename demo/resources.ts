// The demo's data layer: every entity and endpoint the elements read, against the built-in API
// that `npm start` serves under /api (server/api.mjs).
import { isServer } from 'lit';
import {
  Entity,
  RestEndpoint,
  createResource,
  hookifyResource,
  type RestGenerics,
} from '../src/core/index.js';
import { followFilters } from '../src/follow/index.js';

/** The API's page size for posts; the feed knows there is more while the list is a whole page. */
export const POSTS_PER_PAGE = 5;

export class User extends Entity {
  id = '';
  name = '';
  username = '';
  pk() {
    return this.id;
  }
  static key = 'User';
}

/** Whoever holds the Access-Token: GET /api/me answers 401 without one. */
export class Account extends Entity {
  id = '';
  name = '';
  /** The token the server saw, so the page can tell an answer for an older token. */
  token = '';
  pk() {
    return this.id;
  }
  static key = 'Account';
}

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

export class Post extends Entity {
  id = '';
  group = '';
  title = '';
  body = '';
  pk() {
    return this.id;
  }
  static key = 'Post';
}

export class ClockTick extends Entity {
  id = '';
  now = '';
  ticks = 0;
  pk() {
    return this.id;
  }
  static key = 'ClockTick';
}

export class UnstableResult extends Entity {
  id = '';
  hits = 0;
  message = '';
  pk() {
    return this.id;
  }
  static key = 'UnstableResult';
}

/**
 * Every request of a resource built with this class sends cookies to our own origin only. The
 * demo's API sets none; the point is where such a policy lives: one override, every member.
 */
export class SameOriginEndpoint<O extends RestGenerics = RestGenerics> extends RestEndpoint<O> {
  override async getRequestInit(body: unknown): Promise<RequestInit> {
    return { ...(await super.getRequestInit(body)), credentials: 'same-origin' };
  }
}

/**
 * Users, built with the custom Endpoint class; `extend` adds `me` (GET /api/me), which starts
 * from `get` and so is a SameOriginEndpoint too.
 */
export const UserResource = createResource({
  path: '/api/users/:id',
  schema: User,
  Endpoint: SameOriginEndpoint,
}).extend('me', { path: '/api/me', schema: Account, name: 'User.me' });

/**
 * Todos: `getList` takes `userId` and `completed` filters, so each filter set is its own list and
 * a created todo joins the lists it matches. `extend` makes partialUpdate and move optimistic
 * (the toggle moves a todo between Open and Done with one PATCH), and keeps
 * a failed `get` (the 404 of a deleted todo) for a minute: by default an error expires after a
 * second, and the detail view would ask again whenever anything else on the page re-renders it.
 * The lists follow their filters (`followFilters`): a todo completed in another tab, or by
 * another client and pushed by the server (/api/events), moves between Open and Done too, with
 * no request.
 */
export const TodoResource = followFilters(
  createResource({
    path: '/api/todos/:id',
    schema: Todo,
    searchParams: {} as { userId?: number; completed?: boolean },
    body: {} as { title: string; userId: number; completed?: boolean },
  }).extend({
    get: { errorExpiryLength: 60_000 },
    partialUpdate: { optimistic: true },
    move: { optimistic: true },
  }),
);

/**
 * The form's creates, optimistic: a new todo shows at once under a placeholder id until the server
 * answers (or, offline, while it waits in the offline queue).
 */
export const TodoCreate = {
  push: TodoResource.getList.push.extend({ optimistic: true }),
  unshift: TodoResource.getList.unshift.extend({ optimistic: true }),
};

/** Posts per group, five to a page: `getList.getPage` appends the next page to the list. */
export const PostResource = createResource({
  path: '/api/:group/posts/:id',
  schema: Post,
  paginationField: 'page',
});

/**
 * One page of a group's posts, read on its own: GET /api/:group/posts?page=N (and `q`, a search in
 * the titles). Each page is its own read in the store (the previous/next list shows one at a time,
 * and one already read shows at once), holding the same Post entities as the infinite list.
 */
export const postPage = new RestEndpoint({
  path: '/api/:group/posts',
  searchParams: {} as { page: number; q?: string },
  schema: [Post],
});

/** Polled once a second while something shows it. */
export const clockEndpoint = new RestEndpoint({
  path: '/api/clock',
  schema: ClockTick,
  pollFrequency: 1000,
});

/**
 * This page's name for the demo API, chosen at random when the page loads: the unstable
 * endpoint's requests send it as their Demo-Client header, so the failures this page asks for
 * ("Fail next 2") fail this page's requests only, and end with the page (a reload, or another
 * visitor, is another page). A server render names none, as a tool calling the API.
 */
export const demoClient = isServer
  ? ''
  : Array.from(crypto.getRandomValues(new Uint8Array(8)), (byte) =>
      byte.toString(16).padStart(2, '0'),
    ).join('');
const demoClientInit: RequestInit = demoClient ? { headers: { 'Demo-Client': demoClient } } : {};

/**
 * Fails (503) as often as the API was told to. The panel shows the failure and a Retry button, so
 * this read is not retried by itself (`retry: 0`; other reads try three times), and its error is
 * kept until the user retries, instead of the default second after which a reader fetches again.
 */
export const unstableEndpoint = new RestEndpoint({
  path: '/api/unstable',
  schema: UnstableResult,
  errorExpiryLength: 10 * 60_000,
  retry: 0,
  requestInit: demoClientInit,
});

/** Tells the API to fail the next `times` requests to /api/unstable of this page. */
export const failNextEndpoint = new RestEndpoint({
  path: '/api/unstable/fail',
  method: 'POST',
  body: {} as { times: number },
  requestInit: demoClientInit,
});

/** The token typed into the page; the hooks below read it on every use. */
export const session = { token: '' };

/** `useMe()` returns UserResource.me carrying the current Access-Token header. */
export const AuthedUserHooks = hookifyResource(UserResource, () =>
  session.token ? { headers: { 'Access-Token': session.token } } : undefined,
);
