/** Responses and their errors: `response/set`, `response/error`, `entities/set`. */
import { normalize } from '../../normalize/normalize.js';
import { jsonEqual } from '../../normalize/equal.js';
import { getOwn } from '../../util/own.js';
import type { NormalizedStore } from '../../schema/types.js';
import type { SetEntitiesAction, SetErrorAction, SetResponseAction } from '../actions.js';
import type { Writer } from '../../normalize/writer.js';
import type { ResponseError, StoreState } from '../state.js';
import { settle } from './optimistic.js';

export function setResponse(
  state: StoreState,
  action: SetResponseAction,
  writer: Writer,
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
      writer,
    );
    store = normalized;
    result = normalized.result;
  }
  // An answer the same as the stored one keeps the stored result (as unchanged entities keep
  // their objects), so its reads keep their value and nothing that shows them renders again.
  const stored = getOwn(state.endpoints, key);
  if (result !== stored && jsonEqual(stored, result)) result = stored;
  return {
    ...state,
    entities: store.entities,
    entitiesMeta: store.entitiesMeta,
    endpoints: writer.set(state.endpoints, key, result),
    meta: writer.set(state.meta, key, { date, fetchedAt, expiresAt }),
    // A success clears the error of an older attempt; a newer failed attempt stays shown.
    errors: action.keepError ? state.errors : writer.delete(state.errors, key),
    optimistic: settle(state.optimistic, action.settles),
  };
}

export function setError(state: StoreState, action: SetErrorAction, writer: Writer): StoreState {
  const error: ResponseError = {
    error: action.error,
    fetchedAt: action.fetchedAt,
    expiresAt: action.expiresAt,
  };
  return {
    ...state,
    errors: writer.set(state.errors, action.key, error),
    optimistic: settle(state.optimistic, action.settles),
  };
}

export function setEntities(
  state: StoreState,
  action: SetEntitiesAction,
  writer: Writer,
): StoreState {
  const { fetchedAt, date, expiresAt } = action;
  const normalized = normalize(
    action.schema,
    action.value,
    [],
    state,
    { fetchedAt, date, expiresAt },
    writer,
  );
  // Tables the store owns are written in place: same identity, yet changed.
  return writer.changed
    ? { ...state, entities: normalized.entities, entitiesMeta: normalized.entitiesMeta }
    : state;
}
