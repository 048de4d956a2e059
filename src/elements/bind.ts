import { ContextEvent } from '@lit/context';
import { ReadStatus, ResponseObserver } from '../core/index.js';
import type { ControllerLike, EndpointLike, ReadOptions, Resolved } from '../core/index.js';
import { controllerContext } from '../lit/controller-context.js';
import { missingProvider, watchLateProviders } from '../lit/provider-request.js';
import type { MutationStatus } from '../lit/mutation-controller.js';
import type { ReadParams } from '../lit/resource-controller.js';

/** What `bindRead` hands its callback: what an element shows of one read. */
export interface BoundReadState<T> {
  /** Pending until there is data to show; error when there is none and the read failed. */
  readonly status: ReadStatus;
  /** The data to show (what the `view` option made of it): present while `status` is `'complete'`. */
  readonly value: T | undefined;
  /** Why the read failed (also set when stale data is shown but refreshing it failed). */
  readonly error: unknown;
  /** True while `value` is kept from an earlier read (the `keepPrevious` view). */
  readonly previous: boolean;
}

/** A read bound to an element by `bindRead`. */
export interface ReadBinding<E extends EndpointLike, T = Resolved<E>> {
  /** What the callback was last given. */
  readonly state: BoundReadState<T>;
  /** Reads other params (`null` reads nothing); the callback hears of it if what it shows changed. */
  setArgs(params: ReadParams<E> | null): void;
  /** Fetches the read again, even when it is fresh; never rejects (a failure shows in `error`). */
  refetch(): Promise<void>;
  /** Lets go of the read and the provider: call it when the element disconnects. */
  unbind(): void;
}

/** What `bindMutation` hands its callback. */
export interface MutationState<E extends EndpointLike> {
  /** `idle` until the first run (and after `reset`), then the latest run's. */
  readonly status: MutationStatus;
  /** The latest successful run's result. */
  readonly value: Resolved<E> | undefined;
  /** Why the latest run failed. */
  readonly error: unknown;
}

/** A mutation bound to an element by `bindMutation`. */
export interface MutationBinding<E extends EndpointLike> {
  /** What the callback was last given. */
  readonly state: MutationState<E>;
  /** Runs the endpoint; a failure also shows in `state.error`, so the promise may be ignored. */
  run(...args: Parameters<E>): Promise<Resolved<E>>;
  /** Back to `idle`; runs in flight no longer change the state. */
  reset(): void;
  /** Lets go of the provider: call it when the element disconnects. */
  unbind(): void;
}

/** The element's link to the nearest provider's Controller, by the context protocol. */
interface Link {
  readonly controller: ControllerLike | undefined;
  release(): void;
}

/**
 * Asks the nearest provider above `element` for its Controller, with a subscribing
 * `context-request` (as `@lit/context` consumers do): a provider inserted nearer, or one that
 * connects later, answers again; `onController` hears each new Controller.
 */
function link(element: HTMLElement, onController: (controller: ControllerLike) => void): Link {
  let controller: ControllerLike | undefined;
  let stop: (() => void) | undefined;
  let released = false;
  // One callback for the binding's life: the provider and the document's root dedupe by it.
  const callback = (value: ControllerLike | undefined, unsubscribe?: () => void) => {
    if (released) return unsubscribe?.();
    // Another provider answers (a nearer one was inserted): leave the previous one.
    if (stop !== unsubscribe) stop?.();
    stop = unsubscribe;
    if (!value || value === controller) return;
    onController((controller = value));
  };
  watchLateProviders(element.ownerDocument);
  element.dispatchEvent(new ContextEvent(controllerContext, element, callback, true));
  return {
    get controller() {
      return controller;
    },
    release() {
      released = true;
      stop?.();
    },
  };
}

const same = (a: BoundReadState<unknown>, b: BoundReadState<unknown>) =>
  a.status === b.status && a.value === b.value && a.error === b.error && a.previous === b.previous;

/**
 * Binds one read to an element, with no host and no framework: it finds the Controller of the
 * nearest `<resource-provider>` above `element`, reads `endpoint(params)` from it (fetching as
 * `ResourceController` does), and calls `callback` with the state now and then only when the
 * status, value, error or `previous` changed (an answer that brings the same data calls nothing).
 * With no provider above the element by the end of the task, the state is the same error a
 * `ResourceController` shows. Bind when the element connects; `unbind()` when it disconnects.
 *
 * @example
 * ```ts
 * connectedCallback() {
 *   this.#todo = bindRead(this, TodoResource.get, { id: '1' }, (state) => {
 *     this.textContent = state.status === 'complete' ? state.value!.title : state.status;
 *   });
 * }
 * disconnectedCallback() {
 *   this.#todo?.unbind();
 * }
 * ```
 */
