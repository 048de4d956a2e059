/**
 * The Controller is a facade: it builds actions, reads state and delegates. A request's life is
 * request-runner.ts, requests in flight are tracked by request-tracker.ts, per-key bookkeeping lives in one KeyEntry per store key, expiry rules in
 * expiry.ts, optimistic updates in optimistic-queue.ts, and polling, garbage collection and
 * revalidation are managers that read its events. It touches no DOM: fetch, the clock and timers
 * come in through options.
 */
import { MemoCache } from '../normalize/memo-cache.js';
import type { EntityClass } from '../schema/types.js';
import { Invalidate } from '../schema/invalidate.js';
import { getOwn } from '../util/own.js';
import { countTimers, defaultTimers } from '../env/timers.js';
import type { CountedTimers, Timers } from '../env/timers.js';
import { isEndpoint } from '../protocol/is-endpoint.js';
import { storeArgs, storeKey } from '../protocol/store-key.js';
import { ExpiryStatus } from '../protocol/types.js';
import type {
  ControllerLike,
  EndpointLike,
  Resolved,
  ResponseInfo,
  RetryOption,
} from '../protocol/types.js';
import type { Action } from '../store/actions.js';
import { readResponse } from '../store/read-response.js';
import { restoreState, storedKeys } from '../store/state.js';
import type { StoreState } from '../store/state.js';
import { Store } from '../store/store.js';
import type { StoreChange, StoreView } from '../store/store.js';
import { ConnectivityManager } from '../managers/connectivity.js';
import { GcManager } from '../managers/gc.js';
import { PollingManager } from '../managers/polling.js';
import { ControllerEvents } from './events.js';
import { dataExpiresAt, DEFAULT_DATA_EXPIRY } from './expiry.js';
import { checkOptions } from '../protocol/check-options.js';
import { KeyEntries } from './key-entry.js';
import type { Manager } from './manager.js';
import { OptimisticQueue } from './optimistic-queue.js';
import { RequestTracker } from './request-tracker.js';
import { DEFAULT_RETRY } from './retry.js';
import type { RetryEnv } from './retry.js';
import { RequestRunner } from './request-runner.js';
import { ResponseObserver } from './response-observer.js';

/** Options of `new Controller()`. */
export interface ControllerOptions {
  /** The fetch endpoints run with; endpoints use `globalThis.fetch` when this is not given. */
  fetch?: typeof globalThis.fetch;
  /** The clock, in ms. Defaults to `Date.now`. */
  now?: () => number;
  /** Timer functions. Default: the host's. */
  timers?: Timers;
  /** A state from `getState()` or `dehydrate()` (possibly through JSON), e.g. rendered on a server. */
  initialState?: Partial<StoreState>;
  /**
   * How long (ms) a response nobody subscribes to is kept; then it is dropped, and so are the
   * entities nothing references any more. Default 5 minutes; `Infinity` keeps everything.
   */
  gcTime?: number;
  /** Managers attached after the built-in ones (polling, revalidation, garbage collection). */
  managers?: readonly Manager[];
  /**
   * Retries of a failed read whose endpoint sets no `retry`: a count (default 2, so three
   * attempts) or a function `(failures, error) => boolean | delayMs`. `0` turns retries off, e.g.
   * in tests of error states. Mutations retry only when their own endpoint says so.
   */
  retry?: RetryOption;
}

/** Counts of live resources, for tests and debugging. */
export interface ControllerStats {
  /** Active `subscribe()` calls. */
  readonly subscriptions: number;
  /** Pending timers: polling, garbage collection, request timeouts. */
  readonly timers: number;
  /** Store listeners (`addListener`). */
  readonly listeners: number;
  /** Requests started and not settled. */
  readonly inFlight: number;
}

