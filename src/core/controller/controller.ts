/**
 * The Controller runs endpoints against one normalized store and keeps one record per store key
 * beside it: who reads the key, its requests in flight, the order of their outcomes, its failures
 * in a row (backoff) and when it was last used. A request's whole life (dedupe, the optimistic
 * entry, attempts and the waits between them, the commit in request order) is here, so a reset or
 * a dispose reaches every part of it. Polling, GC and revalidation are managers that work through
 * the public methods, `events` and the read-only `store`. It touches no DOM: fetch, the clock and
 * timers come in through options.
 */
// Values first, in the order that packs a bundle best (see src/core/index.ts); types after.
import { MemoCache } from '../normalize/memo-cache.js';
import { normalize, NormalizeError } from '../normalize/normalize.js';
import { Denormalizer } from '../normalize/denormalizer.js';
import { visitEntities } from '../normalize/visit-entities.js';
import { INVALID } from '../schema/types.js';
import { Invalidate } from '../schema/invalidate.js';
import { getOwn, hasOwn } from '../util/own.js';
import { shortUrl } from '../util/describe.js';
import { countTimers, defaultTimers, ignore } from '../env/timers.js';
import { checkOptions } from '../protocol/check-options.js';
import { isEndpoint } from '../protocol/is-endpoint.js';
import { isAbortError } from '../protocol/error-policy.js';
import { ExpiryStatus, NOT_MODIFIED } from '../protocol/types.js';
import { dataExpiresAt, DEFAULT_DATA_EXPIRY, restoreState, storedKeys } from '../store/state.js';
import { storeArgs, storeKey } from '../protocol/store-key.js';
import { DEFAULT_RETRY, retryDelay } from './retry.js';
import { readFailure, readResponse, sameResponse } from '../store/read-response.js';
import { errorExpiry } from './expiry.js';
import { Store } from '../store/store.js';
import { ControllerEvents } from './events.js';
import { connectivityManager } from '../managers/connectivity.js';
import { pollingManager } from '../managers/polling.js';
import { gcManager } from '../managers/gc.js';
import { ResponseObserver } from './response-observer.js';
import type { EntityClass } from '../schema/types.js';
import type { CountedTimers, Timers } from '../env/timers.js';
import type {
  ControllerLike,
  EndpointLike,
  Resolved,
  ResponseInfo,
  RetryOption,
  RunContext,
} from '../protocol/types.js';
import type { Action } from '../store/actions.js';
import type { StoreState } from '../store/state.js';
import type { StoreChange, StoreView } from '../store/store.js';
import type { Manager } from './manager.js';

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

/** The record of one store key (what `reads()` shows, and what only the Controller uses). */
interface KeyRecord extends ReadRecord {
  subscribers: number;
  inFlight: number;
  lastUsed: number;
  shown?: ReadRecord['shown'];
  /** The newest request (or `setResponse`, invalidation) whose data counts; 0: none. */
  dataSeq: number;
  /** The newest request whose error was committed; 0: none. */
  errorSeq: number;
  /** Soft failures in a row, for the error's backoff; a success clears it. */
  failures: number;
  /** The last reads handed out, so an unchanged read is the same object. */
  reads: ResponseInfo[];
}

/** A request started and not settled. Its id orders outcomes, whatever the clock's resolution. */
interface Request extends InFlightRequest {
  /** When it was sent (`RunContext.sending` moves it): its answer is as old as that. */
  startedAt: number;
  readonly record: KeyRecord;
  /** The dedupe key of a GET (the endpoint's own key, pagination field included). */
  readonly requestKey: string;
  readonly normalizeArgs: readonly unknown[];
  /** Its id when it has an optimistic entry, which its outcome's action removes. */
  readonly settles?: number | undefined;
  readonly abort: AbortController;
  /** True once a caller awaits it (`fetch`, `refetch`): then only the caller may give it up. */
  awaited: boolean;
  promise?: Promise<unknown>;
  /** Ends the wait before its next attempt, while it waits. */
  wake?: () => void;
  /** For a read: the mutations committed while it is in flight (see `#commit`). */
  created?: Action[];
  /** A read of its own key: the context its run asks with, and keeps, a `validator` in. */
  conditional?: RunContext;
}

/** What `#commit` reads of a request: `setResponse` commits as a request would. */
type Committing = Pick<
  Request,
  'id' | 'endpoint' | 'key' | 'record' | 'normalizeArgs' | 'startedAt' | 'settles' | 'created'
