/**
 * The Controller: the public face of one normalized store. It runs endpoints against the store
 * (each request's life is in requests.ts), keeps one record per store key beside it (records.ts:
 * who reads the key, its requests in flight, the order of their outcomes, its failures in a row,
 * when it was last used) and keeps those records in step with every committed action. Polling,
 * GC and revalidation are managers that work through the public methods, `events` and the
 * read-only `store`. It touches no DOM: fetch, the clock and timers come in through options.
 */
// Values first, in the order that packs a bundle best (see src/core/index.ts); types after.
import { isEndpoint } from '../protocol/is-endpoint.js';
import { invalidating } from '../schema/invalidate.js';
import { Store } from '../store/store.js';
import { DEFAULT_DATA_EXPIRY, restoreState } from '../store/state.js';
import { FETCH, IF_STALE, REFETCH, REVALIDATE } from './request.js';
import { countTimers, defaultTimers } from '../env/timers.js';
import { checkOptions } from '../protocol/check-options.js';
import { storeKey } from '../protocol/store-key.js';
import { ControllerEvents } from './events.js';
import { MemoCache } from '../normalize/memo-cache.js';
import { ResponseObserver } from './response-observer.js';
import { Records } from './records.js';
import { Requests } from './requests.js';
import { attachManagers } from './manager.js';
import type { EntityClass } from '../schema/types.js';
import type { CountedTimers, Timers } from '../env/timers.js';
import type {
  ControllerLike,
  EndpointLike,
  Held,
  Resolved,
  ResponseInfo,
} from '../protocol/types.js';
import type { Action } from '../store/actions.js';
import type { StoreState } from '../store/state.js';
import type { StoreChange, StoreView } from '../store/store.js';
import type { ControllerOptions, ControllerStats, InFlightRequest, ReadRecord } from './types.js';

