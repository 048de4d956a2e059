import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { ContextConsumer } from '@lit/context';
import { ExpiryStatus } from '../core/protocol/types.js';
import type {
  ControllerLike,
  EndpointLike,
  Resolved,
  ResponseInfo,
} from '../core/protocol/types.js';
import { controllerContext } from './controller-context.js';
import { watchForLateProviders } from './late-providers.js';

/** What a `ResourceController` shows: one of these three states. */
export const ResourceStatus = {
  /** Nothing to show yet: the data is missing or invalid and is being fetched. */
  Pending: 'pending',
  /** `value` holds the data (possibly stale while it is fetched again). */
  Complete: 'complete',
  /** `error` says why there is nothing to show. */
  Error: 'error',
} as const;
export type ResourceStatus = (typeof ResourceStatus)[keyof typeof ResourceStatus];

/** A function called on each host update that returns the endpoint to read (see `hookifyResource`). */
export type EndpointHook<E extends EndpointLike> = () => E;

/** The URL parameters of a read: the first argument of the endpoint. */
export type ReadParams<E extends EndpointLike> = Parameters<E>[0];

/** The templates (or any values) `ResourceController.render` chooses between, by status. */
export interface ResourceRenderers<T, P = unknown, C = unknown, X = unknown> {
  pending?: () => P;
  complete?: (value: T) => C;
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
export class ResourceController<E extends EndpointLike> implements ReactiveController {
  readonly #host: ResourceHost;
  readonly #source: E | EndpointHook<E>;
  readonly #args: () => ReadParams<E> | null;

  #controller: ControllerLike | undefined;
  /** Whether a provider answered since the host last connected. */
  #bound = false;
  #connected = false;
  /** The read in force: endpoint, call arguments and cache key; undefined while args are null. */
  #endpoint: E | undefined;
  #callArgs: Parameters<E> | undefined;
  #key: string | undefined;
  /** Bumped whenever the read changes, so results of an older read are dropped. */
  #callId = 0;
  #response: ResponseInfo<Resolved<E>> | undefined;
  #rejection: unknown;
  #missingProvider: Error | undefined;
  #providerCheck: ReturnType<typeof setTimeout> | undefined;
  #removeListener: (() => void) | undefined;
  #unsubscribe: (() => void) | undefined;

  constructor(host: ResourceHost, endpoint: E, args?: () => ReadParams<E> | null);
  constructor(host: ResourceHost, hook: EndpointHook<E>, args?: () => ReadParams<E> | null);
  constructor(
    host: ResourceHost,
    endpointOrHook: E | EndpointHook<E>,
    args?: () => ReadParams<E> | null,
  ) {
    this.#host = host;
    this.#source = endpointOrHook;
    this.#args = args ?? (() => undefined as ReadParams<E>);
    host.addController(this);
    // Added after this controller, so hostConnected has watched for late providers before the
    // consumer sends its request.
    new ContextConsumer(host, {
      context: controllerContext,
      subscribe: true,
      callback: this.#onController,
    });
  }

  /** The data to show: present while `status` is `'complete'`. */
  get value(): Resolved<E> | undefined {
    return this.status === ResourceStatus.Complete ? this.#response?.data : undefined;
  }

  /** Why the read failed (also set when stale data is shown but refreshing it failed). */
  get error(): unknown {
    return this.#missingProvider ?? this.#response?.error ?? this.#rejection;
  }

