/**
 * Every change of the store is one of these actions, applied by `reduce` (reducer.ts). Actions
 * may carry non-data (a schema), the state they produce never does.
 */
import type { EndpointLike } from '../protocol/types.js';
import type { OptimisticEntry, StoreState } from './state.js';

/** Commits a response: normalizes it into the entity tables and stores its result under `key`. */
export interface SetResponseAction {
  readonly type: 'response/set';
  readonly key: string;
  /** undefined stores the response as it is. */
  readonly schema: unknown;
  /** The arguments normalization sees (without a pagination field). */
  readonly args: readonly unknown[];
  /** `NOT_MODIFIED` keeps the stored result and entities as they are, fresh again. */
  readonly response: unknown;
  readonly fetchedAt: number;
  readonly date: number;
  readonly expiresAt: number;
  /** The answer's ETag or Last-Modified, kept in its meta. */
  readonly validator?: string | undefined;
  /** True when a newer attempt failed: its error stays shown over this older data. */
  readonly keepError?: boolean | undefined;
  /** The optimistic entry of the request that settled, removed in the same change. */
  readonly settles?: number | undefined;
}

/** Records a failed attempt; data and entities stay as they were. */
export interface SetErrorAction {
  readonly type: 'response/error';
  readonly key: string;
  readonly error: unknown;
  readonly fetchedAt: number;
  readonly expiresAt: number;
  readonly settles?: number | undefined;
}

/**
 * Writes entities without a response: pushed or synced data. `schema` says how `value` is
 * normalized (an Entity class, `[Entity]`, `schema.Invalidate(Entity)` with a pk…).
 */
export interface SetEntitiesAction {
  readonly type: 'entities/set';
  readonly schema: unknown;
  readonly value: unknown;
  readonly fetchedAt: number;
  readonly date: number;
  readonly expiresAt: number;
}

/** Queues an optimistic update. */
export interface AddOptimisticAction {
  readonly type: 'optimistic/add';
  readonly entry: OptimisticEntry;
  /**
   * Whose `getOptimisticResponse` the store replays for the entry, until it settles; without
   * one, the entry is queued but shows nothing.
   */
  readonly endpoint?: EndpointLike | undefined;
}

/** Removes an optimistic update whose response is dropped (it arrived too late to commit). */
export interface RemoveOptimisticAction {
  readonly type: 'optimistic/remove';
  readonly id: number;
}

/** Marks responses unshowable until fetched again. */
export interface InvalidateAction {
  readonly type: 'invalidate';
  readonly keys: readonly string[];
  /**
   * The entities (`[key, pk]`) those responses brought: stale from now on for a read served from
   * the stored entity (one with no response of its own), which is fetched again.
   */
  readonly entities?: readonly (readonly [string, string])[];
}

/** Empties the store. */
export interface ResetAction {
  readonly type: 'reset';
  readonly date: number;
}

/** Drops unused responses and the entities nothing references. */
export interface GcAction {
  readonly type: 'gc';
  readonly keys: readonly string[];
  /** `[entity key, pk]` pairs. */
  readonly entities: readonly (readonly [string, string])[];
}

/**
 * Merges a state made elsewhere (a server render, another tab, storage) into this one: per
 * response and per entity, whichever was fetched later wins.
 */
export interface HydrateAction {
  readonly type: 'hydrate';
  readonly state: StoreState;
  /** The receiving clock's time: a fetch time after it is taken as it. */
  readonly now?: number;
}

/**
 * Every change the store knows.
 * @example store.dispatch({ type: 'invalidate', keys: ['GET /todos'] });
 */
export type Action =
  | SetResponseAction
  | SetErrorAction
  | SetEntitiesAction
  | AddOptimisticAction
  | RemoveOptimisticAction
  | InvalidateAction
  | ResetAction
  | GcAction
  | HydrateAction;
