import { ContextConsumer } from '@lit/context';
import { ref } from 'lit/directives/ref.js';
import type { DirectiveResult } from 'lit/directive.js';
import { isEndpoint } from '../core/index.js';
import type { ControllerLike, EndpointLike, Resolved } from '../core/index.js';
import { controllerContext } from './controller-context.js';
import { ResourceController } from './resource-controller.js';
import type { EndpointHook, ReadParams, ResourceHost } from './resource-controller.js';

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
}

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
  #controller: ControllerLike | undefined;
  /** The args (as JSON) the pages below belong to; new args start over. */
  #list: string | undefined;
  #pages = 0;
  #next: unknown;
  /** The list's expiry after our last page: another value means someone refetched the list. */
  #expiresAt = 0;
  #loading: Promise<void> | undefined;
  #error: unknown;
  /** The getPage wrapper that keeps the raw page, per list endpoint. */
  #pageOf = new WeakMap<object, EndpointLike>();
  #raw: unknown;
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
    super(host, endpointOrHook as E, args);
    this.#host = host;
    this.#source = endpointOrHook;
    this.#params = args;
    this.#options = options;
    new ContextConsumer(host, {
      context: controllerContext,
      subscribe: true,
      callback: (controller) => (this.#controller = controller),
    });
  }

  /** True when `nextPage` named a page after the last one loaded. */
  get hasMore(): boolean {
    return this.#pages > 0 && this.#next !== undefined && this.#next !== null;
  }

  /** True while a next page is in flight. */
  get loadingMore(): boolean {
    return this.#loading !== undefined;
  }

  /** Why the last `loadMore()` failed, until the next one starts. */
  get loadMoreError(): unknown {
    return this.#error;
  }

  /**
   * Fetches the next page and merges it into the list. While one is in flight, returns its
   * promise (no second request). Does nothing without a next page. Never rejects: a failure shows
   * in `loadMoreError`, and the pages already loaded stay.
   * @example html`<button ?disabled=${!posts.hasMore} @click=${() => posts.loadMore()}>More</button>`
   */
  loadMore(): Promise<void> {
    if (this.#loading) return this.#loading;
    const controller = this.#controller;
    const params = this.#params();
    if (!controller || !this.hasMore || this.status !== 'complete' || params === null) {
      return Promise.resolve();
    }
    const list = this.#list;
    this.#error = undefined;
    this.#raw = undefined;
    const done = (): boolean => {
      this.#loading = undefined;
      this.#host.requestUpdate();
      return list === this.#list;
    };
    let endpoint!: E;
    let request: Promise<unknown>;
    try {
      // A hook that throws, or a list whose schema has no Collection to page: loadMoreError.
      endpoint = this.#endpoint();
      const pageArgs = { ...(params as object), [endpoint.paginationField!]: this.#next };
      request = controller.fetch(this.#page(endpoint), pageArgs as never);
    } catch (error) {
      request = Promise.reject(error);
    }
    const loading = request.then(
      (value) => {
        if (!done()) return;
        this.#pages++;
        this.#setNext((this.#raw ?? value) as Resolved<E>);
        this.#expiresAt = controller.getResponse(endpoint, ...this.#args(params)).expiresAt;
        this.#checkSentinel();
      },
      (error: unknown) => {
        if (done()) this.#error = error;
      },
    );
    this.#loading = loading;
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

  override hostUpdate(): void {
    super.hostUpdate();
    const params = this.#params();
    const list = params === null ? undefined : JSON.stringify(params ?? {});
    if (list !== this.#list) {
      // Other args: another list, from its first page.
      this.#list = list;
      this.#pages = 0;
      this.#error = undefined;
      this.#loading = undefined;
    }
    if (this.status !== 'complete' || this.#loading || params === null) return;
    const expiresAt = this.#controller?.getResponse(
      this.#endpoint(),
      ...this.#args(params),
    ).expiresAt;
    if (this.#pages === 0 || expiresAt !== this.#expiresAt) {
      // The first page arrived, or the list was fetched again without its pages: start over.
      this.#pages = 1;
      this.#expiresAt = expiresAt ?? 0;
      this.#setNext(this.value as Resolved<E>);
      this.#checkSentinel();
    }
  }

  override hostDisconnected(): void {
    super.hostDisconnected();
    this.#observer?.disconnect();
    this.#observer = undefined;
  }

  /** Asks `nextPage`; one that throws ends the list, its error in `loadMoreError`. */
  #setNext(lastPage: Resolved<E>): void {
    try {
      this.#next = this.#options.nextPage(lastPage, this.#pages);
    } catch (error) {
      this.#next = undefined;
      this.#error = error;
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
          `${endpoint.name} has no getPage: InfiniteController needs a list endpoint with paginationField.`,
        );
      }
      page = Object.setPrototypeOf(
        (...args: unknown[]) => original(...args),
        original,
      ) as EndpointLike;
      Object.defineProperties(page, {
        name: { value: original.name },
        run: {
          value: async (args: never, context: unknown) =>
            (this.#raw = await original.run(args, context as never)),
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