function DEV(): boolean {
  return (typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production';
}

/**
 * Runs endpoints against one normalized store.
 * @example
 * const controller = new Controller();
 * const todo = await controller.fetch(TodoResource.get, { id: 1 });
 * controller.getResponse(TodoResource.get, { id: 1 }).data === todo; // true
 * await controller.fetch(TodoResource.partialUpdate, { id: 1 }, { completed: true });
 */
export class Controller implements ControllerLike {
  /**
   * What happens here, for managers, devtools and persistence: committed actions, requests
   * started and settled, subscriptions, and online/offline/focus.
   * @example controller.events.subscribe((event) => event.type === 'action' && log(event.action));
   */
  // Set in the constructor: an initialized public field (assignment semantics) would move every
  // private field's initializer into the constructor too, in longer code.
  readonly events: ControllerEvents;

  readonly #store: Store;
  readonly #now: () => number;
  readonly #timers: CountedTimers;
  readonly #records: Records;
  /** Every request, from start to settle. */
  readonly #requests: Requests;
  readonly #detach: (() => void)[];
  /** What `online()` / `offline()` said last: the one record of it (see `isOnline`). */
  #online = true;

  constructor(options: ControllerOptions = {}) {
    this.events = new ControllerEvents();
    this.#now = options.now ?? Date.now;
    this.#timers = countTimers(options.timers ?? defaultTimers());
    if (DEV()) {
      checkOptions({ name: 'Controller', retry: options.retry });
    }
    const memo = new MemoCache();
    this.#store = new Store(restoreState(options.initialState), memo, this.#now);
    this.#records = new Records(this.#store, memo, this.#now, this.events);
    // Readers first: they hear of a change before any other listener.
    this.#store.subscribe(() => this.#records.tell());
    this.#records.requests = this.#requests = new Requests(this, this.#records, options);
    this.#records.used(this.#store.committed);
    this.#detach = attachManagers(this, options);
  }

  /**
   * The Controller's clock, in ms (the `now` option; `Date.now` by default).
   * @example controller.now() - response.expiresAt
   */
  now(): number {
    return this.#now();
  }

  /**
   * The timers the Controller and its managers run on (the `timers` option), counted in `stats()`.
   * @example const handle = controller.timers.setTimeout(poll, 5_000);
   */
  get timers(): Timers {
    return this.#timers;
  }

  /**
   * The store, read-only: its committed and visible states and its write log, for managers and
   * devtools (garbage collection, tab sync). Writes go through `dispatch()`.
   * @example const stored = Object.keys(controller.store.committed.meta).length;
   */
  get store(): StoreView {
    return this.#store;
  }

  /**
   * One record per store key the Controller knows: its subscribers, requests in flight, last use
   * and how it was last read. The records the Controller keeps, read-only: what managers and
   * devtools use.
   * @example for (const read of controller.reads()) if (read.subscribers > 0) console.log(read.key);
   */
  reads(): IterableIterator<ReadRecord> {
    return this.#records.values();
  }

  // ---- Requests ----

  /**
   * Runs `endpoint(...args)`, commits the normalized result and resolves with the denormalized
   * value. Identical GETs in flight share one request; mutations always run. On failure the
   * error is stored for readers (data and entities stay as they were) and the promise rejects.
   * @example const todos = await controller.fetch(TodoResource.getList, { userId: 1 });
   */
  fetch<E extends EndpointLike>(endpoint: E, ...args: Parameters<E>): Promise<Resolved<E>> {
    return this.#requests.run(endpoint, args, FETCH) as Promise<Resolved<E>>;
  }

  /**
   * Like `fetch`, but always sends a new request, even when an identical one is in flight: what
   * a "reload" button means, and what a read needs after its headers changed (a new token). The
   * new request's answer is the newer one: an older answer arriving after it is dropped.
   * @example await controller.refetch(MeResource.get);
   */
  refetch<E extends EndpointLike>(endpoint: E, ...args: Parameters<E>): Promise<Resolved<E>> {
    return this.#requests.run(endpoint, args, REFETCH) as Promise<Resolved<E>>;
  }

  /**
   * Fetches only when the read is missing, stale or invalid, not already in flight, and its
   * last error has expired (so a failing read is not retried on every render). The returned
   * promise never rejects unhandled. Nobody is assumed to await it: when the last subscriber of
   * the read leaves (or the store is reset) before it answers, it is aborted.
   * @example controller.fetchIfStale(TodoResource.get, { id: 1 });
   */
  fetchIfStale<E extends EndpointLike>(
    endpoint: E,
    ...args: Parameters<E>
  ): Promise<Resolved<E>> | undefined {
    return this.#requests.run(endpoint, args, IF_STALE) as Promise<Resolved<E>> | undefined;
  }

  /**
   * Like `fetchIfStale`, but also when the last attempt failed moments ago: what coming back
   * online or to the page means.
   * @example controller.revalidate(TodoResource.getList, { userId: 1 });
   */
  revalidate<E extends EndpointLike>(
    endpoint: E,
    ...args: Parameters<E>
  ): Promise<Resolved<E>> | undefined {
    return this.#requests.run(endpoint, args, REVALIDATE) as Promise<Resolved<E>> | undefined;
  }

  // ---- Reads ----

  /**
   * Reads `endpoint(...args)` from the store. The same object comes back while its data,
   * expiryStatus, expiresAt and error are unchanged, so readers compare with ===.
   * @example
   * const { data, expiryStatus, error } = controller.getResponse(TodoResource.get, { id: 1 });
   */
  getResponse<E extends EndpointLike>(
    endpoint: E,
    ...args: Parameters<E>
  ): ResponseInfo<Resolved<E>> {
    return this.#records.response(storeKey(endpoint, args), endpoint, args) as ResponseInfo<
      Resolved<E>
    >;
  }

  /**
   * Holds `endpoint(...args)` for one reader: its key is built once, here, and the read is read,
   * fetched and subscribed to without building it again. A listener of `subscribe` is called only
   * after a change that gave the read a new object. Throws when the endpoint refuses the args.
   * @example
   * const held = controller.hold(TodoResource.get, { id: 1 });
   * const stop = held.subscribe(() => render(held.read()));
   */
  hold<E extends EndpointLike>(endpoint: E, ...args: Parameters<E>): Held<E> {
    return this.#records.hold(storeKey(endpoint, args), endpoint, args) as Held<E>;
  }

  /**
   * The error of the latest attempt of `endpoint(...args)`, while it has not expired.
   * @example if (controller.getError(TodoResource.get, { id: 1 })) showRetry();
   */
  getError<E extends EndpointLike>(endpoint: E, ...args: Parameters<E>): unknown {
    return this.getResponse(endpoint, ...args).error;
  }

  /**
   * A reader of `endpoint(...args)`: its result with a status, refetch, and a subscription that
   * tells the reader when its own result changes. Every framework adapter is built on it.
   * @example
   * const observer = controller.observe(TodoResource.get, { id: 1 });
   * const stop = observer.subscribe(() => render(observer.result));
   */
  observe<E extends EndpointLike>(endpoint: E, ...args: Parameters<E>): ResponseObserver<E> {
    const observer = new ResponseObserver<E>(this);
    observer.setRead(endpoint, ...args);
    return observer;
  }

  /**
   * The committed state (pending optimistic updates are listed, not applied): plain data to
   * persist or to give to `new Controller({ initialState })` or `hydrate()`.
   * @example const json = JSON.stringify(controller.getState());
   */
  getState(): StoreState {
    return this.#store.snapshot();
  }

  // ---- Writes ----

  /**
   * Makes the response of `endpoint(...args)` unshowable until it is fetched again, and drops the
   * answers of its reads in flight (the next read is sent again, not joined to them); or, given
   * an Entity class and a pk, marks that entity INVALID everywhere (what a pushed deletion means).
   * @example controller.invalidate(TodoResource.get, { id: 1 });
   * @example controller.invalidate(Todo, '1');
   */
  invalidate<E extends EndpointLike>(endpoint: E, ...args: Parameters<E>): void;
  invalidate(entity: EntityClass, pk: string | number | object): void;
  invalidate(target: EndpointLike | EntityClass, ...args: unknown[]): void {
    if (!isEndpoint(target)) return this.set(invalidating(target), args[0]);
    this.#requests.invalidate([storeKey(target, args)]);
  }

  /**
   * Invalidates every read whose key passes `test`: answered, failed (a 401 before a login) or
   * in flight (its answer is dropped). The records hold every key the store does.
   * @example controller.invalidateAll((key) => key.startsWith('GET /todos'));
   */
  invalidateAll(test: (key: string) => boolean): void {
    this.#requests.invalidate([...this.#records.keys()].filter((key) => test(key)));
  }

  /**
   * Writes entities that arrived without a request of ours (a server push, another tab): every
   * view that shows one of them updates. `schema` is an Entity class or any schema of them.
   * Throws, changing nothing, when `value` does not fit.
   * @example controller.set(Todo, { id: '1', title: 'Changed elsewhere' });
   * @example controller.set([Todo], todos);
   */
  set(schema: unknown, value: unknown): void {
    const now = this.#now();
    this.dispatch({
      type: 'entities/set',
      schema,
      value,
      fetchedAt: this.#records.stamp(),
      date: now,
      expiresAt: now + DEFAULT_DATA_EXPIRY,
    });
  }

  /**
   * Stores `response` as the response of `endpoint(...args)`, normalized like a fetched one.
   * The last argument is the response. Throws (changing nothing) when it does not fit the schema.
   * @example controller.setResponse(TodoResource.get, { id: 1 }, { id: 1, title: 'Buy milk' });
   */
  setResponse<E extends EndpointLike>(
    endpoint: E,
    ...argsAndResponse: [...Parameters<E>, unknown]
  ): void {
    this.#requests.setResponse(endpoint, argsAndResponse.slice(0, -1), argsAndResponse.at(-1));
  }

  /**
   * Applies a store action as it is: for managers (a logger replaying, a sync source). Returns
   * false when it changed nothing.
   * @example controller.dispatch({ type: 'invalidate', keys: ['GET /todos'] });
   */
  dispatch(action: Action): boolean {
    // In a batch of its own: the Controller's records follow the action before any listener
    // hears of it.
    return this.#store.batch(() => {
      const state = this.#store.dispatch(action);
      if (state) {
        // The records follow it before the managers hear of it.
        if (action.type === 'invalidate') {
          for (const key of action.keys) this.#requests.outdate(key);
        } else this.#records.follow(action, state);
        this.events.emit({ type: 'action', action, state });
      }
      return !!state;
    });
  }

  /**
   * Runs `work`; listeners hear once of everything it changed.
   * @example controller.batch(() => pushed.forEach((todo) => controller.set(Todo, todo)));
   */
  batch<T>(work: () => T): T {
    return this.#store.batch(work);
  }

  /**
   * Empties the store. Responses to requests started before the reset are dropped when they
   * arrive (their callers' promises still settle); reads nobody awaits are aborted, and a request
   * waiting to be tried again stops waiting and fails with its last failure.
   * @example logoutButton.onclick = () => controller.resetEntireStore();
   */
  resetEntireStore(): void {
    this.#requests.reset();
    this.dispatch({ type: 'reset', date: this.#now() });
  }

  // ---- Listeners and subscriptions ----

  /**
   * Calls `listener` once per committed change (once per `batch`). Returns the function that
   * removes it.
   * @example const remove = controller.addListener(({ action }) => console.log(action.type));
   */
  addListener(listener: (change: StoreChange) => void): () => void {
    return this.#store.subscribe(listener);
  }

  /**
   * Declares interest in `endpoint(...args)`: keeps it from garbage collection, polls it at the
   * endpoint's `pollFrequency` (one timer per request, at the smallest frequency of its
   * subscribers) and refetches it on `online()`/`focus()` when stale. Returns the function that
   * ends the interest; when the last one ends, a read of it nobody awaits is aborted.
   * @example
   * const unsubscribe = controller.subscribe(PriceResource.get, { symbol: 'BTC' });
   * unsubscribe();
   */
  subscribe<E extends EndpointLike>(endpoint: E, ...args: Parameters<E>): () => void {
    return this.#records.subscribe(storeKey(endpoint, args), endpoint, args);
  }

  /** A subscription to `key`; with `held`, `listener` also hears of each change to its read. */

  /**
   * Whether the network is there, as `online()` and `offline()` said last: true until `offline()`
   * (a Controller does not read `navigator.onLine`, which some headless and sandboxed browsers
   * report false while they reach the server). Polling, revalidation, retries, the offline queue
   * and the provider's activity read it here.
   * @example if (!controller.isOnline) showBanner();
   */
  get isOnline(): boolean {
    return this.#online;
  }

  /**
   * The network is back: polling resumes and stale or invalid subscribed reads are fetched.
   * @example addEventListener('online', () => controller.online());
   */
  online(): void {
    this.#online = true;
    this.events.emit({ type: 'online' });
  }

  /**
   * The network is gone: polling pauses, and reads waiting to be tried again wait, until `online()`.
   * @example addEventListener('offline', () => controller.offline());
   */
  offline(): void {
    this.#online = false;
    this.events.emit({ type: 'offline' });
  }

  /**
   * The page is shown again: stale or invalid subscribed reads are fetched.
   * @example document.addEventListener('visibilitychange', () => document.hidden || controller.focus());
   */
  focus(): void {
    this.events.emit({ type: 'focus' });
  }

  /**
   * Detaches every manager (timers stop, sources close) and stops retries: a read waiting to be
   * tried again fails with its last failure, and nothing is tried again after. Requests in flight
   * settle once; the store stays readable, and what is asked for explicitly still runs.
   * @example controller.dispose();
   */
  dispose(): void {
    this.#requests.disposed = true;
    this.#requests.endWaits();
    for (const detach of this.#detach.splice(0)) detach();
  }

  /**
   * The requests started and not settled, oldest first: for devtools and progress displays that
   * attach while requests run (later ones are announced on `events`). The Controller's own
   * requests, read-only, as `reads()` hands out its records: `startedAt` moves while one waits.
   * @example controller.inFlight().map((request) => request.key)
   */
  inFlight(): InFlightRequest[] {
    return this.#requests.inFlight();
  }

  /**
   * Counts of what is alive, for tests and debugging.
   * @example assert.equal(controller.stats().timers, 0);
   */
  stats(): ControllerStats {
    return {
      subscriptions: this.#records.subscriptions,
      timers: this.#timers.pending,
      // The store's listeners but the Controller's own, and each reader of a held read.
      listeners: this.#store.size - 1 + this.#records.readers.size,
      inFlight: this.#requests.inFlight().length,
    };
  }
}
