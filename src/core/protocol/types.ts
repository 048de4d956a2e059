/**
 * The contract between endpoints, the Controller and the Lit layer. RestEndpoint implements
 * EndpointLike; Controller implements ControllerLike; ResourceController uses only ControllerLike.
 */
import type { Schema, EntityClass, EntityTable } from '../schema/types.js';
import type { Timers } from '../env/timers.js';

/** How fresh a read is. */
export const ExpiryStatus = {
  /** Fresh: show it. */
  Valid: 'valid',
  /** Past `expiresAt`: show it while it is fetched again. */
  Stale: 'stale',
  /** Must not be shown: never fetched, invalidated, or a required entity is INVALID. */
  Invalid: 'invalid',
} as const;
/** One of the values of `ExpiryStatus`: `'valid'`, `'stale'` or `'invalid'`. */
export type ExpiryStatus = (typeof ExpiryStatus)[keyof typeof ExpiryStatus];

/**
 * What `run` resolves with when a 304 answered the `validator` its context gave: the stored
 * answer still holds, and nothing was read from the body.
 */
export const NOT_MODIFIED: unique symbol = Symbol();

/** What `Controller.getResponse` returns. The same object comes back while nothing in it changed. */
export interface ResponseInfo<T = unknown> {
  /** The denormalized value (Entity instances), or undefined when there is none to show. */
  readonly data: T | undefined;
  readonly expiryStatus: ExpiryStatus;
  /** When the data goes stale (ms on the controller's clock); 0 when there is none. */
  readonly expiresAt: number;
  /** The error of the latest attempt, while it has not expired; undefined otherwise. */
  readonly error: unknown;
}

/**
 * The environment a request runs in: the Controller passes its own `fetch` and timers, and a
 * signal that aborts the request when nobody needs its answer any more.
 */
export interface RunContext {
  /** The fetch to send with; `globalThis.fetch` when undefined. */
  readonly fetch?: typeof globalThis.fetch;
  /** Aborts the request. */
  readonly signal?: AbortSignal;
  /** The timers a timeout runs on (fake in tests). */
  readonly timers?: Timers;
  /**
   * For a run that waits before it sends (a queued mutation): `sending(Infinity)` as it starts to
   * wait keeps its optimistic update above every read until then; `sending()` as it sends dates
   * the request (its answer and its optimistic update) now, newer than the reads made meanwhile.
   */
  readonly sending?: (at?: number) => void;
  /**
   * A read's validator, from the answer the store holds: an ETag (sent as `If-None-Match`) or a
   * date (`If-Modified-Since`). A 304 to it resolves `run` with `NOT_MODIFIED`. `run` sets it to
   * the `ETag` or `Last-Modified` of the answer it resolves with: a context given again asks.
   */
  validator?: string | undefined;
}

/** Read access to the store for `getOptimisticResponse`. */
export interface Snapshot {
  /** The stored entity of `entity` whose pk is computed from `props`, denormalized; or undefined. */
  get<E extends EntityClass>(entity: E, props: object): InstanceType<E> | undefined;
  /** Reads an endpoint's response as the store holds it now. */
  getResponse<E extends EndpointLike>(
    endpoint: E,
    ...args: Parameters<E>
  ): ResponseInfo<Resolved<E>>;
  /** The controller's clock when the optimistic update is applied. */
  readonly fetchedAt: number;
  /** Throw this from getOptimisticResponse to apply nothing. */
  readonly abort: Error;
}

/**
 * How a failed request is tried again: a number of retries (for network errors, 5xx, 408 and
 * 429 only), or a function of the failures so far (this one included) and the last error that
 * returns false to stop, true to retry after the usual backoff, or a delay in ms.
 * @example { retry: 5 }
 * @example { retry: (failures, error) => failures < 3 && (error as NetworkError).status === 503 }
 */
export type RetryOption = number | ((failures: number, error: unknown) => boolean | number);

/** What the Controller needs from an endpoint. */
// `Args` defaults to `any`, not `any[]`: TypeScript 5.0-5.3 do not take `any[]` as the arguments
// of an endpoint whose arguments are a union of tuples (`push`: `(params, body) | (body)`).
export interface EndpointLike<Args extends readonly any[] = any, R = any> {
  (...args: Args): Promise<R>;
  readonly name: string;
  /** How the response is normalized; undefined stores it as it is. */
  readonly schema?: Schema | undefined;
  /** True for mutations (every method but GET): never deduplicated, results not read back by key. */
  readonly sideEffect: boolean;
  /** METHOD + URL with the query sorted. Identical requests have identical keys. */
  key(...args: Args): string;
  /** Performs the request in `context` and resolves with the processed body (not normalized). */
  run(args: Args, context?: RunContext): Promise<unknown>;
  readonly dataExpiryLength?: number | undefined;
  readonly errorExpiryLength?: number | undefined;
  readonly pollFrequency?: number | undefined;
  readonly invalidIfStale?: boolean | undefined;
  /**
   * Retries of a failed request. Reads default to 2 (three attempts in all); mutations are never
   * retried unless this is set.
   */
  readonly retry?: RetryOption | undefined;
  /**
   * The query parameter that carries the page or cursor. The result of such an endpoint is stored
   * under `key` of its args without that field, i.e. it lands on the list it pages, unless
   * `keepsPage` is true.
   */
  readonly paginationField?: string | undefined;
  /**
   * True: a call that passes `paginationField` is a read of its own, stored under its args as
   * given (RestEndpoint's default; its `getPage` sets false and appends to the list).
   */
  readonly keepsPage?: boolean | undefined;
  // Method syntax on purpose: its parameters compare bivariantly, so an endpoint whose args are a
  // union of tuples still is an EndpointLike for TypeScript 5.0-5.3 (5.4+ accept either).
  /** The value to show at once for a mutation, before the server answers (undefined: none). */
  getOptimisticResponse?(snapshot: Snapshot, ...args: Args): unknown;
  /**
   * For a read made of the store alone (a query, `resource-elements/query`): its data, read from
   * `state` through the store's `memo`, in place of a stored response. Such a read is always
   * fresh, so nothing is fetched for it; it must give the same object while what it shows is the
   * same (readers compare with ===).
   */
  read?(state: { readonly entities: EntityTable }, memo: StoreMemo, key: string, args: Args): R;
}

