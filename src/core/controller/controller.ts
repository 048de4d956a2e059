/**
 * The Controller owns the store and runs endpoints against it: requests and their deduplication,
 * ordering of late responses, expiry, optimistic updates, polling, revalidation and garbage
 * collection. It touches no DOM: fetch, the clock and timers come in through options.
 */
import { MemoCache } from '../normalize/memo-cache.js';
import { normalize, NormalizeError } from '../normalize/normalize.js';
import { INVALID } from '../schema/types.js';
import { getOwn } from '../util/own.js';
import { collectGarbage, storedKeys } from './garbage-collector.js';
import type { ResultShape } from './garbage-collector.js';
import { replayOptimistic } from './optimistic-replay.js';
import { PollGroup } from './poll-group.js';
import type { Interest, PollGroupHost } from './poll-group.js';
import { readResponse, sameResponse } from './read-response.js';
import { restoreState } from '../store/state.js';
import type { OptimisticEntry, StoreState } from '../store/state.js';
import { Store } from '../store/store.js';
import { storeArgs, storeKey } from './store-key.js';
import { defaultTimers, unref } from '../env/timers.js';
import type { Timers } from '../env/timers.js';
import { ExpiryStatus } from '../protocol/types.js';
import type {
  ControllerLike,
  EndpointLike,
  Resolved,
  ResponseInfo,
  RunContext,
} from '../protocol/types.js';

/** Options of `new Controller()`. */
export interface ControllerOptions {
  /** The fetch endpoints run with; endpoints use `globalThis.fetch` when this is not given. */
  fetch?: typeof globalThis.fetch;
  /** The clock, in ms. Defaults to `Date.now`. */
  now?: () => number;
  /** Timer functions. Default: the host's. */
  timers?: Timers;
  /** A state from `getState()` (possibly through JSON), e.g. rendered on a server. */
  initialState?: Partial<StoreState>;
  /**
   * How long (ms) a response nobody subscribes to is kept; then it is dropped, and so are the
   * entities nothing references any more. Default 5 minutes; `Infinity` keeps everything.
   */
  gcTime?: number;
}

/** Counts of live resources, for tests and debugging. */
export interface ControllerStats {
  /** Active `subscribe()` calls. */
  readonly subscriptions: number;
  /** Pending timers: polling and garbage collection. */
  readonly timers: number;
  /** Store listeners (`addListener`). */
  readonly listeners: number;
  /** Requests started and not settled. */
  readonly inFlight: number;
}

const DEFAULT_DATA_EXPIRY = 60_000;
const DEFAULT_ERROR_EXPIRY = 1_000;
/** The longest a soft error backs off. */
const MAX_BACKOFF = 60_000;

/**
 * How long an error is shown before a reader may fetch again, when the endpoint does not say.
 * A client error (4xx but 408 and 429) is the server's answer to this very request: asking again
 * would get it again, so it stays until the read is fetched on purpose (refetch, invalidate, or
 * revalidation on focus and online). Anything else (network, 5xx, 408, 429) may pass: 1 s.
 */
function defaultErrorExpiry(error: unknown): number {
  const status = (error as { status?: unknown } | null)?.status;
  const clientError =
    typeof status === 'number' && status >= 400 && status < 500 && status !== 408 && status !== 429;
  // A finite "never", so the state stays JSON (Infinity would come back as null).
  return clientError ? Number.MAX_SAFE_INTEGER : DEFAULT_ERROR_EXPIRY;
}
const DEFAULT_GC_TIME = 5 * 60_000;
/** How many differing reads of one key keep their identity (readers of one key with different endpoints). */
const READS_PER_KEY = 4;

/** One running request. */
interface Request {
  /** Start order: larger is newer. Orders responses independently of the clock's resolution. */
  readonly seq: number;
  readonly startedAt: number;
  readonly endpoint: EndpointLike;
  readonly args: readonly unknown[];
  /** The key the response is stored under, and the args it is normalized with. */
  readonly key: string;
  readonly normalizeArgs: readonly unknown[];
  /** The dedupe key of a GET (the endpoint's own key, pagination field included). */
  readonly requestKey: string;
  /** Its optimistic entry, when it has one. */
  readonly optimistic: number | undefined;
}

/** The newest request whose data, and whose error, were committed for a key. */
interface Latest {
  data?: number;
  error?: number;
}