/** What the Controller knows of one store key, as `reads()` lists it. */
export interface ReadRecord {
  /** The store key: method and URL with the query sorted. */
  readonly key: string;
  /** Active `subscribe()` calls for it. */
  readonly subscribers: number;
  /** Its requests started and not settled. */
  readonly inFlight: number;
  /** When it was last written, restored, or left by its last subscriber and request; 0: never. */
  readonly lastUsed: number;
  /** The endpoint and args it was last subscribed to or requested with: how to read it again. */
  readonly shown?: { readonly endpoint: EndpointLike; readonly args: readonly unknown[] };
}

/** A request in flight, as `inFlight()` lists it. */
export interface InFlightRequest {
  /** The same id as its `request` events. */
  readonly id: number;
  readonly endpoint: EndpointLike;
  readonly args: readonly unknown[];
  /** The store key its response lands on. */
  readonly key: string;
  /** When it was sent; Infinity while it waits to be (a queued mutation, a wait between tries). */
  readonly startedAt: number;
}

const DEFAULT_GC_TIME = 5 * 60_000;
const ignore = (): void => {};

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
  readonly events = new ControllerEvents();

  readonly #store: Store;
  readonly #memo = new MemoCache();
  readonly #now: () => number;
  readonly #timers: CountedTimers;
  readonly #requests: RequestTracker;
  readonly #optimistic: OptimisticQueue;
  /** One record per store key. */
  readonly #entries = new KeyEntries();
  readonly #detach: (() => void)[] = [];
  /** Aborted by `dispose()`: retries stop. */
  readonly #life = new AbortController();
  #subscriptionCount = 0;
  /** What `online()` / `offline()` said last: retries wait while the network is away. */
  #online = true;
  readonly #runner: RequestRunner;

  constructor(options: ControllerOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#timers = countTimers(options.timers ?? defaultTimers());
    this.#requests = new RequestTracker(this.#now);
    this.#optimistic = new OptimisticQueue(this.#memo, this.#now);
    if ((typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production') {
      checkOptions({ name: 'Controller', retry: options.retry });
    }
    const retryEnv: RetryEnv = {
      readRetry: options.retry ?? DEFAULT_RETRY,
      stopped: this.#life.signal,
      timers: this.#timers,
      now: this.#now,
      isOnline: () => this.#online,
      whenOnline: (callback) => {
        const stop = this.events.subscribe((event) => {
          if (event.type !== 'online') return;
          stop();
          callback();
        });
        return stop;
      },
    };
    this.#store = new Store(
      restoreState(options.initialState),
      (base, owned, log) => this.#optimistic.replay(base, owned, log),
      (action, state) => this.#committed(action, state),
    );
    this.#runner = new RequestRunner({
      store: this.#store,
      memo: this.#memo,
      requests: this.#requests,
      optimistic: this.#optimistic,
      events: this.events,
      entries: this.#entries,
      now: this.#now,
      fetch: options.fetch,
      timers: this.#timers,
      retryEnv,
    });
    this.#used(this.#store.committed);
    const gcTime = options.gcTime ?? DEFAULT_GC_TIME;
    const managers: Manager[] = [new PollingManager(), new ConnectivityManager()];
    if (Number.isFinite(gcTime)) managers.push(new GcManager(gcTime));
    try {
      for (const manager of [...managers, ...(options.managers ?? [])]) {
        this.#detach.push(manager.attach(this));
      }
    } catch (error) {
      // Nobody will hold this controller to dispose it: what attached must not run on.
      this.dispose();
      throw error;
    }
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
   * One record per store key the Controller knows: its subscribers, and how it was last read. The
   * same records the Controller keeps, read-only: what managers and devtools use.
   * @example for (const read of controller.reads()) if (read.subscribers > 0) console.log(read.key);
   */
  reads(): IterableIterator<ReadRecord> {
    return this.#entries.values();
  }

  // ---- Requests ----

  /**
   * Runs `endpoint(...args)`, commits the normalized result and resolves with the denormalized
   * value. Identical GETs in flight share one request; mutations always run. On failure the
   * error is stored for readers (data and entities stay as they were) and the promise rejects.
   * @example const todos = await controller.fetch(TodoResource.getList, { userId: 1 });
   */
  fetch<E extends EndpointLike>(endpoint: E, ...args: Parameters<E>): Promise<Resolved<E>> {
    return this.#runner.run(endpoint, args, false, true) as Promise<Resolved<E>>;
  }

  /**
   * Like `fetch`, but always sends a new request, even when an identical one is in flight: what
   * a "reload" button means, and what a read needs after its headers changed (a new token). The
   * new request's answer is the newer one: an older answer arriving after it is dropped.
   * @example await controller.refetch(MeResource.get);
   */
  refetch<E extends EndpointLike>(endpoint: E, ...args: Parameters<E>): Promise<Resolved<E>> {
    return this.#runner.run(endpoint, args, true, true) as Promise<Resolved<E>>;
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
    return this.#ifNeeded(endpoint, args, false) as Promise<Resolved<E>> | undefined;
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
    return this.#ifNeeded(endpoint, args, true) as Promise<Resolved<E>> | undefined;
  }

  #ifNeeded(
    endpoint: EndpointLike,
    args: readonly unknown[],
    ignoreError: boolean,
  ): Promise<unknown> | undefined {
    let requestKey: string;
    try {
      requestKey = endpoint.key(...args);
    } catch (error) {
      return this.#background(Promise.reject(error));
    }
    if (!endpoint.sideEffect && this.#requests.shared(requestKey)) return undefined;
    const info = this.getResponse(endpoint, ...(args as never[]));
    if (info.expiryStatus === ExpiryStatus.Valid) return undefined;
    if (!ignoreError && info.error !== undefined) return undefined;
    return this.#background(this.#runner.run(endpoint, args, false, false));
  }

  /** A request nobody awaits for sure: its rejection is handled here. */
  #background(promise: Promise<unknown>): Promise<unknown> {
    promise.catch(ignore);
    return promise;
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
    const key = storeKey(endpoint, args);
    const info = readResponse(this.#store.visible, this.#memo, endpoint, args, this.#now());
    return this.#entries.of(key).sameRead(info) as ResponseInfo<Resolved<E>>;
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
    return new ResponseObserver<E>(this, endpoint, args);
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
    if (!isEndpoint(target)) {
      this.set(new Invalidate(target), args[0]);
      return;
    }
    const key = storeKey(target, args);
    // Before the store is told (its readers may ask again at once), and also when it holds
    // nothing to mark (a first read, one invalidated already): a read in flight was sent before
    // the caller's reason to invalidate (a new token, say).
    this.#outdate(key);
    this.#store.dispatch({ type: 'invalidate', keys: [key] });
  }

  /**
   * Invalidates every stored response whose key passes `test`.
   * @example controller.invalidateAll((key) => key.startsWith('GET /todos'));
   */
  invalidateAll(test: (key: string) => boolean): void {
    const keys = Object.keys(this.#store.committed.meta).filter((key) => test(key));
    if (keys.length > 0) this.#store.dispatch({ type: 'invalidate', keys });
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
    this.#store.dispatch({
      type: 'entities/set',
      schema,
      value,
      fetchedAt: this.#requests.stamp(),
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
    const args = argsAndResponse.slice(0, -1);
    const response = argsAndResponse[argsAndResponse.length - 1];
    const key = storeKey(endpoint, args);
    if ((typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production')
      checkOptions(endpoint);
    const now = this.#now();
    // Numbered before listeners hear of it: a request one of them starts then is the newer.
    const seq = this.#requests.nextSeq();
    this.#store.dispatch({
      type: 'response/set',
      key,
      schema: endpoint.schema,
      args: storeArgs(endpoint, args),
      response,
      fetchedAt: this.#requests.stamp(),
      date: now,
      expiresAt: dataExpiresAt(endpoint, now),
      keepError: false,
      settles: undefined,
    });
    const entry = this.#entries.of(key);
    entry.dataSeq = Math.max(entry.dataSeq, seq);
  }

  /**
   * Applies a store action as it is: for managers (a logger replaying, a sync source). Returns
   * false when it changed nothing.
   * @example controller.dispatch({ type: 'invalidate', keys: ['GET /todos'] });
   */
  dispatch(action: Action): boolean {
    return this.#store.dispatch(action);
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
   * arrive (their callers' promises still settle); reads nobody awaits are aborted.
   * @example logoutButton.onclick = () => controller.resetEntireStore();
   */
  resetEntireStore(): void {
    this.#requests.reset();
    this.#store.dispatch({ type: 'reset', date: this.#now() });
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
    const key = storeKey(endpoint, args);
    const entry = this.#entries.of(key);
    entry.subscribers++;
    entry.shown = { endpoint, args };
    this.#subscriptionCount++;
    const emit = (phase: 'add' | 'remove') =>
      this.events.emit({
        type: 'subscription',
        phase,
        endpoint,
        args,
        key,
        count: entry.subscribers,
      });
    emit('add');
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      entry.subscribers--;
      this.#subscriptionCount--;
      emit('remove');
      if (entry.idle) entry.lastUsed = this.#now();
      // Checked a microtask later: an element moved in the DOM leaves and comes back at once.
      if (entry.subscribers === 0) {
        queueMicrotask(() => {
          if (entry.subscribers === 0) this.#requests.abortUnneeded(key);
        });
      }
    };
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
    this.#life.abort();
    for (const detach of this.#detach.splice(0)) detach();
  }

  /**
   * The requests started and not settled, oldest first: for devtools and progress displays that
   * attach while requests run (later ones are announced on `events`).
   * @example controller.inFlight().map((request) => request.key)
   */
  inFlight(): InFlightRequest[] {
    return [...this.#requests.running()].map(({ seq, endpoint, args, key, startedAt }) => ({
      id: seq,
      endpoint,
      args,
      key,
      startedAt,
    }));
  }

  /**
   * Counts of what is alive, for tests and debugging.
   * @example assert.equal(controller.stats().timers, 0);
   */
  stats(): ControllerStats {
    return {
      subscriptions: this.#subscriptionCount,
      timers: this.#timers.pending,
      listeners: this.#store.size,
      inFlight: this.#requests.size,
    };
  }

  // ---- Bookkeeping ----

  /** Every committed action: keep the per-key records in step, then tell the managers. */
  #committed(action: Action, state: StoreState): void {
    if (action.type === 'reset') {
      // Every read is void, even one that looks the same (pending before, pending after): a
      // reader waiting for a request whose answer will now be dropped must see a new read.
      for (const [key, entry] of this.#entries) {
        if (entry.idle) this.#entries.delete(key);
        else {
          entry.dataSeq = entry.errorSeq = entry.failures = 0;
          entry.forgetReads();
        }
      }
    } else if (action.type === 'response/set' || action.type === 'response/error') {
      this.#entries.of(action.key).lastUsed = this.#now();
    } else if (action.type === 'hydrate') {
      this.#used(action.state);
    } else if (action.type === 'invalidate') {
      for (const key of action.keys) if (getOwn(state.meta, key)?.invalidated) this.#outdate(key);
    } else if (action.type === 'gc') {
      for (const [key, entry] of this.#entries) {
        if (entry.idle && getOwn(state.meta, key) === undefined && !getOwn(state.errors, key)) {
          this.#entries.delete(key);
        }
      }
    }
    this.events.emit({ type: 'action', action, state });
  }

  /** A restored response is as good as new: its keys count as used now (GC gives them time). */
  #used(state: StoreState): void {
    const now = this.#now();
    for (const key of storedKeys(state)) this.#entries.of(key).lastUsed = now;
  }

  /**
   * A read of `key` in flight left before an invalidation: its answer is dropped, and the read is
   * sent again instead of joined (or aborted, when nobody awaits it).
   */
  #outdate(key: string): void {
    this.#entries.of(key).dataSeq = this.#requests.nextSeq();
    this.#requests.abortUnneeded(key, true);
  }
}