export function bindRead<E extends EndpointLike, T = Resolved<E>>(
  element: HTMLElement,
  endpoint: E,
  params: ReadParams<E> | null,
  callback: (state: BoundReadState<T>) => void,
  options?: ReadOptions<Resolved<E>, T>,
): ReadBinding<E, T> {
  let observer: ResponseObserver<E, T> | undefined;
  let stop: (() => void) | undefined;
  let missing: Error | undefined;
  let unbound = false;
  let state: BoundReadState<T> = {
    status: ReadStatus.Pending,
    value: undefined,
    error: undefined,
    previous: false,
  };
  /** Points the observer at the params (null reads nothing), as `controller.fetch` takes them. */
  const read = () =>
    params === null
      ? observer?.setRead(null)
      : observer?.setRead(endpoint, ...((params === undefined ? [] : [params]) as Parameters<E>));
  /** Tells the callback when what it shows changed. */
  const show = () => {
    if (unbound) return;
    const result = observer?.result;
    const next: BoundReadState<T> = missing
      ? { status: ReadStatus.Error, value: undefined, error: missing, previous: false }
      : {
          status: result?.status ?? ReadStatus.Pending,
          value: result?.data,
          error: result?.error,
          previous: !!result?.previous,
        };
    if (same(next, state)) return;
    state = next;
    callback(state);
  };
  // The pending state first: a provider above may answer at once, with data already stored.
  callback(state);
  const provider = link(element, (controller) => {
    missing = undefined;
    stop?.();
    observer = new ResponseObserver<E, T>(controller, options);
    read();
    stop = observer.subscribe(show);
    show();
  });
  // A provider that upgrades in this task still answers in time: only after it is one missing.
  const check = setTimeout(() => {
    if (provider.controller) return;
    missing = missingProvider(element);
    show();
  });
  return {
    get state() {
      return state;
    },
    setArgs(next) {
      params = next;
      read();
      show();
    },
    refetch: () => observer?.refetch() ?? Promise.resolve(),
    unbind() {
      unbound = true;
      clearTimeout(check);
      stop?.();
      provider.release();
    },
  };
}

/**
 * Binds one mutation to an element, with no host and no framework: `run(...args)` sends
 * `endpoint(...args)` through the Controller of the nearest `<resource-provider>` above `element`,
 * and `callback` hears each change of its state (`idle`, `pending`, `success`, `error`; the
 * latest run's). With no provider above, `run` rejects with the error a `MutationController`
 * gives. Bind when the element connects; `unbind()` when it disconnects.
 *
 * @example
 * ```ts
 * this.#create = bindMutation(this, TodoResource.getList.push, (state) => {
 *   button.disabled = state.status === 'pending';
 * });
 * button.onclick = () => this.#create.run({ title: 'New' });
 * ```
 */
export function bindMutation<E extends EndpointLike>(
  element: HTMLElement,
  endpoint: E,
  callback: (state: MutationState<E>) => void,
): MutationBinding<E> {
  const provider = link(element, () => {});
  let state: MutationState<E> = { status: 'idle', value: undefined, error: undefined };
  let unbound = false;
  /** The latest run (bumped by `reset` too): only its outcome changes the state. */
  let runId = 0;
  const set = (id: number, next: MutationState<E>) => {
    if (id !== runId || unbound) return;
    if (next.status === state.status && next.value === state.value && next.error === state.error)
      return;
    callback((state = next));
  };
  return {
    get state() {
      return state;
    },
    run(...args) {
      const id = ++runId;
      let promise: Promise<Resolved<E>>;
      set(id, { status: 'pending', value: undefined, error: undefined });
      try {
        const controller = provider.controller;
        if (!controller) throw missingProvider(element, ' to run a mutation');
        promise = controller.fetch(endpoint, ...args);
      } catch (error) {
        promise = Promise.reject(error);
      }
      promise.then(
        (value) => set(id, { status: 'success', value, error: undefined }),
        (error: unknown) => set(id, { status: 'error', value: undefined, error }),
      );
      return promise;
    },
    reset() {
      set(++runId, { status: 'idle', value: undefined, error: undefined });
    },
    unbind() {
      unbound = true;
      provider.release();
    },
  };
}
