import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { ReadStatus, ResponseObserver } from '../core/index.js';
import type {
  ControllerLike,
  EndpointLike,
  ObservedRead,
  ReadOptions,
  Resolved,
} from '../core/index.js';
import { PendingTasks } from './pending-task.js';
import { missingProvider } from './provider-request.js';
import { endpointOf, onServer, ProviderLink } from './provider-link.js';

function DEV(): boolean {
  return (typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production';
}

/** How long after connecting a host must have updated once before development builds warn. */
const UPDATE_WARNING_MS = 1000;

/** What a `ResourceController` shows: one of these three states. */
export const ResourceStatus = ReadStatus;
/** One of the values of `ResourceStatus`. */
export type ResourceStatus = ReadStatus;

/** A function called on each host update that returns the endpoint to read (see `hookifyResource`). */
export type EndpointHook<E extends EndpointLike> = () => E;

/** The URL parameters of a read: the first argument of the endpoint. */
export type ReadParams<E extends EndpointLike> = Parameters<E>[0];

/** The templates (or any values) `ResourceController.render` chooses between, by status. */
export interface ResourceRenderers<T, P = unknown, C = unknown, X = unknown> {
  /** While there is nothing to show yet. */
  pending?: () => P;
  /** With the data (stale data too, while it is fetched again). */
  complete?: (value: T) => C;
  /** When the read failed with nothing to show. */
  error?: (error: unknown) => X;
}

/** The element a `ResourceController` serves: a Lit element or any host that dispatches events. */
export type ResourceHost = ReactiveControllerHost & HTMLElement;

/**
 * Binds one endpoint and its arguments to a Lit host: reads them from the Controller that the
 * nearest `<resource-provider>` provides, fetches them when missing, stale or invalid, and
 * re-renders the host when, and only when, its own result changes.
 *
 * `args` is re-read on each host update; returning `null` reads nothing. `endpointOrHook` is an
 * endpoint, or a hook (a function without `key`) that returns one and is called on each update.
 *
 * @example
 * ```ts
 * class TodoView extends LitElement {
 *   @property() todoId = '1';
 *   #todo = new ResourceController(this, TodoResource.get, () => ({ id: this.todoId }));
 *   render() {
 *     return this.#todo.render({
 *       pending: () => html`Loading…`,
 *       complete: (todo) => html`${todo.title}`,
 *       error: (e) => html`Failed: ${(e as Error).message}`,
 *     });
 *   }
 * }
 * ```
 */
export class ResourceController<
  E extends EndpointLike,
  T = Resolved<E>,
> implements ReactiveController {
  readonly #host: ResourceHost;
  readonly #source: E | EndpointHook<E>;
  readonly #args: (() => ReadParams<E> | null) | undefined;
  readonly #options: ReadOptions<Resolved<E>, T> | undefined;
  /** The reader, for the Controller the nearest provider gave; none before one answered. */
  #observer: ResponseObserver<E, T> | undefined;
  /** The host read `refreshing`: a change of it renders the host again too. */
  #tracks: boolean | undefined;
  #unsubscribe: (() => void) | undefined;
  /**
   * Shown instead of the reader's result: what the args function or the hook threw at the last
   * read, or that no provider answered by the end of the task the host connected in.
   */
  #failure: ObservedRead<never> | undefined;
  #check: ReturnType<typeof setTimeout> | undefined;
  /** The last read's args were null: nothing is read, so nothing is awaited. */
  #idle: boolean | undefined;
  #connected: boolean | undefined;
  /** Whether the host's last `render()` call gave an `error` renderer: it shows its own errors. */
  #rendersErrors: boolean | undefined;
  /** The host has rendered since it was created: `#rendersErrors` is known. */
  #rendered: boolean | undefined;
  /** The pending-task protocol: the waits announced to boundaries above the host. */
  readonly #tasks: PendingTasks;
  /** `status`, `value` and `error` as the host's last update read them. */
  #shown: readonly unknown[] = [];
  readonly #link: ProviderLink;

  constructor(
    host: ResourceHost,
    endpoint: E,
    args?: () => ReadParams<E> | null,
    options?: ReadOptions<Resolved<E>, T>,
  );
  constructor(
    host: ResourceHost,
    hook: EndpointHook<E>,
    args?: () => ReadParams<E> | null,
    options?: ReadOptions<Resolved<E>, T>,
  );
  constructor(
    host: ResourceHost,
    endpointOrHook: E | EndpointHook<E>,
    args?: () => ReadParams<E> | null,
    options?: ReadOptions<Resolved<E>, T>,
  ) {
    this.#host = host;
    this.#source = endpointOrHook;
    this.#args = args;
    this.#options = options;
    // A boundary's retry: fetch again (joining the retry of another element showing the same
    // read), and fail again if there is still nothing to show.
    this.#tasks = new PendingTasks(host, async () => {
      await this.refetch();
      if (this.status === ResourceStatus.Error) throw this.error;
    });
    host.addController(this);
    // Last: on a connected host a provider may answer at once.
    this.#link = new ProviderLink(host, this.#onController);
  }

  /** The Controller of the nearest provider: undefined until one answered (for subclasses). */
  protected get linkedController(): ControllerLike | undefined {
    return this.#link.last;
  }

  /** The data to show (what the `view` option made of it): present while `status` is `'complete'`. */
  get value(): T | undefined {
    return this.#current()?.data;
  }

  /**
   * True while `value` is kept from an earlier read (the `keepPrevious` view: the last data,
   * while the read of the current args has nothing to show yet): a page dims it.
   */
  get previous(): boolean {
    return !!this.#current()?.previous;
  }

  /** True while a value is shown and a request of this read is in flight (refetch, poll…). */
  get refreshing(): boolean {
    this.#tracks = true;
    return !!this.#current()?.refreshing;
  }

  /** Why the read failed (also set when stale data is shown but refreshing it failed). */
  get error(): unknown {
    return this.#current()?.error;
  }

  /** Pending until there is data to show; error when there is none and the read failed. */
  get status(): ResourceStatus {
    return this.#current()?.status ?? ResourceStatus.Pending;
  }

  /**
   * What `value`, `error` and `status` show: the reader's result, or what is shown instead. A
   * method, not a getter, because on the server it acts: a server render (@lit-labs/ssr) calls
   * no `hostConnected` and no `hostUpdate`, only the host's constructor, `willUpdate` and `render`,
   * so each call there is where the read happens. It asks the nearest provider for its Controller
   * until one answers (the request travels the server's element tree) and reads the store
   * synchronously; nothing is fetched or subscribed there. In a browser it only reads.
   */
  #current() {
    if (onServer(this.#host)) {
      if (!this.#link.bound) this.#link.consumer.hostConnected();
      // Its own update, not hostUpdate: a subclass's hostUpdate (InfiniteController's) reads
      // `status`, which would come back here.
      this.#update();
    }
    return this.#failure ?? this.#observer?.result;
  }

  /**
   * Calls the renderer for the current status; a missing renderer renders nothing.
   *
   * @example
   * ```ts
   * this.#todos.render({ complete: (todos) => todos.map((t) => html`<li>${t.title}</li>`) });
   * ```
   */
  render<P = undefined, C = undefined, X = undefined>(
    renderers: ResourceRenderers<T, P, C, X>,
  ): P | C | X | undefined {
    this.#rendersErrors = renderers.error !== undefined;
    const status = this.status;
    // The renderers are named as the statuses are; `pending` is given nothing to show.
    return (renderers[status] as ((value?: unknown) => P | C | X) | undefined)?.(
      status === ResourceStatus.Error
        ? this.error
        : status === ResourceStatus.Complete
          ? this.value
          : undefined,
    );
  }

  /**
   * Fetches the current read again, even when it is fresh. Never rejects: a failure shows in
   * `error` (and in `status` when there is no data to show). An identical read already in
   * flight (same store key: another element's, or the one this host's update just started) is
   * joined, not sent twice. When a read in flight must not be reused (the token in the hook's
   * headers changed since it was sent), call `controller.invalidate(endpoint, params)` first, once
   * the host's update has given the hook's new headers to this controller: the answers of reads of
   * that key in flight are dropped and the read is sent again, with those headers.
   *
   * @example
   * ```ts
   * html`<button @click=${() => this.#todos.refetch()}>Reload</button>`;
   * ```
   */
  refetch(): Promise<void> {
    return (this.#link.bound && this.#observer?.refetch()) || Promise.resolve();
  }

  hostConnected(): void {
    // A server render that calls connectedCallback (LitElementRenderer's option) stays a render:
    // no subscription, no timers.
    if (onServer(this.#host)) return;
    this.#connected = true;
    // A provider that upgrades in the same task still answers in time: only after it is a
    // missing provider an error.
    this.#check = setTimeout(() => {
      if (this.#link.bound) return;
      this.#failure = { status: ResourceStatus.Error, error: missingProvider(this.#host) } as never;
      this.#onResult();
    });
    // A hand-written host that never calls hostUpdate shows pending forever and sends nothing:
    // say so. `#shown` is filled by the first hostUpdate.
    if (DEV())
      setTimeout(() => {
        if (this.#connected && !this.#shown.length)
          console.warn(
            `<${this.#host.localName}> has a ResourceController, but its host has not called ` +
              `hostUpdate() ${UPDATE_WARNING_MS} ms after connecting, so nothing is read: call ` +
              "each controller's hostUpdate() before rendering, or extend " +
              "ResourceHostMixin(HTMLElement) from 'resource-elements/elements'.",
          );
      }, UPDATE_WARNING_MS);
  }

  hostDisconnected(): void {
    this.#connected = false;
    clearTimeout(this.#check);
    this.#unsubscribe?.();
    // Nobody waits for a host that left (see `PendingTasks.leave`). The result stays: moving the
    // element shows the same data, no flicker.
    this.#tasks.leave();
  }

  hostUpdate(): void {
    this.#update();
    this.#shown = this.shown();
  }

  hostUpdated(): void {
    this.#rendered = true;
    // A failure found at the first update waited for the render to say who shows it.
    this.#announce();
  }

  /**
   * What the host shows of this read: a new result renders the host again only when one of
   * these changed. A subclass that shows more of the read adds it.
   */
  protected shown(): readonly unknown[] {
    // `previous` changes only with a view that keeps data; `refreshing` at every request, so it
    // counts once the host has read it.
    return [
      this.status,
      this.value,
      this.error,
      this.previous,
      this.#tracks && this.#current()?.refreshing,
    ];
  }

  #update(): void {
    // Unbound (disconnected, or no provider yet): keep what is shown, read nothing.
    if (this.#link.bound) this.#read();
    this.#announce();
  }

  /**
   * Points the reader at the endpoint (a hook is called on each update) and the call arguments;
   * null reads nothing. An args function or hook that throws reads nothing: its error is the
   * read's, not the update's.
   */
  #read(): void {
    let endpoint: E | null = null;
    let args: unknown[] = [];
    this.#failure = undefined;
    try {
      const hooked = endpointOf<E>(this.#source);
      const params = this.#args?.();
      if (!(this.#idle = params === null)) endpoint = hooked;
      if (params !== undefined) args = [params];
    } catch (error) {
      this.#failure = { status: ResourceStatus.Error, error } as never;
    }
    this.#observer!.setRead(endpoint as E, ...(args as Parameters<E>));
  }

  readonly #onController = (controller: ControllerLike) => {
    // Unsubscribing twice is harmless: the observer knows its listeners.
    this.#unsubscribe?.();
    // No longer missing (a read's own failure is read again below, or at the host's update).
    this.#failure = undefined;
    // A reader of another Controller means nothing here; the same one keeps its result.
    if (controller !== this.#observer?.controller)
      this.#observer = new ResponseObserver<E, T>(controller, this.#options);
    if (this.#connected) {
      // Before its first update a host's properties may not be set yet (an element hydrating
      // server HTML connects before its bindings apply): then the read waits for hostUpdate.
      if ((this.#host as { hasUpdated?: boolean }).hasUpdated) this.#read();
      this.#unsubscribe = this.#observer.subscribe(this.#onResult);
    }
    // The consumer requests a host update; hostUpdate reads again.
  };

  readonly #onResult = () => {
    this.#announce();
    // A new answer with the same data (a poll, a refetch) changes only the read's freshness,
    // which the host does not show: it renders again only when what it shows changed.
    const shown = this.#shown;
    if (this.shown().some((value, i) => value !== shown[i])) this.#host.requestUpdate();
  };

  /**
   * Tells boundaries above the host when its read starts waiting with nothing to show, and how
   * that wait ended (`PendingTasks`). Stale data shown while it refreshes is no wait: no fallback
   * flashes over it. A failure reaches the boundary only when the host does not render errors
   * itself (no `error` renderer): like an error boundary, it catches what is not handled.
   */
  #announce(): void {
    if (!this.#connected) return;
    const status = this.status;
    const failed = status === ResourceStatus.Error;
    if (status === ResourceStatus.Pending && !this.#idle) this.#tasks.wait();
    // Before the host's first render, whether it renders errors itself is not known yet.
    else if (!failed || this.#rendered) this.#tasks.end(failed && !this.#rendersErrors, this.error);
  }
}
