/**
 * The one function that changes the store. The same state and action give the same next state,
 * unchanged parts keep their identity, and an action that changes nothing returns the state
 * itself (so no listener is notified). It may throw (a response that does not fit its schema);
 * the state is then unchanged. Entity tables listed in `owned` (held by the store alone) are
 * updated in place, so one update does not cost a copy of a table of 100,000 entities; every
 * other part is copied on write.
 */
import { normalize } from '../normalize/normalize.js';
import type { EntityMetaTable, EntityTable, NormalizedStore } from '../schema/types.js';
import { getOwn, hasOwn, setOwn } from '../util/own.js';
import type { Action, GcAction, SetErrorAction, SetResponseAction } from './actions.js';
import { emptyState } from './state.js';
import type { OptimisticEntry, ResponseError, ResponseMeta, StoreState } from './state.js';

/**
 * Applies `action` to `state`.
 * @example const next = reduce(state, { type: 'reset', date: Date.now() });
 */
export function reduce(state: StoreState, action: Action, owned?: WeakSet<object>): StoreState {
  switch (action.type) {
    case 'response/set':
      return setResponse(state, action, owned);
    case 'response/error':
      return setError(state, action);
    case 'optimistic/add':
      return { ...state, optimistic: [...state.optimistic, action.entry] };
    case 'optimistic/remove':
      return removeOptimistic(state, action.id);
    case 'invalidate':
      return invalidate(state, action.keys);
    case 'reset':
      return emptyState(action.date);
    case 'gc':
      return collect(state, action);
  }
}

function setResponse(
  state: StoreState,
  action: SetResponseAction,
  owned: WeakSet<object> | undefined,
): StoreState {
  const { key, schema, args, response, fetchedAt, date, expiresAt } = action;
  let store: NormalizedStore = state;
  let result = response;
  if (schema !== undefined && schema !== null) {
    const normalized = normalize(
      schema,
      response,
      args,
      state,
      { fetchedAt, date, expiresAt },
      { owned },
    );
    store = normalized;
    result = normalized.result;
  }
  const meta: ResponseMeta = { date, fetchedAt, expiresAt };
  // A success clears the error of an older attempt; a newer failed attempt stays shown.
  const errors = action.keepError ? state.errors : without(state.errors, key);
  return {
    ...state,
    entities: store.entities,
    entitiesMeta: store.entitiesMeta,
    endpoints: withKey(state.endpoints, key, result),
    meta: withKey(state.meta, key, meta),
    errors,
    optimistic: settle(state.optimistic, action.settles),
  };
}

function setError(state: StoreState, action: SetErrorAction): StoreState {
  const error: ResponseError = {
    error: action.error,
    fetchedAt: action.fetchedAt,
    expiresAt: action.expiresAt,
  };
  return {
    ...state,
    errors: withKey(state.errors, action.key, error),
    optimistic: settle(state.optimistic, action.settles),
  };
}

function removeOptimistic(state: StoreState, id: number): StoreState {
  const optimistic = settle(state.optimistic, id);
  return optimistic === state.optimistic ? state : { ...state, optimistic };
}

function invalidate(state: StoreState, keys: readonly string[]): StoreState {
  let meta = state.meta;
  let errors = state.errors;
  for (const key of keys) {
    const current = getOwn(meta, key);
    if (current && !current.invalidated)
      meta = withKey(meta, key, { ...current, invalidated: true });
    // An invalidated read must be fetched again now, not after its last error expires.
    if (hasOwn(errors, key)) errors = without(errors, key);
  }
  return meta === state.meta && errors === state.errors ? state : { ...state, meta, errors };
}

function collect(state: StoreState, action: GcAction): StoreState {
  if (action.keys.length === 0 && action.entities.length === 0) return state;
  let endpoints = state.endpoints;
  let meta = state.meta;
  let errors = state.errors;
  for (const key of action.keys) {
    endpoints = without(endpoints, key);
    meta = without(meta, key);
    errors = without(errors, key);
  }
  return {
    ...state,
    endpoints,
    meta,
    errors,
    entities: withoutEntities(state.entities, action.entities),
    entitiesMeta: withoutEntities(state.entitiesMeta, action.entities),
  };
}

function settle(
  optimistic: readonly OptimisticEntry[],
  id: number | undefined,
): readonly OptimisticEntry[] {
  if (id === undefined || !optimistic.some((entry) => entry.id === id)) return optimistic;
  return optimistic.filter((entry) => entry.id !== id);
}

/** A copy of `record` with `key` set (data keys such as `__proto__` stay data). */
function withKey<T>(
  record: Readonly<Record<string, T>>,
  key: string,
  value: T,
): Readonly<Record<string, T>> {
  if (hasOwn(record, key) && record[key] === value) return record;
  const copy = { ...record };
  setOwn(copy, key, value);
  return copy;
}

function without<T>(record: Readonly<Record<string, T>>, key: string): Readonly<Record<string, T>> {
  if (!hasOwn(record, key)) return record;
  const copy = { ...record };
  delete copy[key];
  return copy;
}

function withoutEntities<T extends EntityTable | EntityMetaTable>(
  table: T,
  entities: readonly (readonly [string, string])[],
): T {
  let next = table as Record<string, Record<string, unknown>>;
  const copied = new Set<string>();
  for (const [key, pk] of entities) {
    const pks = getOwn(next, key);
    if (!pks || !hasOwn(pks, pk)) continue;
    if (next === table) next = { ...next };
    if (!copied.has(key)) {
      copied.add(key);
      setOwn(next, key, { ...pks });
    }
    const copy = next[key]!;
    delete copy[pk];
    if (Object.keys(copy).length === 0) delete next[key];
  }
  return next as T;
}
