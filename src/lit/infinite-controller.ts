import { ref } from 'lit/directives/ref.js';
import type { DirectiveResult } from 'lit/directive.js';
import { isEndpoint } from '../core/index.js';
import type {
  ActionEvent,
  ControllerLike,
  EndpointLike,
  ReadView,
  RequestEvent,
  Resolved,
} from '../core/index.js';
import { ResourceController } from './resource-controller.js';
import type { EndpointHook, ReadParams, ResourceHost } from './resource-controller.js';

function DEV(): boolean {
  return (typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production';
}

/** A list endpoint with pages: `paginationField` set, so it has `getPage`. */
export type PagedEndpoint = EndpointLike & { readonly getPage: EndpointLike };

/** Options of an `InfiniteController`. */
export interface InfiniteOptions<E extends PagedEndpoint> {
  /**
   * The pagination value (page number, cursor, link) of the page after `lastPage`, or
   * `undefined`/`null` when there is none. `lastPage` is the first page as read, then each later
   * page as the server sent it (after the endpoint's `process`); `pages` is how many are loaded.
   * @example (lastPage, pages) => (lastPage.length === 20 ? pages + 1 : undefined)
   * @example (lastPage) => lastPage.nextCursor
   */
  nextPage(lastPage: Resolved<E>, pages: number): unknown;
  /** How far below the viewport (CSS margin) the sentinel starts the next page. Default `200px`. */
  sentinelMargin?: string;
  /**
   * What it shows of the list (`ReadOptions.view`): `keepPrevious` keeps the last list on screen
   * while the first page of new args loads.
   */
  view?: ReadView<Resolved<E>> | undefined;
}

/**
 * What is known of one list's pages. It belongs to the list (per Controller, by the list's request
 * key), not to one element: every InfiniteController showing that list shares it, so one loading a
 * page does not make another think the list was fetched again, and a page of a list an element
 * has just left still counts for that list.
 */
interface Paging {
  pages: number;
  /** What `nextPage` said after the last page. */
  next: unknown;
  /** The pagination values asked for since the first page: one said again ends the list. */
  asked: unknown[];
  /** Pages in a row that added nothing to the list (see `STALLS`). */
  stalls: number;
  /** The list's expiry after its last page: another value means someone refetched the list. */
  expiresAt: number;
  loading?: Promise<void>;
  error?: unknown;
  /** The hosts showing the list: told when a page ends. */
  readonly hosts: Set<ResourceHost>;
  /** Forgets this paging unless a host shows its list, a page loads or the store holds it. */
  readonly prune: () => void;
}

const pagings = new WeakMap<ControllerLike, Map<string, Paging>>();

/**
 * Pages in a row that add nothing after which the sentinel stops loading by itself: the list did
 * not grow, so the sentinel is still in view and would load again at once, for ever with a server
 * that ignores the pagination parameter. A few are let through, for APIs that page over a filter
 * and answer empty pages with a cursor. `loadMore()`, or the sentinel coming into view again,
 * goes on.
 */
const STALLS = 3;

/**
 * The pagings of `controller`'s lists, made on first use. A paging is kept while a host shows its
 * list or the store holds it: when the store drops lists (garbage collection, a reset), or the
 * last host leaves a list the store dropped, the pagings nobody shows go, so a search box that pages each query keeps one per list
 * stored, not one per query ever typed.
 */
function pagingsOf(controller: ControllerLike): Map<string, Paging> {
  const lists = pagings.get(controller);
  if (lists) return lists;
  const kept = new Map<string, Paging>();
  pagings.set(controller, kept);
  controller.events?.subscribe((event) => {
    const type = (event as ActionEvent).action?.type;
    if (type !== 'gc' && type !== 'reset') return;
    for (const paging of kept.values()) paging.prune();
  });
  return kept;
}

/**
 * For tests: how many lists' pagings `controller` keeps.
 * @example keptPagings(controller) // 1
 */
export function keptPagings(controller: ControllerLike): number {
  return pagings.get(controller)?.size ?? 0;
}
/** Each page as the server sent it (for `nextPage`), by the args object of its request. */
const rawPages = new WeakMap<object, unknown>();

/**
 * A `ResourceController` for a paginated list that grows page by page: `value` is the whole list
 * (one list in the store, each page merged into it with no entity twice), `loadMore()` fetches the
 * next page through the endpoint's `getPage`, `hasMore` comes from your `nextPage` function, and
 * `loadingMore` / `loadMoreError` describe the page in flight. A failed page keeps the earlier
 * pages shown. `sentinel()` marks an element that loads the next page when it scrolls into view.
 * New args start over from their first page.
 *
 * @example
 * ```ts
 * #posts = new InfiniteController(this, PostResource.getList, () => ({ group: 'news' }), {
 *   nextPage: (lastPage, pages) => (lastPage.length === 5 ? pages + 1 : undefined),
 * });
 * render() {
 *   return html`${this.#posts.render({ complete: (posts) => posts.map((p) => html`<p>${p.title}</p>`) })}
 *     <div ${this.#posts.sentinel()}></div>`;
 * }
 * ```
 */
export class InfiniteController<E extends PagedEndpoint> extends ResourceController<E> {
  readonly #host: ResourceHost;
  readonly #source: E | EndpointHook<E>;
  readonly #params: () => ReadParams<E> | null;
  readonly #options: InfiniteOptions<E>;
  /** The paging of the list the host showed at its last update. */
  #joined: Paging | undefined;
  /** The getPage wrapper that keeps the raw page, per list endpoint. */
  #pageOf = new WeakMap<object, EndpointLike>();
  #observer: IntersectionObserver | undefined;
  #sentinel: Element | undefined;
  #visible = false;

  constructor(
    host: ResourceHost,
    endpoint: E,
    args: () => ReadParams<E> | null,
    options: InfiniteOptions<E>,
  );
  constructor(
    host: ResourceHost,
    hook: EndpointHook<E>,
    args: () => ReadParams<E> | null,
    options: InfiniteOptions<E>,
  );
  constructor(
    host: ResourceHost,
    endpointOrHook: E | EndpointHook<E>,
    args: () => ReadParams<E> | null,
    options: InfiniteOptions<E>,
  ) {
    super(host, endpointOrHook as E, args, options);
    this.#host = host;
    this.#source = endpointOrHook;
    this.#params = args;
    this.#options = options;
  }

  /** True when `nextPage` named a page after the last one loaded. */
  get hasMore(): boolean {
    const paging = this.#paging();
    return !!paging && paging.pages > 0 && paging.next !== undefined && paging.next !== null;
  }

  /** True while a next page is in flight. */
  get loadingMore(): boolean {
    return this.#paging()?.loading !== undefined;
  }

  /** Why the last `loadMore()` failed, until the next one starts. */
  get loadMoreError(): unknown {
    return this.#paging()?.error;
  }

  /**
   * Fetches the next page and merges it into the list. While one is in flight, returns its
   * promise (no second request). Does nothing without a next page. Never rejects: a failure shows
   * in `loadMoreError`, and the pages already loaded stay.
   * @example html`<button ?disabled=${!posts.hasMore} @click=${() => posts.loadMore()}>More</button>`
   */
  loadMore(): Promise<void> {
    const paging = this.#paging();
    const controller = this.linkedController;
    if (paging?.loading) return paging.loading;
    if (!paging || !controller || !this.hasMore || this.status !== 'complete') {
      return Promise.resolve();
    }
    paging.error = undefined;
    let endpoint!: E;
    let params: ReadParams<E> | null = null;
    let pageArgs: object = {};
    let before: unknown;
    let request: Promise<unknown>;
    try {
      // A hook or args that throw, or a list whose schema has no Collection to page: loadMoreError.
      params = this.#params();
      endpoint = this.#endpoint();
      pageArgs = { ...(params as object), [endpoint.paginationField!]: paging.next };
      paging.asked.push(paging.next);
      before = controller.getResponse(endpoint, ...this.#args(params)).data;
      request = controller.fetch(this.#page(endpoint), pageArgs as never);
    } catch (error) {
      request = Promise.reject(error);
    }
    // The list fetched again while this page was in flight, and answered first: the store drops
    // the page (older than the list), so it must not count either.
    let dropped = false;
    const stop = controller.events?.subscribe((event) => {
      const settled = event as RequestEvent;
      if (settled.outdated && settled.args?.[0] === pageArgs) dropped = true;
    });
    const loading = (paging.loading = request.then(
      (value) => {
        stop?.();
        paging.loading = undefined;
        // Zero pages: the next host update starts the count over from the list as it is now.
        if (dropped) return void (paging.pages = 0);
        paging.pages++;
        this.#setNext(paging, (rawPages.get(pageArgs) ?? value) as Resolved<E>);
        const list = controller.getResponse(endpoint, ...this.#args(params));
        paging.expiresAt = list.expiresAt;
        // A page that added nothing leaves the list as it was, the same object.
        paging.stalls = list.data === before ? paging.stalls + 1 : 0;
        if (paging.stalls < STALLS) this.#checkSentinel();
      },
      (error: unknown) => {
        stop?.();
        paging.error = error;
        paging.loading = undefined;
      },
    ));
    // The hosts showing this list (this one may have moved on to other args) re-render; with none
    // left, a list the store dropped meanwhile takes its paging with it.
    void loading.then(() => {
      paging.hosts.forEach((host) => host.requestUpdate());
      paging.prune();
    });
    this.#host.requestUpdate();
    return loading;
  }

  /**
   * A directive for the element that loads the next page when it comes within `sentinelMargin`
   * of the viewport (IntersectionObserver; nothing where there is none).
   * @example html`<div ${this.#posts.sentinel()}></div>`
   */
  sentinel(): DirectiveResult {
    return ref(this.#watch);
  }

  /** Also the list's freshness: fetched again with the same first page, its pages start over. */
  protected override shown(): readonly unknown[] {
    const paging = this.#paging();
    const fresh =
      paging && this.status === 'complete'
        ? this.linkedController?.getResponse(this.#endpoint(), ...this.#args(this.#params()))
            .expiresAt
        : undefined;
    return [...super.shown(), fresh];
  }

  override hostUpdate(): void {
    super.hostUpdate();
    const paging = this.#paging();
    if (paging !== this.#joined) {
      // Other args: another list, with its own pages.
      this.#leave();
      paging?.hosts.add(this.#host);
      this.#joined = paging;
    }
    // While a page is in flight, the list grows by it: that is no refetch.
    if (!paging || this.status !== 'complete' || paging.loading) return;
    const expiresAt = this.linkedController!.getResponse(
      this.#endpoint(),
      ...this.#args(this.#params()),
    ).expiresAt;
    if (paging.pages === 0 || expiresAt !== paging.expiresAt) {
      // The first page arrived, or the list was fetched again without its pages: start over.
      paging.pages = 1;
      paging.asked = [];
      paging.stalls = 0;
      paging.expiresAt = expiresAt;
      paging.error = undefined;
      this.#setNext(paging, this.value as Resolved<E>);
      this.#checkSentinel();
    }
  }

  override hostDisconnected(): void {
    super.hostDisconnected();
    this.#leave();
    this.#joined = undefined;
    this.#observer?.disconnect();
    this.#observer = undefined;
  }

  /**
   * The paging of the list read now (made on first use), or undefined when nothing is read: no
   * provider yet, null args, args the endpoint refuses, or args or a hook that throw.
   */
  #paging(): Paging | undefined {
    const controller = this.linkedController;
    let key: string;
    let endpoint: E;
    let args: Parameters<E>;
    try {
      const params = this.#params();
      if (!controller || params === null) return undefined;
      endpoint = this.#endpoint();
      args = this.#args(params);
      key = endpoint.key(...args);
    } catch {
      return undefined;
    }
    const lists = pagingsOf(controller);
    let paging = lists.get(key);
    if (!paging) {
      // Stored while the store has its expiry (a list read that throws is kept: it is there).
      const stored = () => {
        try {
          return controller.getResponse(endpoint, ...args).expiresAt !== 0;
        } catch {
          return true;
        }
      };
      const made: Paging = {
        pages: 0,
        next: undefined,
        asked: [],
        stalls: 0,
        expiresAt: 0,
        hosts: new Set(),
        prune: () => {
          if (!made.hosts.size && !made.loading && !stored()) lists.delete(key);
        },
      };
      lists.set(key, (paging = made));
    }
    return paging;
  }

  /** This host no longer shows the list it showed: its paging may go (see `pagingsOf`). */
  #leave(): void {
    this.#joined?.hosts.delete(this.#host);
    this.#joined?.prune();
  }

  /**
   * Asks `nextPage`; one that throws ends the list, its error in `loadMoreError`. So does a value
   * already asked for since the first page: a server that answers with the cursor it was given
   * would otherwise be asked for that page forever while the sentinel is in view.
   */
  #setNext(paging: Paging, lastPage: Resolved<E>): void {
    try {
      const next = this.#options.nextPage(lastPage, paging.pages);
      if (paging.asked.includes(next)) {
        throw new Error(
          `InfiniteController: nextPage gave ${String(next)} after page ${paging.pages}, a page already loaded${DEV() ? '; the list ends here instead of loading it again and again' : ''}.`,
        );
      }
      paging.next = next;
    } catch (error) {
      paging.next = undefined;
      paging.error = error;
    }
  }

  #endpoint(): E {
    return isEndpoint(this.#source) ? this.#source : (this.#source as EndpointHook<E>)();
  }

  #args(params: ReadParams<E> | null): Parameters<E> {
    return (params === undefined ? [] : [params]) as Parameters<E>;
  }

  /** `getPage` of `endpoint`, made to keep each page's own answer for `nextPage`. */
  #page(endpoint: E): EndpointLike {
    let page = this.#pageOf.get(endpoint);
    if (!page) {
      const original = endpoint.getPage;
      if (!original) {
        throw new TypeError(
          `${endpoint.name} has no getPage${DEV() ? ': InfiniteController needs a list endpoint with paginationField' : ''}.`,
        );
      }
      page = Object.setPrototypeOf(
        (...args: unknown[]) => original(...args),
        original,
      ) as EndpointLike;
      Object.defineProperties(page, {
        name: { value: original.name },
        run: {
          value: async (args: readonly object[], context: unknown) => {
            const raw = await original.run(args as never, context as never);
            rawPages.set(args[0]!, raw);
            return raw;
          },
        },
      });
      this.#pageOf.set(endpoint, page);
    }
    return page;
  }

  readonly #watch = (element: Element | undefined): void => {
    if (element === this.#sentinel) return;
    this.#observer?.disconnect();
    this.#sentinel = element;
    this.#visible = false;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    this.#observer = new IntersectionObserver(
      ([entry]) => {
        this.#visible = entry!.isIntersecting;
        if (!this.#visible) return;
        // Measured before the host's last render moved the sentinel: measure again.
        if (entry!.boundingClientRect.top !== element.getBoundingClientRect().top) {
          this.#reobserve(element);
        } else void this.loadMore();
      },
      { rootMargin: this.#options.sentinelMargin ?? '200px' },
    );
    this.#observer.observe(element);
  };

  /**
   * After a page, the sentinel may still be in view (a short page): observing it again reports
   * where it is now, once the host has rendered the new items.
   */
  #checkSentinel(): void {
    const element = this.#sentinel;
    if (!element || !this.#visible) return;
    void this.#host.updateComplete.then(() => this.#reobserve(element));
  }

  /** Observing again reports where the sentinel is now. */
  #reobserve(element: Element): void {
    if (this.#sentinel !== element || !this.#observer) return;
    this.#observer.unobserve(element);
    this.#observer.observe(element);
  }
}