const ignore = (): void => {};

/**
 * Puts the request (`GET https://api.test/todos/1`) in front of a normalize error's message, which
 * says what and where in the response but cannot know which request brought it.
 */
function nameRequest(error: unknown, requestKey: string): void {
  if (!(error instanceof NormalizeError) || error.message.startsWith(requestKey)) return;
  error.message = `${requestKey} answered data that does not fit the schema: ${error.message}`;
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
  readonly #store: Store;
  readonly #memo = new MemoCache();
  readonly #context: RunContext;
  readonly #now: () => number;
  readonly #timers: Timers;
  readonly #gcTime: number;

  #seq = 0;
  /** Requests with a smaller seq were started before the last reset. */
  #resetSeq = 0;
  /** GETs in flight by request key, so identical ones share one request. */
  /** Failures in a row per key, for the backoff of soft errors; a success clears it. */
  readonly #failures = new Map<string, number>();
  readonly #inFlight = new Map<
    string,
    { readonly seq: number; readonly promise: Promise<unknown> }
  >();
  #requestCount = 0;
  readonly #latest = new Map<string, Latest>();
  /** Endpoints of pending optimistic entries (the state holds only their plain data). */
  readonly #optimisticEndpoints = new Map<number, EndpointLike>();
  readonly #reportedOptimistic = new Set<number>();
  /** Last reads by store key, so an unchanged read returns the same object. */
  readonly #reads = new Map<string, ResponseInfo[]>();

  /** Subscribers by request key, each group with its poll timer. */
  readonly #groups = new Map<string, PollGroup>();
  readonly #pollHost: PollGroupHost;
  #subscriptionCount = 0;
  #online = true;

  /** Subscribers and requests in flight per store key: held keys are never collected. */
  readonly #held = new Map<string, number>();
  readonly #lastUsed = new Map<string, number>();
  readonly #shapes = new Map<string, ResultShape>();
  #gcScheduled = false;
  #timerCount = 0;

  constructor(options: ControllerOptions = {}) {
    this.#context = options.fetch ? { fetch: options.fetch } : {};
    this.#now = options.now ?? Date.now;
    this.#timers = options.timers ?? defaultTimers();
    this.#gcTime = options.gcTime ?? DEFAULT_GC_TIME;
    const initial = restoreState(options.initialState);
    this.#store = new Store(initial, (committed) =>
      replayOptimistic(committed, {
        memo: this.#memo,
        now: this.#now(),
        endpointOf: (id) => this.#optimisticEndpoints.get(id),
        onError: (entry, error) => this.#reportOptimisticError(entry, error),
      }),
    );
    this.#pollHost = {
      timers: this.#timers,
      isOnline: () => this.#online,
      poll: (interest) => void this.#background(interest.endpoint, interest.args),
      countTimer: (delta) => (this.#timerCount += delta),
    };
    // A restored response is as good as new: it gets a full gcTime for a reader to claim it.
    const now = this.#now();
    const restored = storedKeys(initial);
    for (const key of restored) this.#lastUsed.set(key, now);
    if (restored.size > 0) this.#scheduleGc();
  }

  // ---- Requests ----

  /**
   * Runs `endpoint(...args)`, commits the normalized result and resolves with the denormalized
   * value. Identical GETs in flight share one request; mutations always run. On failure the
   * error is stored for readers (data and entities stay as they were) and the promise rejects.
   * @example const todos = await controller.fetch(TodoResource.getList, { userId: 1 });
   */
  fetch<E extends EndpointLike>(endpoint: E, ...args: Parameters<E>): Promise<Resolved<E>> {
    return this.#request(endpoint, args, false) as Promise<Resolved<E>>;
  }

  /**
   * Like `fetch`, but always sends a new request, even when an identical one is in flight: what
   * a "reload" button means, and what a read needs after its headers changed (a new token). The
   * new request's answer is the newer one: an older answer arriving after it is dropped.
   * @example await controller.refetch(MeResource.get);
   */
  refetch<E extends EndpointLike>(endpoint: E, ...args: Parameters<E>): Promise<Resolved<E>> {
    return this.#request(endpoint, args, true) as Promise<Resolved<E>>;
  }

  /**
   * Fetches only when the read is missing, stale or invalid, not already in flight, and its
   * last error has expired (so a failing read is not retried on every render). The returned
   * promise never rejects unhandled.
   * @example controller.fetchIfStale(TodoResource.get, { id: 1 });
   */
  fetchIfStale<E extends EndpointLike>(
    endpoint: E,
    ...args: Parameters<E>
  ): Promise<Resolved<E>> | undefined {
    return this.#refetch(endpoint, args, false) as Promise<Resolved<E>> | undefined;
  }

  #refetch(
    endpoint: EndpointLike,
    args: readonly unknown[],
    ignoreError: boolean,
  ): Promise<unknown> | undefined {
    let requestKey: string;
    try {
      requestKey = endpoint.key(...args);
    } catch (error) {
      return this.#background(endpoint, args, error);
    }
    if (!endpoint.sideEffect && this.#inFlight.has(requestKey)) return undefined;
    const info = this.getResponse(endpoint, ...args);
    if (info.expiryStatus === ExpiryStatus.Valid) return undefined;
    if (!ignoreError && info.error !== undefined) return undefined;
    return this.#background(endpoint, args);
  }

  /** A request nobody awaits for sure: its rejection is handled here. */
  #background(
    endpoint: EndpointLike,
    args: readonly unknown[],
    syncError?: unknown,
  ): Promise<unknown> {
    const promise =
      syncError === undefined ? this.#request(endpoint, args, false) : Promise.reject(syncError);
    promise.catch(ignore);
    return promise;
  }

  #request(endpoint: EndpointLike, args: readonly unknown[], force: boolean): Promise<unknown> {
    let requestKey: string;
    let key: string;
    try {
      requestKey = endpoint.key(...args);
      key = storeKey(endpoint, args);
    } catch (error) {
      return Promise.reject(error);
    }
    if (!endpoint.sideEffect && !force) {
      const running = this.#inFlight.get(requestKey);
      if (running) return running.promise;
    }
    const seq = ++this.#seq;
    const normalizeArgs = storeArgs(endpoint, args);
    const request: Request = {
      seq,
      startedAt: this.#now(),
      endpoint,
      args,
      key,
      normalizeArgs,
      requestKey,
      optimistic: endpoint.getOptimisticResponse ? seq : undefined,
    };
    this.#shapes.set(key, { schema: endpoint.schema, args: normalizeArgs });
    this.#hold(key, 1);
    this.#requestCount++;
    if (request.optimistic !== undefined) {
      this.#optimisticEndpoints.set(seq, endpoint);
      this.#store.dispatch({
        type: 'optimistic/add',
        entry: { id: seq, key, args: [...args], fetchedAt: request.startedAt },
      });
    }
    let running: Promise<unknown>;
    try {
      running = Promise.resolve(endpoint.run(args as never, this.#context));
    } catch (error) {
      running = Promise.reject(error);
    }
    const promise = running.then(
      (response) => this.#succeed(request, response),
      (error: unknown) => this.#fail(request, error),
    );
    if (!endpoint.sideEffect) this.#inFlight.set(requestKey, { seq, promise });
    return promise;
  }

  #succeed(request: Request, response: unknown): unknown {
    this.#settled(request);
    const { key, endpoint, seq } = request;
    if (this.#isOutdated(request, 'data')) {
      this.#dropOptimistic(request);
      return this.#uncommittedValue(request, response);
    }
    const now = this.#now();
    const latest = this.#latestOf(key);
    try {
      this.#store.dispatch({
        type: 'response/set',
        key,
        schema: endpoint.schema,
        args: request.normalizeArgs,
        response,
        fetchedAt: request.startedAt,
        date: now,
        expiresAt: now + (endpoint.dataExpiryLength ?? DEFAULT_DATA_EXPIRY),
        keepError: latest.error !== undefined && latest.error > seq,
        settles: request.optimistic,
      });
    } catch (error) {
      // The response does not fit its schema: that is this request's error; nothing was written.
      nameRequest(error, request.requestKey);
      this.#commitError(request, error);
      throw error;
    }
    latest.data = Math.max(latest.data ?? 0, seq);
    this.#failures.delete(key);
    this.#forgetOptimistic(request);
    this.#touch(key);
    return this.#committedValue(request, response);
  }

  #fail(request: Request, error: unknown): never {
    this.#settled(request);
    if (this.#isOutdated(request, 'error')) this.#dropOptimistic(request);
    else this.#commitError(request, error);
    throw error;
  }

  #commitError(request: Request, error: unknown): void {
    const { key, endpoint, seq } = request;
    this.#store.dispatch({
      type: 'response/error',
      key,
      error,
      fetchedAt: request.startedAt,
      expiresAt: this.#now() + this.#errorExpiry(key, endpoint, error),
      settles: request.optimistic,
    });
    const latest = this.#latestOf(key);
    latest.error = Math.max(latest.error ?? 0, seq);
    this.#forgetOptimistic(request);
    this.#touch(key);
  }

  /**
   * How long this error keeps readers from fetching again. A soft error (network, 5xx, 408,
   * 429) backs off: the base (the endpoint's errorExpiryLength, or 1 s) doubles with each failure
   * in a row of the same read, up to a minute, so a page busy with other updates does not hammer
   * a failing server. A client error stays until the read is fetched on purpose.
   */
  #errorExpiry(key: string, endpoint: EndpointLike, error: unknown): number {
    const failures = (this.#failures.get(key) ?? 0) + 1;
    this.#failures.set(key, failures);
    const base = endpoint.errorExpiryLength ?? defaultErrorExpiry(error);
    if (base >= MAX_BACKOFF) return base;
    return Math.min(base * 2 ** (failures - 1), MAX_BACKOFF);
  }

  /**
   * True when a newer outcome is committed: a reset since the request started, or (for reads)
   * data from a request started later. Mutations are not ordered by key: two creates to one
   * URL are different facts, and entity values are ordered by the normalizer.
   */
  #isOutdated(request: Request, outcome: 'data' | 'error'): boolean {
    if (request.seq < this.#resetSeq) return true;
    if (request.endpoint.sideEffect) return false;
    const latest = this.#latest.get(request.key);
    if (!latest) return false;
    if ((latest.data ?? 0) > request.seq) return true;
    return outcome === 'error' && (latest.error ?? 0) > request.seq;
  }

  #latestOf(key: string): Latest {
    let latest = this.#latest.get(key);
    if (!latest) this.#latest.set(key, (latest = {}));
    return latest;
  }

  /** Bookkeeping common to every settled request. */
  #settled(request: Request): void {
    if (this.#inFlight.get(request.requestKey)?.seq === request.seq) {
      this.#inFlight.delete(request.requestKey);
    }
    this.#requestCount--;
    this.#hold(request.key, -1);
  }

  #dropOptimistic(request: Request): void {
    if (request.optimistic === undefined) return;
    this.#store.dispatch({ type: 'optimistic/remove', id: request.optimistic });
    this.#forgetOptimistic(request);
  }

  #forgetOptimistic(request: Request): void {
    if (request.optimistic === undefined) return;
    this.#optimisticEndpoints.delete(request.optimistic);
    this.#reportedOptimistic.delete(request.optimistic);
  }

  #reportOptimisticError(entry: OptimisticEntry, error: unknown): void {
    // Replays run on every change while the request is pending: say it once.
    if (this.#reportedOptimistic.has(entry.id)) return;
    this.#reportedOptimistic.add(entry.id);
    console.error(`getOptimisticResponse for ${entry.key} failed; nothing was applied.`, error);
  }

  /** The value a committed response resolves with: its result, denormalized as readers see it. */
  #committedValue(request: Request, response: unknown): unknown {
    const schema = request.endpoint.schema;
    if (schema === undefined || schema === null) return response;
    const result = getOwn(this.#store.committed.endpoints, request.key);
    const value = this.#memo.denormalize(
      schema,
      result,
      this.#store.visible.entities,
      request.normalizeArgs,
    );
    // A delete's entity is INVALID by design: the caller gets what the endpoint returned.
    return value === INVALID ? response : value;
  }

  /**
   * The value a dropped (late) response resolves with: what it says, read against the store
   * without being committed (entity values newer than it still win).
   */
  #uncommittedValue(request: Request, response: unknown): unknown {
    const schema = request.endpoint.schema;
    if (schema === undefined || schema === null) return response;
    try {
      const scratch = normalize(schema, response, request.normalizeArgs, this.#store.visible, {
        fetchedAt: request.startedAt,
        date: this.#now(),
        expiresAt: 0,
      });
      const value = this.#memo.denormalize(
        schema,
        scratch.result,
        scratch.entities,
        request.normalizeArgs,
      );
      return value === INVALID ? response : value;
    } catch {
      return response;
    }
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
    if (!this.#shapes.has(key)) {
      this.#shapes.set(key, { schema: endpoint.schema, args: storeArgs(endpoint, args) });
    }
    const info = readResponse(this.#store.visible, this.#memo, endpoint, args, this.#now());
    const previous = this.#reads.get(key);
    const same = previous?.find((candidate) => sameResponse(candidate, info));
    if (same) return same as ResponseInfo<Resolved<E>>;
    this.#reads.set(key, [info, ...(previous ?? [])].slice(0, READS_PER_KEY));
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
   * The committed state (pending optimistic updates are listed, not applied): plain data to
   * persist or to give to `new Controller({ initialState })`.
   * @example const json = JSON.stringify(controller.getState());
   */
  getState(): StoreState {
    return this.#store.snapshot();
  }

  // ---- Writes ----

  /**
   * Makes the response of `endpoint(...args)` unshowable until it is fetched again.
   * @example controller.invalidate(TodoResource.get, { id: 1 });
   */
  invalidate<E extends EndpointLike>(endpoint: E, ...args: Parameters<E>): void {
    this.#store.dispatch({ type: 'invalidate', keys: [storeKey(endpoint, args)] });
  }

  /**
   * Invalidates every stored response whose key passes `test`.
   * @example controller.invalidateAll((key) => key.startsWith('GET /todos'));
   */
  invalidateAll(test: (key: string) => boolean): void {
    const keys = [...storedKeys(this.#store.committed)].filter((key) => test(key));
    if (keys.length > 0) this.#store.dispatch({ type: 'invalidate', keys });
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
    const normalizeArgs = storeArgs(endpoint, args);
    const seq = ++this.#seq;
    const now = this.#now();
    const latest = this.#latestOf(key);
    this.#store.dispatch({
      type: 'response/set',
      key,
      schema: endpoint.schema,
      args: normalizeArgs,
      response,
      fetchedAt: now,
      date: now,
      expiresAt: now + (endpoint.dataExpiryLength ?? DEFAULT_DATA_EXPIRY),
      keepError: false,
      settles: undefined,
    });
    latest.data = seq;
    this.#shapes.set(key, { schema: endpoint.schema, args: normalizeArgs });
    this.#touch(key);
  }

  /**
   * Empties the store. Responses to requests started before the reset are dropped when they
   * arrive (their callers' promises still settle).
   * @example logoutButton.onclick = () => controller.resetEntireStore();
   */
  resetEntireStore(): void {
    this.#resetSeq = ++this.#seq;
    // New requests must not join one whose response will be dropped.
    this.#inFlight.clear();
    this.#latest.clear();
    this.#failures.clear();
    // Every read is void, even one that looks the same (pending before, pending after): a reader
    // waiting for a request whose answer will now be dropped must see a new read and fetch again.
    this.#reads.clear();
    this.#store.dispatch({ type: 'reset', date: this.#now() });
  }

  // ---- Listeners and subscriptions ----

  /**
   * Calls `listener` once per committed change. Returns the function that removes it.
   * @example const remove = controller.addListener(() => host.requestUpdate());
   */
  addListener(listener: () => void): () => void {
    return this.#store.subscribe(() => listener());
  }

  /**
   * Declares interest in `endpoint(...args)`: keeps it from garbage collection, polls it at the
   * endpoint's `pollFrequency` (one timer per request, at the smallest frequency of its
   * subscribers) and refetches it on `online()`/`focus()` when stale. Returns the function that
   * ends the interest.
   * @example
   * const unsubscribe = controller.subscribe(PriceResource.get, { symbol: 'BTC' });
   * // later
   * unsubscribe();
   */
  subscribe<E extends EndpointLike>(endpoint: E, ...args: Parameters<E>): () => void {
    const requestKey = endpoint.key(...args);
    const key = storeKey(endpoint, args);
    this.#shapes.set(key, { schema: endpoint.schema, args: storeArgs(endpoint, args) });
    let group = this.#groups.get(requestKey);
    if (!group) this.#groups.set(requestKey, (group = new PollGroup(this.#pollHost)));
    const owner = group;
    const interest: Interest = { endpoint, args };
    const leave = owner.subscribe(interest);
    this.#subscriptionCount++;
    this.#hold(key, 1);
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      leave();
      this.#subscriptionCount--;
      if (owner.size === 0 && this.#groups.get(requestKey) === owner) {
        this.#groups.delete(requestKey);
      }
      this.#hold(key, -1);
    };
  }

  /**
   * The network is back: polling resumes and stale or invalid subscribed reads are fetched.
   * @example addEventListener('online', () => controller.online());
   */
  online(): void {
    this.#online = true;
    for (const group of this.#groups.values()) group.update();
    this.#revalidate();
  }

  /**
   * The network is gone: polling pauses until `online()`.
   * @example addEventListener('offline', () => controller.offline());
   */
  offline(): void {
    this.#online = false;
    for (const group of this.#groups.values()) group.update();
  }

  /**
   * The page is shown again: stale or invalid subscribed reads are fetched.
   * @example document.addEventListener('visibilitychange', () => document.hidden || controller.focus());
   */
  focus(): void {
    if (this.#online) this.#revalidate();
  }

  #revalidate(): void {
    for (const group of this.#groups.values()) {
      const interest = group.first;
      // A user coming back expects a retry even if the last attempt failed moments ago.
      if (interest) this.#refetch(interest.endpoint, interest.args, true);
    }
  }

  /**
   * Counts of what is alive, for tests and debugging.
   * @example assert.equal(controller.stats().timers, 0);
   */
  stats(): ControllerStats {
    return {
      subscriptions: this.#subscriptionCount,
      timers: this.#timerCount,
      listeners: this.#store.size,
      inFlight: this.#requestCount,
    };
  }

  // ---- Garbage collection ----

  #hold(key: string, delta: 1 | -1): void {
    const count = (this.#held.get(key) ?? 0) + delta;
    if (count > 0) {
      this.#held.set(key, count);
      return;
    }
    this.#held.delete(key);
    // Unused from now on: its gcTime starts here.
    this.#touch(key);
  }

  #touch(key: string): void {
    this.#lastUsed.set(key, this.#now());
    this.#scheduleGc();
  }

  /**
   * Arms the collection timer unless it is armed: it is armed only while something may become
   * collectable (a write, or a key left by its last user), and disarms itself when nothing is.
   */
  #scheduleGc(at = this.#now() + this.#gcTime): void {
    if (this.#gcScheduled || !Number.isFinite(this.#gcTime)) return;
    this.#gcScheduled = true;
    this.#timerCount++;
    const handle = this.#timers.setTimeout(
      () => {
        this.#gcScheduled = false;
        this.#timerCount--;
        this.#collect();
      },
      Math.max(0, at - this.#now()),
    );
    unref(handle);
  }

  #collect(): void {
    const committed = this.#store.committed;
    const visible = this.#store.visible;
    const optimistic = [];
    for (const entry of committed.optimistic) {
      const endpoint = this.#optimisticEndpoints.get(entry.id);
      if (endpoint) {
        optimistic.push({
          key: entry.key,
          shape: { schema: endpoint.schema, args: storeArgs(endpoint, entry.args) },
        });
      }
    }
    const collected = collectGarbage({
      committed,
      visible,
      now: this.#now(),
      gcTime: this.#gcTime,
      isHeld: (key) => this.#held.has(key),
      heldKeys: () => this.#held.keys(),
      lastUsed: (key) => this.#lastUsed.get(key) ?? 0,
      shapeOf: (key) => this.#shapes.get(key),
      optimistic,
      optimisticReads: this.#store.optimisticReads,
    });
    this.#store.dispatch({ type: 'gc', keys: collected.keys, entities: collected.entities });
    this.#forgetUnusedKeys();
    if (collected.nextRun !== undefined) this.#scheduleGc(collected.nextRun);
  }

  /** Drops the controller's own per-key records of keys the store no longer holds. */
  #forgetUnusedKeys(): void {
    const stored = storedKeys(this.#store.committed);
    const keep = (key: string): boolean => stored.has(key) || this.#held.has(key);
    for (const map of [
      this.#lastUsed,
      this.#shapes,
      this.#latest,
      this.#reads,
      this.#failures,
    ] as Map<string, unknown>[]) {
      for (const key of map.keys()) if (!keep(key)) map.delete(key);
    }
  }
}
