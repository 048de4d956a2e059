import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { ContextConsumer } from '@lit/context';
import { isEndpoint, ReadStatus, ResponseObserver } from '../core/index.js';
import type { ControllerLike, EndpointLike, Resolved } from '../core/index.js';
import { controllerContext } from './controller-context.js';
import { watchForLateProviders } from './late-providers.js';
import { PendingTaskEvent } from './pending-task.js';

/** What a `ResourceController` shows: one of these three states. */
export const ResourceStatus = ReadStatus;
export type ResourceStatus = ReadStatus;

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
  /** The reader, for the Controller the nearest provider gave; none before one answered. */
  #observer: ResponseObserver<E> | undefined;
  #stopObserving: (() => void) | undefined;
  /** Whether a provider answered since the host last connected. */
  #bound = false;
  #connected = false;
  #missingProvider: Error | undefined;
  #providerCheck: ReturnType<typeof setTimeout> | undefined;
  /** Whether the host's last `render()` call gave an `error` renderer: it shows its own errors. */
  #rendersErrors = false;
  /** The pending task announced for the current wait, settled when it ends. */
  #task: { resolve(): void; reject(error: unknown): void } | undefined;

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
    return this.#missingProvider ? undefined : this.#observer?.result.data;
  }

  /** Why the read failed (also set when stale data is shown but refreshing it failed). */
  get error(): unknown {
    return this.#missingProvider ?? this.#observer?.result.error;
  }

  /** Pending until there is data to show; error when there is none and the read failed. */
  get status(): ResourceStatus {
    if (this.#missingProvider) return ResourceStatus.Error;
    return this.#observer?.result.status ?? ResourceStatus.Pending;
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
    this.#rendersErrors = renderers.error !== undefined;
    switch (this.status) {
      case ResourceStatus.Complete:
        return renderers.complete?.(this.value as Resolved<E>);
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
    return this.#bound && this.#observer ? this.#observer.refetch() : Promise.resolve();
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
    this.#stop();
    // Nobody waits for a host that left: its boundary must not hang.
    this.#settleTask();
    // Reconnecting asks for the Controller again, and the answer may come from another provider
    // or from none. The result stays: moving the element shows the same data, no flicker.
    this.#bound = false;
  }

  hostUpdate(): void {
    // Unbound (disconnected, or no provider yet): keep what is shown, read nothing.
    if (this.#bound) this.#observer?.setRead(...this.#read());
    this.#announce();
  }

  /** True when the args say to read nothing (`null`): nothing to wait for. */
  get #skipped(): boolean {
    return this.#args() === null;
  }

  /** The endpoint (a hook is called on each update) and the call arguments; null reads nothing. */
  #read(): [E, readonly unknown[] | null] {
    const endpoint = isEndpoint(this.#source) ? this.#source : (this.#source as EndpointHook<E>)();
    const params = this.#args();
    return [endpoint, params === null ? null : params === undefined ? [] : [params]];
  }

  /** Stable identity: the context consumer and `ContextRoot` dedupe by it. */
  readonly #onController = (controller: ControllerLike | undefined) => {
    if (!controller || (controller === this.#observer?.controller && this.#bound)) return;
    this.#stop();
    // A reader of another Controller means nothing here; the same one keeps its result.
    if (controller !== this.#observer?.controller)
      this.#observer = new ResponseObserver(controller);
    this.#bound = true;
    this.#missingProvider = undefined;
    if (this.#connected) {
      this.#observer.setRead(...this.#read());
      this.#stopObserving = this.#observer.subscribe(() => {
        this.#announce();
        this.#host.requestUpdate();
      });
    }
    // The consumer requests a host update; hostUpdate reads again.
  };

  readonly #checkProvider = () => {
    this.#providerCheck = undefined;
    if (this.#bound || !this.#connected) return;
    const tag = this.#host.localName;
    this.#missingProvider = new Error(
      `<${tag}> found no <resource-provider> above it: wrap it (or an ancestor) in ` +
        `<resource-provider>, or provide controllerContext to it.`,
    );
    this.#announce();
    this.#host.requestUpdate();
  };

  /**
   * Tells boundaries above the host (the pending-task protocol) when its read starts waiting
   * with nothing to show, and how that wait ended. Stale data shown while it refreshes is no
   * wait: no fallback flashes over it.
   */
  #announce(): void {
    if (!this.#connected) return;
    const status = this.status;
    if (status !== ResourceStatus.Pending || this.#skipped) {
      this.#settleTask(status === ResourceStatus.Error ? this.error : undefined, status);
      return;
    }
    if (this.#task) return;
    let task!: { resolve(): void; reject(error: unknown): void };
    const complete = new Promise<void>((resolve, reject) => (task = { resolve, reject }));
    // With no boundary listening, a failure must not become an unhandled rejection.
    complete.catch(() => {});
    this.#task = task;
    this.#host.dispatchEvent(new PendingTaskEvent(complete, () => this.#retry()));
  }

  /**
   * Ends the announced wait. A failure reaches the boundary only when the host does not render
   * errors itself (no `error` renderer): like an error boundary, it catches what is not handled.
   */
  #settleTask(error?: unknown, status?: ResourceStatus): void {
    const task = this.#task;
    this.#task = undefined;
    if (status === ResourceStatus.Error && !this.#rendersErrors) task?.reject(error);
    else task?.resolve();
  }

  /** A boundary's retry: refetch, and fail again if there is still nothing to show. */
  async #retry(): Promise<void> {
    await this.refetch();
    if (this.status === ResourceStatus.Error) throw this.error;
  }

  #stop(): void {
    this.#stopObserving?.();
    this.#stopObserving = undefined;
  }
}