  /** Pending until there is data to show; error when there is none and the read failed. */
  get status(): ResourceStatus {
    if (this.#missingProvider) return ResourceStatus.Error;
    const response = this.#response;
    if (response && response.expiryStatus !== ExpiryStatus.Invalid && response.data !== undefined) {
      return ResourceStatus.Complete;
    }
    if (response?.error !== undefined || this.#rejection !== undefined) return ResourceStatus.Error;
    return ResourceStatus.Pending;
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
    renderers: ResourceRenderers<Resolved<E>, P, C, X>,
  ): P | C | X | undefined {
    switch (this.status) {
      case ResourceStatus.Complete:
        return renderers.complete?.(this.#response!.data as Resolved<E>);
      case ResourceStatus.Error:
        return renderers.error?.(this.error);
      default:
        return renderers.pending?.();
    }
  }

  /**
   * Fetches the current read again, even when it is fresh. Never rejects: a failure shows in
   * `error` (and in `status` when there is no data to show).
   *
   * @example
   * ```ts
   * html`<button @click=${() => this.#todos.refetch()}>Reload</button>`;
   * ```
   */
  refetch(): Promise<void> {
    const controller = this.#controller;
    if (!controller || !this.#bound || !this.#endpoint || !this.#callArgs) return Promise.resolve();
    // A new request even when one is in flight: it may have been sent with other headers (a hook's
    // token changed) or be the very answer the user wants to replace.
    return this.#track(controller.refetch(this.#endpoint, ...this.#callArgs));
  }

  hostConnected(): void {
    this.#connected = true;
    watchForLateProviders(this.#host.ownerDocument);
    // The consumer asks for the Controller right after this; a provider that upgrades in the same
    // task still answers in time. Only after that is a missing provider an error.
    this.#providerCheck = setTimeout(this.#checkProvider, 0);
  }

  hostDisconnected(): void {
    this.#connected = false;
    clearTimeout(this.#providerCheck);
    this.#providerCheck = undefined;
    this.#release();
    // Reconnecting asks for the Controller again, and the answer may come from another provider
    // or from none. The response stays: moving the element shows the same data, no flicker.
    this.#bound = false;
  }

  hostUpdate(): void {
    const endpoint =
      typeof this.#source === 'function' && !isEndpoint(this.#source)
        ? this.#source()
        : (this.#source as E);
    const params = this.#args();
    const callArgs = (params === null ? undefined : params === undefined ? [] : [params]) as
      Parameters<E> | undefined;
    const key = callArgs ? endpoint.key(...callArgs) : undefined;
    // Hooks may return a new endpoint object on each call: the cache key says whether the read
    // is the same one.
    this.#endpoint = callArgs ? endpoint : undefined;
    this.#callArgs = callArgs;
    if (key !== this.#key) {
      this.#key = key;
      this.#callId++;
      this.#rejection = undefined;
      this.#response = undefined;
      this.#endSubscription();
      if (this.#connected) this.#subscribe();
    }
    this.#read();
  }

  /** Stable identity: the context consumer and `ContextRoot` dedupe by it. */
  readonly #onController = (controller: ControllerLike | undefined) => {
    if (!controller || (controller === this.#controller && this.#bound)) return;
    this.#release();
    if (controller !== this.#controller) {
      // A response from another Controller means nothing here.
      this.#response = undefined;
      this.#rejection = undefined;
      this.#controller = controller;
    }
    this.#bound = true;
    this.#missingProvider = undefined;
    if (this.#connected) {
      this.#removeListener = controller.addListener(this.#onStoreChange);
      this.#subscribe();
    }
    // The consumer requests a host update; hostUpdate reads from the Controller.
  };

  readonly #onStoreChange = () => {
    const controller = this.#controller;
    if (!controller || !this.#endpoint || !this.#callArgs) return;
    if (controller.getResponse(this.#endpoint, ...this.#callArgs) !== this.#response) {
      this.#host.requestUpdate();
    }
  };

  readonly #checkProvider = () => {
    this.#providerCheck = undefined;
    if (this.#bound || !this.#connected) return;
    const tag = this.#host.localName;
    this.#missingProvider = new Error(
      `<${tag}> found no <resource-provider> above it: wrap it (or an ancestor) in ` +
        `<resource-provider>, or provide controllerContext to it.`,
    );
    this.#host.requestUpdate();
  };

  /** Reads the store for the current args; fetches when there is nothing valid to show. */
  #read(): void {
    const controller = this.#controller;
    if (!this.#endpoint || !this.#callArgs) {
      this.#response = undefined;
      return;
    }
    // Unbound (disconnected, or no provider yet): keep what is shown, fetch nothing.
    if (!controller || !this.#bound) return;
    const response = controller.getResponse(this.#endpoint, ...this.#callArgs);
    // A new response is the store's newer word on this read: it supersedes our own failure.
    if (response !== this.#response) this.#rejection = undefined;
    this.#response = response;
    // While an error is fresh, fetching again on every host update would storm the server: the
    // error shows until it expires in the store, the read changes, or refetch() is called.
    if (
      response.expiryStatus !== ExpiryStatus.Valid &&
      response.error === undefined &&
      this.#rejection === undefined
    ) {
      const pending = controller.fetchIfStale(this.#endpoint, ...this.#callArgs);
      if (pending) void this.#track(pending);
    }
  }

  /** Settles a fetch of the current read; a result for a read the host no longer has is dropped. */
  #track(request: Promise<unknown>): Promise<void> {
    const callId = this.#callId;
    return request.then(
      () => {
        if (callId === this.#callId) this.#rejection = undefined;
      },
      (error: unknown) => {
        if (callId !== this.#callId) return;
        this.#rejection = error;
        this.#host.requestUpdate();
      },
    );
  }

  #subscribe(): void {
    if (this.#unsubscribe || !this.#bound || !this.#endpoint || !this.#callArgs) return;
    if (!this.#controller) return;
    this.#unsubscribe = this.#controller.subscribe(this.#endpoint, ...this.#callArgs);
  }

  #endSubscription(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }

  #release(): void {
    this.#removeListener?.();
    this.#removeListener = undefined;
    this.#endSubscription();
  }
}

/** Endpoints and hooks are both functions; only an endpoint has a `key` method. */
function isEndpoint(value: unknown): value is EndpointLike {
  return typeof (value as { key?: unknown }).key === 'function';
}
