import type { EndpointLike, Resolved } from '../core/index.js';
import { missingProvider } from './provider-request.js';
import { endpointOf, ProviderLink } from './provider-link.js';
import type { EndpointHook, ResourceHost } from './resource-controller.js';

/** Where a `MutationController` is: nothing run yet (or reset), running, done, or failed. */
export const MutationStatus = {
  Idle: 'idle',
  Pending: 'pending',
  Success: 'success',
  Error: 'error',
} as const;
/** One of the values of `MutationStatus`. */
export type MutationStatus = (typeof MutationStatus)[keyof typeof MutationStatus];

/**
 * Runs one endpoint (usually a mutation: a create, an update, a delete) for a Lit host, through the
 * Controller the nearest `<resource-provider>` provides, and keeps what the host shows about it:
 * `status`, `value` and `error`. The host re-renders on each change.
 *
 * `run(...args)` takes the endpoint's own arguments and returns the promise of its result. That
 * promise may be ignored (`@click=${() => this.#save.run(...)}`): a failure then shows in `error`
 * and is never an unhandled rejection. Runs may overlap; `status`, `value` and `error` follow the
 * latest. An `optimistic` endpoint's guess shows in the store at once, while `status` is still
 * `pending`. A host that leaves does not abort what it started: a sent mutation runs to its end.
 *
 * @example
 * ```ts
 * class TodoForm extends LitElement {
 *   #create = new MutationController(this, TodoResource.getList.push);
 *   render() {
 *     return html`<button ?disabled=${this.#create.pending}
 *         @click=${() => this.#create.run({ title: 'New' })}>Add</button>
 *       ${this.#create.error ? html`<p>${(this.#create.error as Error).message}</p>` : ''}`;
 *   }
 * }
 * ```
 */
export class MutationController<E extends EndpointLike> {
  readonly #source: E | EndpointHook<E>;
  readonly #link: ProviderLink;
  #status: MutationStatus = MutationStatus.Idle;
  #value: Resolved<E> | undefined;
  #error: unknown;
  /** The latest run (bumped by `reset` too): only its outcome changes the state. */
  #runId = 0;

  constructor(host: ResourceHost, endpoint: E);
  constructor(host: ResourceHost, hook: EndpointHook<E>);
  constructor(host: ResourceHost, endpointOrHook: E | EndpointHook<E>) {
    this.#source = endpointOrHook;
    this.#link = new ProviderLink(host);
  }

  /** `idle` until the first run (and after `reset`), then the latest run's. */
  get status(): MutationStatus {
    return this.#status;
  }

  /** True while the latest run is in flight: what a submit button's `disabled` wants. */
  get pending(): boolean {
    return this.#status === MutationStatus.Pending;
  }

  /** The latest successful run's result, until another run starts or `reset`. */
  get value(): Resolved<E> | undefined {
    return this.#value;
  }

  /** Why the latest run failed, until another run starts or `reset`. */
  get error(): unknown {
    return this.#error;
  }

  /**
   * Runs the endpoint (a hook is called now) with `args`; resolves with its result or rejects
   * with its error. Nobody has to handle the rejection: it also shows in `error`. A connected host
   * with no provider above it rejects, like a `ResourceController` there shows an error.
   * @example await this.#update.run({ id: '1' }, { title: 'Renamed' });
   */
  run(...args: Parameters<E>): Promise<Resolved<E>> {
    const id = ++this.#runId;
    const link = this.#link;
    let promise: Promise<Resolved<E>>;
    this.#set(id, MutationStatus.Pending);
    try {
      // A connected host runs through the provider above it now, and has none when it was moved
      // out of every provider; one that left the page keeps the last (a save on leaving runs).
      const controller = link.bound || (!link.host.isConnected && link.last);
      if (!controller) throw missingProvider(link.host, ' to run a mutation');
      promise = controller.fetch(endpointOf<E>(this.#source), ...args);
    } catch (error) {
      promise = Promise.reject(error);
    }
    promise.then(
      (value) => this.#set(id, MutationStatus.Success, value),
      (error: unknown) => this.#set(id, MutationStatus.Error, undefined, error),
    );
    return promise;
  }

  /**
   * Back to `idle`, forgetting `value` and `error`; runs in flight go on, but no longer change
   * the state.
   * @example html`<button @click=${() => this.#create.reset()}>Dismiss</button>`
   */
  reset(): void {
    this.#set(++this.#runId, MutationStatus.Idle);
  }

  /** The state of run `id`, unless a later run started (or `reset`); the host updates if it changed. */
  #set(id: number, status: MutationStatus, value?: Resolved<E>, error?: unknown): void {
    if (
      id !== this.#runId ||
      (status === this.#status && value === this.#value && error === this.#error)
    )
      return;
    this.#status = status;
    this.#value = value;
    this.#error = error;
    this.#link.host.requestUpdate();
  }
}
