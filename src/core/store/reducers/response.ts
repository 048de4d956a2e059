/** Responses and their errors: `response/set`, `response/error`, `entities/set`. */
import { normalize } from '../../normalize/normalize.js';
import { jsonEqual } from '../../normalize/equal.js';
import { getOwn } from '../../util/own.js';
import { NOT_MODIFIED } from '../../protocol/types.js';
import type { SetEntitiesAction, SetErrorAction, SetResponseAction } from '../actions.js';
import type { Writer } from '../../normalize/writer.js';
import type { StoreState } from '../state.js';
import { settle } from './optimistic.js';

export function setResponse(
  state: StoreState,
  action: SetResponseAction,
  writer: Writer,
): StoreState {
  const { key, schema, response, fetchedAt, date, expiresAt, validator } = action;
  const stored = getOwn(state.endpoints, key);
  // Normalized, the entity tables too (the action carries their meta: fetchedAt, date, expiresAt);
  // a 304 keeps what is stored.
  const { result, ...tables } =
    response === NOT_MODIFIED
      ? { result: stored }
      : schema !== undefined && schema !== null
        ? normalize(schema, response, action.args, state, action, writer)
        : { result: response };
  // An answer the same as the stored one keeps the stored result (as unchanged entities keep
  // their objects), so its reads keep their value and nothing that shows them renders again.
  return settle(
    {
      ...state,
      ...tables,
      endpoints: writer.set(state.endpoints, key, jsonEqual(stored, result) ? stored : result),
      meta: writer.set(state.meta, key, {
        date,
        fetchedAt,
        expiresAt,
        ...(validator && { validator }),
      }),
      // A success clears the error of an older attempt; a newer failed attempt stays shown.
      errors: action.keepError ? state.errors : writer.delete(state.errors, key),
    },
    action.settles,
  );
}

export function setError(state: StoreState, action: SetErrorAction, writer: Writer): StoreState {
  const { error, fetchedAt, expiresAt } = action;
  return settle(
    { ...state, errors: writer.set(state.errors, action.key, { error, fetchedAt, expiresAt }) },
    action.settles,
  );
}

export function setEntities(
  state: StoreState,
  action: SetEntitiesAction,
  writer: Writer,
): StoreState {
  const { entities, entitiesMeta } = normalize(
    action.schema,
    action.value,
    [],
    state,
    action,
    writer,
  );
  // Tables the store owns are written in place: same identity, yet changed.
  return writer.changed ? { ...state, entities, entitiesMeta } : state;
}
