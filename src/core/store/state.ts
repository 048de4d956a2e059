/**
 * The shape of the Controller's store. Everything here is plain data (JSON-serializable apart
 * from the INVALID marker), so a state can be persisted, sent from a server and restored.
 */
import { hasOwn } from '../util/own.js';
import type { EntityMetaTable, EntityTable } from '../schema/types.js';
import type { EndpointLike } from '../protocol/types.js';

/** Freshness of one stored response. */
export interface ResponseMeta {
  /** When the response was committed (ms on the controller's clock). */
  readonly date: number;
  /** When the request that brought it was started: orders responses of the same key. */
  readonly fetchedAt: number;
  /** When it goes stale. */
  readonly expiresAt: number;
  /** Set by `invalidate`: the response must not be shown until it is fetched again. */
  readonly invalidated?: true;
  /** The answer's ETag or Last-Modified: what a revalidation asks the server about (`RunContext`). */
  readonly validator?: string;
}

/** The error of the latest failed attempt for a key; kept apart from the data it does not replace. */
export interface ResponseError {
  readonly error: unknown;
  /** When the failed request was started. */
  readonly fetchedAt: number;
  /** Until when the error is shown (and refetching is held back). */
  readonly expiresAt: number;
}

/** A pending optimistic update: replayed over the committed state until its request settles. */
export interface OptimisticEntry {
  /** The request's id, unique per controller. */
  readonly id: number;
  /** The store key the update writes to. */
  readonly key: string;
  /** The call's arguments, as given to `fetch`. */
  readonly args: readonly unknown[];
  /** When the request was started: the optimistic value is as old as the request. */
  readonly fetchedAt: number;
}

/**
 * The whole store.
 * @example
 * const state = controller.getState();
 * localStorage.setItem('store', JSON.stringify(state));
 * new Controller({ initialState: JSON.parse(localStorage.getItem('store')!) });
 */
export interface StoreState {
  readonly entities: EntityTable;
  readonly entitiesMeta: EntityMetaTable;
  /** Normalized results by store key. */
  readonly endpoints: Readonly<Record<string, unknown>>;
  readonly meta: Readonly<Record<string, ResponseMeta>>;
  readonly errors: Readonly<Record<string, ResponseError>>;
  /** Pending optimistic updates, oldest first. */
  readonly optimistic: readonly OptimisticEntry[];
  /** When `resetEntireStore()` last ran: responses to requests started before it are dropped. */
  readonly lastReset: number;
}

/** What a stored response, error or entity may hold as its expiry: a finite "never", so the state stays JSON. */
export const NEVER = Number.MAX_SAFE_INTEGER;
/** How long data stays fresh when its endpoint sets no `dataExpiryLength`. */
export const DEFAULT_DATA_EXPIRY = 60_000;

/**
 * When data `endpoint` brings at `now` goes stale.
 * @example dataExpiresAt(TodoResource.get, Date.now())
 */
export function dataExpiresAt(endpoint: EndpointLike, now: number): number {
  return Math.min(now + (endpoint.dataExpiryLength ?? DEFAULT_DATA_EXPIRY), NEVER);
}

/** The tables of a state, each a record by store key or by entity key. */
export const TABLES = ['endpoints', 'meta', 'errors', 'entities', 'entitiesMeta'] as const;

/**
 * A store with nothing in it.
 * @example const state = emptyState(Date.now());
 */
export function emptyState(lastReset = 0): StoreState {
  return {
    entities: {},
    entitiesMeta: {},
    endpoints: {},
    meta: {},
    errors: {},
    optimistic: [],
    lastReset,
  };
}

/**
 * Fills in what a (possibly older or partial) serialized state lacks. Optimistic entries are
 * dropped: their requests belonged to another controller and will never settle here.
 * @example new Store(restoreState(JSON.parse(saved)), memo, Date.now)
 */
export function restoreState(initial: Partial<StoreState> | undefined): StoreState {
  const state = emptyState(initial?.lastReset ?? 0) as unknown as Record<string, unknown>;
  for (const name of TABLES) state[name] = initial?.[name] ?? state[name];
  return state as unknown as StoreState;
}

/** Every key the state holds anything for, once each. */
export function storedKeys(state: StoreState): string[] {
  const { endpoints, meta, errors } = state;
  // No Set of every key: a GC pass over 10,000 responses spent a tenth of its time on one.
  const keys = Object.keys(meta);
  for (const key of Object.keys(endpoints)) if (!hasOwn(meta, key)) keys.push(key);
  for (const key of Object.keys(errors)) {
    if (!hasOwn(meta, key) && !hasOwn(endpoints, key)) keys.push(key);
  }
  return keys;
}