/** The store's memoized denormalize (its `MemoCache`): the same inputs give the same object. */
export interface StoreMemo {
  /** `input` (pks in place of entities) read by `schema` against `entities`, memoized. */
  denormalize(schema: unknown, input: unknown, entities: EntityTable): unknown;
}

/** The resolved (denormalized) value of an endpoint. */
export type Resolved<E> = E extends EndpointLike<any, infer R> ? R : unknown;

/**
 * A reader's hold on one read, from `ControllerLike.hold`: its store key, built once, and the
 * read's methods without building it again.
 */
export interface Held<E extends EndpointLike = EndpointLike> {
  /** The store key of the read. */
  readonly key: string;
  /** The endpoint it was held with (a hook's endpoint carries its headers). */
  readonly endpoint: E;
  /** `getResponse` of the read. */
  read(): ResponseInfo<Resolved<E>>;
  /** The args it was held with. */
  readonly args: Readonly<Parameters<E>>;
  /** `fetchIfStale` of the read. */
  fetchIfStale(): Promise<Resolved<E>> | undefined;
  /** Whether a request of the read is in flight (the Controller tells listeners when it changes). */
  fetching(): boolean;
  /**
   * `subscribe` to the read, and `listener` is called after a committed change only when the
   * read changed (a new `read()` object, given to it) or could not be read (no argument), and
   * when `fetching()` changed, each since the holder last asked.
   */
  subscribe(listener: (read?: ResponseInfo<Resolved<E>>) => void): () => void;
}

/** The part of the Controller the Lit layer uses. */
export interface ControllerLike {
  /**
   * Holds the read `endpoint(...args)` for a reader: its key is built here, once. Throws as
   * `getResponse` does when the endpoint refuses the args.
   */
  hold<E extends EndpointLike>(endpoint: E, ...args: Parameters<E>): Held<E>;
  /** Runs the endpoint, commits the result, resolves with the denormalized value. */
  fetch<E extends EndpointLike>(endpoint: E, ...args: Parameters<E>): Promise<Resolved<E>>;
  /** Like fetch, but always a new request, even when an identical one is in flight. */
  refetch<E extends EndpointLike>(endpoint: E, ...args: Parameters<E>): Promise<Resolved<E>>;
  /** Fetches only when the data is missing, stale or invalid (and not already in flight). */
  fetchIfStale<E extends EndpointLike>(
    endpoint: E,
    ...args: Parameters<E>
  ): Promise<Resolved<E>> | undefined;
  /** Reads the store; the same object comes back while nothing in it changed (compare with ===). */
  getResponse<E extends EndpointLike>(
    endpoint: E,
    ...args: Parameters<E>
  ): ResponseInfo<Resolved<E>>;
  /**
   * Declares interest in a read while it is shown: keeps it from garbage collection, polls it
   * when the endpoint has `pollFrequency`, and refetches it when stale on online/focus.
   * Returns the function that ends the interest.
   */
  subscribe<E extends EndpointLike>(endpoint: E, ...args: Parameters<E>): () => void;
  /** Called once per committed change of the store. Returns the function that removes it. */
  addListener(listener: () => void): () => void;
  /** The network is back: a revalidation trigger, wired to the window by the Lit layer. */
  online(): void;
  /** The network is gone: polling and retries wait. */
  offline(): void;
  /** The page is shown again: stale subscribed reads are fetched. */
  focus(): void;
  /** Makes one read unshowable at once, so its readers fetch it again (not joining one in flight). */
  invalidate<E extends EndpointLike>(endpoint: E, ...args: Parameters<E>): void;
  /** Invalidates every read whose key passes `test`. */
  invalidateAll(test: (key: string) => boolean): void;
  /** Forgets everything; responses to requests started before it are dropped. */
  resetEntireStore(): void;
  /**
   * What happens in it (requests starting and settling, online/offline), for activity displays;
   * optional for other implementations.
   */
  readonly events?: {
    /** Calls `listener` with every event; returns the function that removes it. */
    subscribe(listener: (event: { readonly type: string }) => void): () => void;
  };
  /** The requests in flight now (optional, like `events`). */
  inFlight?(): readonly { readonly endpoint: EndpointLike }[];
}