> & { readonly conditional?: RunContext | undefined };

/** How many differing reads of one key keep their identity (readers with different endpoints). */
const READS_PER_KEY = 4;
const idle = (record: KeyRecord): boolean => record.subscribers + record.inFlight === 0;
/** The read of a key that holds nothing: never fetched, nothing to show, no error. */
const NOTHING: ResponseInfo = Object.freeze({
  data: undefined,
  expiryStatus: ExpiryStatus.Invalid,
  expiresAt: 0,
  error: undefined,
});

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
  readonly #memo = new MemoCache();
  readonly #now: () => number;
  readonly #timers: CountedTimers;
  /** What every request's run is given: the `fetch` option (when given) and the timers. */
  readonly #context: RunContext;
  readonly #retry: RetryOption;
  readonly #records = new Map<string, KeyRecord>();
  /** Requests in flight by id, oldest first; an optimistic entry's id is its request's. */
  readonly #running = new Map<number, Request>();
  readonly #detach: (() => void)[] = [];
  #seq = 0;
  /** Requests with a smaller id started before the last reset: their outcome is no one's. */
  #resetSeq = 0;
  #lastStamp = -Infinity;
  #subscriptions = 0;
  /** What `online()` / `offline()` said last: retries wait while the network is away. */
  #online = true;
  /** Set by `dispose()`: no retry starts, and every wait between attempts ends. */
  #disposed = false;

  constructor(options: ControllerOptions = {}) {
    this.events = new ControllerEvents();
    this.#now = options.now ?? Date.now;
    this.#timers = countTimers(options.timers ?? defaultTimers());
    this.#context = { ...(options.fetch && { fetch: options.fetch }), timers: this.#timers };
    this.#retry = options.retry ?? DEFAULT_RETRY;
    if ((typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production') {
      checkOptions({ name: 'Controller', retry: options.retry });
    }
    this.#store = new Store(restoreState(options.initialState), this.#memo, this.#now);
    this.#used(this.#store.committed);
    const gcTime = options.gcTime ?? 5 * 60_000;
    // The defaults live here, not in the provider: a Controller made by hand behaves as one made
    // by <resource-provider>, and `managers` only adds.
    try {
      for (const manager of [
        pollingManager,
        connectivityManager,
        ...(Number.isFinite(gcTime) ? [gcManager(gcTime)] : []),
        ...(options.managers ?? []),
      ]) {
        this.#detach.push(manager.attach(this));
      }
    } catch (error) {
      // Nobody will hold this controller to dispose it: what attached must not run on.
      this.dispose();
      throw error;
    }
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
    return this.#run(endpoint, args, 0) as Promise<Resolved<E>>;
  }

  /**
   * Like `fetch`, but always sends a new request, even when an identical one is in flight: what
   * a "reload" button means, and what a read needs after its headers changed (a new token). The
   * new request's answer is the newer one: an older answer arriving after it is dropped.
   * @example await controller.refetch(MeResource.get);
   */
  refetch<E extends EndpointLike>(endpoint: E, ...args: Parameters<E>): Promise<Resolved<E>> {
    return this.#run(endpoint, args, 1) as Promise<Resolved<E>>;
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
    return this.#run(endpoint, args, 2) as Promise<Resolved<E>> | undefined;
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
    return this.#run(endpoint, args, 3) as Promise<Resolved<E>> | undefined;
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
    const info = readResponse(this.#store.visible, this.#memo, key, endpoint, args, this.#now());
    // A key that holds nothing gets no record: its read is one constant (a new record starts
    // with it too, and a reset empties it, so a reader pending across a reset sees a new read).
    for (const read of this.#records.get(key)?.reads ?? [NOTHING])
      if (sameResponse(read, info)) return read as ResponseInfo<Resolved<E>>;
    const { reads } = this.#record(key);
    if (reads.unshift(info) > READS_PER_KEY) reads.pop();
    return info as ResponseInfo<Resolved<E>>;
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
    if (!isEndpoint(target)) return this.set(new Invalidate(target), args[0]);
    this.#invalidate([storeKey(target, args)]);
  }

  /**
   * Invalidates every read whose key passes `test`: answered, failed (a 401 before a login) or
   * in flight (its answer is dropped). The records hold every key the store does.
   * @example controller.invalidateAll((key) => key.startsWith('GET /todos'));
   */
  invalidateAll(test: (key: string) => boolean): void {
    this.#invalidate([...this.#records.keys()].filter((key) => test(key)));
  }

  /**
   * Invalidates `keys`. Each is outdated once: by `#committed`, before any listener hears of it
   * (its readers may ask again at once), or here when the store held nothing to mark (a first
   * read, one invalidated already): a read in flight was sent before the caller's reason to
   * invalidate (a new token, say).
   */
  #invalidate(keys: string[]): void {
    const { committed } = this.#store;
    const entities: [string, string][] = [];
    // What they brought is no longer fresh for a read served from the stored entity: after a
    // push stream's gap, a read mounted later must not show what the gap missed as fresh.
    for (const key of keys) {
      const shown = this.#records.get(key)?.shown;
      if (shown && hasOwn(committed.endpoints, key)) {
        visitEntities(
          shown.endpoint.schema,
          committed.endpoints[key],
          committed.entities,
          [],
          (type, pk) => entities.push([type, pk]),
        );
      }
    }
    if (keys.length > 0 && !this.dispatch({ type: 'invalidate', keys, entities })) {
      for (const key of keys) this.#outdate(key);
    }
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
      fetchedAt: this.#stamp(),
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
    const key = storeKey(endpoint, args);
    if ((typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production')
      checkOptions(endpoint);
    const record = this.#record(key);
    // Its schema is known from now on (what GC and invalidation walk).
    record.shown = { endpoint, args };
    // Numbered before listeners hear of it: a request one of them starts then is the newer.
    this.#commit(
      {
        id: ++this.#seq,
        endpoint,
        key,
        record,
        normalizeArgs: storeArgs(endpoint, args),
        startedAt: this.#stamp(),
      },
      argsAndResponse.at(-1),
    );
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
      if (state) this.#committed(action, state);
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
    this.#resetSeq = ++this.#seq;
    // Awaited requests and mutations run on: a caller waits for them, and a sent mutation is not
    // undone by an abort. A wait would only end in an answer that is dropped.
    this.#release();
    this.#endWaits();
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
    const key = storeKey(endpoint, args);
    const record = this.#record(key);
    record.shown = { endpoint, args };
    const count = (delta: 1 | -1) => {
      this.#subscriptions += delta;
      record.subscribers += delta;
      this.events.emit({
        type: 'subscription',
        phase: delta > 0 ? 'add' : 'remove',
        endpoint,
        args,
        key,
        count: record.subscribers,
      });
    };
    count(1);
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      count(-1);
      this.#left(record);
      // Checked a microtask later: an element moved in the DOM leaves and comes back at once.
      queueMicrotask(() => record.subscribers || this.#release(key));
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
    this.#disposed = true;
    this.#endWaits();
    for (const detach of this.#detach.splice(0)) detach();
  }

  /**
   * The requests started and not settled, oldest first: for devtools and progress displays that
   * attach while requests run (later ones are announced on `events`). The Controller's own
   * requests, read-only, as `reads()` hands out its records: `startedAt` moves while one waits.
   * @example controller.inFlight().map((request) => request.key)
   */
  inFlight(): InFlightRequest[] {
    return [...this.#running.values()];
  }

  /**
   * Counts of what is alive, for tests and debugging.
   * @example assert.equal(controller.stats().timers, 0);
   */
  stats(): ControllerStats {
    return {
      subscriptions: this.#subscriptions,
      timers: this.#timers.pending,
      listeners: this.#store.size,
      inFlight: this.#running.size,
    };
  }

  // ---- A request's life ----

  /**
   * Sends `endpoint(...args)`, or joins the identical read in flight. `mode`: 0 `fetch`, 1
   * `refetch` (never joins), 2 `fetchIfStale`, 3 `revalidate`: these two send only when the read
   * needs it and nothing is in flight (else undefined), and nobody is assumed to await them (their
   * rejection is handled here).
   */
  #run(
    endpoint: EndpointLike,
    args: readonly unknown[],
    mode: 0 | 1 | 2 | 3,
  ): Promise<unknown> | undefined {
    const awaited = mode < 2;
    // A request nobody awaits for sure: its rejection is handled here.
    const settled = (promise: Promise<unknown>) => (awaited || promise.catch(ignore), promise);
    let requestKey: string;
    let key: string;
    let joined: Request | false | undefined;
    try {
      requestKey = endpoint.key(...args);
      key = storeKey(endpoint, args);
      if ((typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production')
        checkOptions(endpoint);
      joined = !endpoint.sideEffect && mode !== 1 && this.#joinable(requestKey);
      if (!joined && !awaited) {
        // Inside the try: a stored read that cannot be built settles as a rejection, so a loop
        // that revalidates every read goes on past it.
        const { expiryStatus, error } = this.getResponse(endpoint, ...(args as never[]));
        const { committed, visible } = this.#store;
        if (
          expiryStatus === ExpiryStatus.Valid ||
          (mode < 3 && error !== undefined) ||
          // Hidden only by a pending optimistic update (a delete): a read now would bring back
          // what the mutation is taking away.
          (expiryStatus === ExpiryStatus.Invalid &&
            visible !== committed &&
            readResponse(committed, this.#memo, key, endpoint, args, this.#now()).expiryStatus !==
              ExpiryStatus.Invalid)
        ) {
          return undefined;
        }
      }
    } catch (error) {
      return settled(Promise.reject(error));
    }
    if (joined) {
      joined.awaited ||= awaited;
      return awaited ? joined.promise : undefined;
    }
    const id = ++this.#seq;
    const record = this.#record(key);
    const settles = endpoint.getOptimisticResponse && id;
    const request: Request = {
      id,
      endpoint,
      args,
      key,
      startedAt: this.#stamp(),
      record,
      requestKey,
      normalizeArgs: storeArgs(endpoint, args),
      settles,
      abort: new AbortController(),
      awaited,
    };
    this.#running.set(id, request);
    record.inFlight++;
    record.shown = { endpoint, args };
    this.events.emit({ type: 'request', phase: 'start', id, endpoint, args, key });
    /** Dates the request (and its optimistic update, queued again with that date). */
    const sending = (at = this.#stamp()) => {
      request.startedAt = at;
      if (settles) {
        this.dispatch({
          type: 'optimistic/add',
          entry: { id, key, args: [...args], fetchedAt: at },
          endpoint,
        });
      }
    };
    sending(request.startedAt);
    const context: RunContext = {
      ...this.#context,
      signal: request.abort.signal,
      sending,
    };
    // A read of its own key (not a page added to a list) asks whether the stored answer holds.
    if (!endpoint.sideEffect && requestKey === key) {
      request.conditional = context;
      context.validator = getOwn(this.#store.committed.meta, key)?.validator;
    }
    return settled(
      (request.promise = this.#attempts(request, context).then(
        (response) => this.#end(request, response),
        (error: unknown) => this.#end(request, error, true),
      )),
    );
  }

  /**
   * Runs the request until it succeeds or `retryDelay` gives up, rejecting with the last failure:
   * readers see one pending read, and only the last failure is stored. Between attempts it waits
   * on the Controller's timers and, while offline, until `online()`; the wait is dated above every
   * read (`sending(Infinity)`: the server has not applied it) and anew as it ends. An abort (its
   * wait woken) ends it with an AbortError; a reset or `dispose()` with the last failure.
   */
  async #attempts(request: Request, context: RunContext): Promise<unknown> {
    const { endpoint, args } = request;
    const { signal } = request.abort;
    // No more tries: nobody needs it, the Controller is disposed, or a newer outcome (or a reset)
    // is stored, so the next answer would be dropped. Asked before a wait and after it.
    const over = () => signal.aborted || this.#disposed || this.#outdated(request, true);
    for (let failures = 1; ; failures++) {
      try {
        return await endpoint.run(args as never, context);
      } catch (error) {
        const delay = over()
          ? undefined
          : retryDelay(endpoint, failures, error, this.#now, this.#retry);
        if (delay === undefined) throw error;
        context.sending!(Infinity);
        await new Promise<void>((resolve) => {
          let stopWaiting: (() => void) | undefined;
          const end = (request.wake = () => {
            request.wake = undefined;
            context.sending!();
            this.#timers.clearTimeout(handle);
            stopWaiting?.();
            resolve();
          });
          const handle = this.#timers.setTimeout(() => {
            if (this.#online) end();
            else stopWaiting = this.events.subscribe((event) => event.type === 'online' && end());
          }, delay);
        });
        if (over()) throw signal.aborted ? signal.reason : error;
      }
    }
  }

  /**
   * Settles `request` with its answer or (`failed`) its last failure: commits it unless nobody
   * needed it or a newer outcome is stored (then its optimistic update is taken back), tells
   * `events`, and resolves with the value readers see or rejects with the failure.
   */
  #end(request: Request, outcome: unknown, failed?: boolean): unknown {
    const { id, endpoint, args, key, record, requestKey } = request;
    this.#running.delete(id);
    // Aborted because nobody needed it: not the server's word on the read, nothing to store.
    const aborted = failed && request.abort.signal.aborted && isAbortError(outcome);
    // A newer outcome is stored: this failure is not the read's any more, this answer only
    // resolves its caller.
    const outdated = !aborted && this.#outdated(request, failed);
    if (aborted || outdated) {
      // Its outcome is not committed: its optimistic update is taken back.
      if (request.settles) this.dispatch({ type: 'optimistic/remove', id: request.settles });
    } else if (failed) this.#commitError(request, outcome);
    else {
      try {
        this.#commit(request, outcome);
      } catch (error) {
        // The response does not fit its schema: that is this request's error; nothing was
        // written. Its message says what and where; the request that brought it goes in front
        // (what that means is development prose).
        const name = shortUrl(requestKey);
        if (error instanceof NormalizeError && !error.message.startsWith(name)) {
          error.message = `${name}${
            (typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production'
              ? ' answered data that does not fit the schema'
              : ''
          }: ${error.message}`;
        }
        this.#commitError(request, error);
        failed = true;
        outcome = error;
      }
    }
    record.inFlight--;
    this.#left(record);
    let value: unknown;
    if (!failed) {
      try {
        value = this.#value(request, outcome, outdated);
        if (value === INVALID) {
          // Invalid right after its own answer (a required entity in it is INVALID): fetching
          // again would bring the same, so it is this read's error, backed off like any other.
          const lacking = new Denormalizer(this.#store.visible.entities);
          lacking.run(endpoint.schema, getOwn(this.#store.committed.endpoints, key));
          const error = new Error(
            `${shortUrl(requestKey)} answered, but ${lacking.lacks ?? 'its data'} is INVALID`,
          );
          this.#commitError(request, error);
          throw error;
        }
        if (!outdated) record.failures = 0;
      } catch (error) {
        // The event tells what the caller sees.
        failed = true;
        outcome = error;
      }
    }
    this.events.emit({
      type: 'request',
      phase: 'settle',
      id,
      endpoint,
      args,
      key,
      ok: !failed,
      error: failed ? outcome : undefined,
      aborted,
      outdated: outdated || undefined,
    });
    if (failed) throw outcome;
    return value;
  }

  /** Stores `response` as the data of `request`'s key, newer than every request before it. */
  #commit(request: Committing, response: unknown): void {
    const { key, endpoint, id, record } = request;
    // A stamp: a request started after this write is newer than it, even in the same ms.
    const now = this.#stamp();
    const action: Action = {
      type: 'response/set',
      key,
      schema: endpoint.schema,
      args: request.normalizeArgs,
      response,
      fetchedAt: request.startedAt,
      date: now,
      expiresAt: dataExpiresAt(endpoint, now),
      keepError: record.errorSeq > id,
      settles: request.settles,
      validator: request.conditional?.validator,
    };
    this.batch(() => {
      this.dispatch(action);
      // Mutations committed while this read was in flight: the server may have answered it
      // before them (a list without the todo just created), so they apply again over it. As
      // old as they are, they change only what their answer adds (a list member).
      for (const made of request.created ?? []) this.dispatch(made);
    });
    if (record.dataSeq < id) record.dataSeq = id;
    if (endpoint.sideEffect) {
      for (const read of this.#running.values()) {
        if (!read.endpoint.sideEffect) (read.created ??= []).push(action);
      }
    }
  }

  #commitError(request: Request, error: unknown): void {
    const { record } = request;
    this.dispatch({
      type: 'response/error',
      key: request.key,
      error,
      fetchedAt: request.startedAt,
      expiresAt: this.#now() + errorExpiry(request.endpoint, error, ++record.failures),
      settles: request.settles,
    });
    if (record.errorSeq < request.id) record.errorSeq = request.id;
  }

  /**
   * True when a newer outcome is committed: a reset since the request started, or (for reads)
   * data, or with `error` an error too, from a request started later. Mutations are not ordered
   * by key: two creates to one URL are different facts, and entity values are ordered by the
   * normalizer.
   */
  #outdated({ id, endpoint, record }: Request, error?: boolean): boolean {
    return (
      id < this.#resetSeq ||
      (!endpoint.sideEffect && (record.dataSeq > id || (!!error && record.errorSeq > id)))
    );
  }

  /**
   * The value an answer resolves with: its result denormalized as readers see it; when it was
   * not committed (`outdated`), what it says read against the store (entity values newer than it
   * still win), or the answer itself when that cannot be read.
   */
  #value(request: Request, response: unknown, outdated: boolean): unknown {
    const { endpoint, key, normalizeArgs } = request;
    const { schema } = endpoint;
    if (schema === undefined || schema === null) return response;
    const { committed, visible } = this.#store;
    try {
      const { result, entities } =
        outdated && response !== NOT_MODIFIED
          ? normalize(schema, response, normalizeArgs, visible, {
              fetchedAt: request.startedAt,
              date: this.#now(),
              expiresAt: 0,
            })
          : { result: getOwn(committed.endpoints, key), entities: visible.entities };
      const value = this.#memo.denormalize(schema, result, entities);
      // A delete's entity is INVALID by design: the caller gets what the endpoint returned.
      return value === INVALID && (outdated || endpoint.sideEffect) ? response : value;
    } catch (error) {
      if (outdated) return response;
      throw readFailure(error, key);
    }
  }

  // ---- Records ----

  #record(key: string): KeyRecord {
    return (
      this.#records.get(key) ??
      this.#records
        .set(key, {
          key,
          subscribers: 0,
          inFlight: 0,
          lastUsed: 0,
          dataSeq: 0,
          errorSeq: 0,
          failures: 0,
          reads: [NOTHING],
        })
        .get(key)!
    );
  }

  /**
   * A time strictly after every earlier one handed out: two requests started in the same
   * millisecond still order (the normalizer keeps the entity values of the later one).
   */
  #stamp(): number {
    const now = this.#now();
    return (this.#lastStamp = now > this.#lastStamp ? now : this.#lastStamp + 0.001);
  }

  /** Its last subscriber or request left: GC counts its time from now. */
  #left(record: KeyRecord): void {
    if (idle(record)) record.lastUsed = this.#now();
  }

  /**
   * Aborts the reads nobody awaits, of `key` (its last subscriber left, it was invalidated) or of
   * every key (a reset), and ends their waits between attempts. An aborted read is not joined.
   */
  #release(key?: string): void {
    for (const request of this.#running.values()) {
      if (
        !request.awaited &&
        !request.endpoint.sideEffect &&
        (key ?? request.key) === request.key
      ) {
        request.abort.abort();
        request.wake?.();
      }
    }
  }

  /** Ends every wait between attempts: each request fails with its last failure (or aborted). */
  #endWaits(): void {
    for (const request of this.#running.values()) request.wake?.();
  }

  /**
   * The read in flight an identical one (same request key) joins: the newest still the read's,
   * neither aborted nor outdated (by a newer outcome, a reset or an invalidation).
   */
  #joinable(requestKey: string): Request | undefined {
    let found: Request | undefined;
    for (const request of this.#running.values()) {
      if (
        request.requestKey === requestKey &&
        !request.endpoint.sideEffect &&
        !request.abort.signal.aborted &&
        !this.#outdated(request, true)
      ) {
        found = request;
      }
    }
    return found;
  }

  /**
   * A read of `key` in flight left before an invalidation: its answer is dropped, and the read is
   * sent again instead of joined (or aborted, when nobody awaits it).
   */
  #outdate(key: string): void {
    this.#record(key).dataSeq = ++this.#seq;
    this.#release(key);
  }

  /** Every committed action: keep the records in step, then tell the managers. */
  #committed(action: Action, state: StoreState): void {
    const { type } = action;
    if (type === 'reset' || type === 'gc') {
      // A record goes with its key's last trace (a reset leaves none), unless it is in use.
      for (const [key, record] of this.#records) {
        if (idle(record) && !getOwn(state.meta, key) && !getOwn(state.errors, key)) {
          this.#records.delete(key);
        } else if (type === 'reset') {
          // Every read is void, even one that looks the same (pending before, pending after): a
          // reader waiting for a request whose answer will now be dropped must see a new read.
          record.dataSeq = record.errorSeq = record.failures = 0;
          record.reads = [];
        }
      }
    } else if ('key' in action) {
      // A response or an error written (the only actions with one key).
      this.#record(action.key).lastUsed = this.#now();
    } else if (type === 'hydrate') {
      this.#used(action.state);
    } else if (type === 'invalidate') {
      for (const key of action.keys) this.#outdate(key);
    }
    this.events.emit({ type: 'action', action, state });
  }

  /** A restored response is as good as new: its keys count as used now (GC gives them time). */
  #used(state: StoreState): void {
    const now = this.#now();
    for (const key of storedKeys(state)) this.#record(key).lastUsed = now;
  }
}
