/**
 * Reading one response out of a store state: its denormalized data and how fresh it is.
 */
import type { MemoCache } from '../normalize/memo-cache.js';
import { INVALID } from '../schema/types.js';
import type { EntityClass } from '../schema/types.js';
import { isEntityClass } from '../schema/is.js';
import { getOwn, hasOwn } from '../util/own.js';
import type { StoreState } from './state.js';
import { storeArgs, storeKey } from '../protocol/store-key.js';
import { ExpiryStatus } from '../protocol/types.js';
import type { EndpointLike, ResponseInfo } from '../protocol/types.js';

/**
 * What `getResponse` reports for `endpoint(...args)` in `state` at time `now`. Not memoized by
 * itself (the Controller keeps the identity of the result); `data` is, through `memo`.
 * @example readResponse(state, memo, TodoResource.get, [{ id: 1 }], Date.now()).expiryStatus
 */
export function readResponse(
  state: StoreState,
  memo: MemoCache,
  endpoint: EndpointLike,
  args: readonly unknown[],
  now: number,
): ResponseInfo {
  const key = storeKey(endpoint, args);
  const meta = getOwn(state.meta, key);
  const stored = getOwn(state.errors, key);
  const error = stored && now <= stored.expiresAt ? stored.error : undefined;
  const expiresAt = meta?.expiresAt ?? 0;
  if (meta?.invalidated) {
    return { data: undefined, expiryStatus: ExpiryStatus.Invalid, expiresAt, error };
  }
  if (!hasOwn(state.endpoints, key)) {
    return readStoredEntity(state, memo, endpoint, args, now, error);
  }
  const result = state.endpoints[key];
  const schema = endpoint.schema;
  const data =
    schema === undefined || schema === null
      ? result
      : memo.denormalize(schema, result, state.entities, storeArgs(endpoint, args));
  if (data === INVALID) {
    return { data: undefined, expiryStatus: ExpiryStatus.Invalid, expiresAt, error };
  }
  if (now > expiresAt) {
    // invalidIfStale: past its expiry the data must not be shown at all.
    if (endpoint.invalidIfStale) {
      return { data: undefined, expiryStatus: ExpiryStatus.Invalid, expiresAt, error };
    }
    return { data, expiryStatus: ExpiryStatus.Stale, expiresAt, error };
  }
  return { data, expiryStatus: ExpiryStatus.Valid, expiresAt, error };
}

/**
 * The pk a read of a single entity asks for, computed from its URL params with the entity's own
 * `pk()`; undefined when the schema is not an entity or the params do not give one.
 * @example storedEntityPk(Todo, [{ id: 5 }]) // '5'
 */
export function storedEntityPk(schema: unknown, args: readonly unknown[]): string | undefined {
  if (!isEntityClass(schema)) return undefined;
  const params = args[0];
  if (params === null || typeof params !== 'object') return undefined;
  let pk: unknown;
  try {
    pk = schema.pk(params as object);
  } catch {
    return undefined;
  }
  return pk === undefined || pk === null || pk === '' ? undefined : String(pk);
}

/**
 * A GET of one entity that was never fetched by itself may already be in the store, brought by a
 * list or another read: show it from there (as fresh as the response that brought it) instead of
 * sending one request per entity.
 */
function readStoredEntity(
  state: StoreState,
  memo: MemoCache,
  endpoint: EndpointLike,
  args: readonly unknown[],
  now: number,
  error: unknown,
): ResponseInfo {
  const missing = { data: undefined, expiryStatus: ExpiryStatus.Invalid, expiresAt: 0, error };
  if (endpoint.sideEffect) return missing;
  const pk = storedEntityPk(endpoint.schema, args);
  if (pk === undefined) return missing;
  const entity = endpoint.schema as EntityClass;
  const stored = getOwn(getOwn(state.entities, entity.key), pk);
  if (stored === undefined || stored === INVALID) return missing;
  const data = memo.denormalize(entity, pk, state.entities);
  if (data === INVALID) return missing;
  const expiresAt = getOwn(getOwn(state.entitiesMeta, entity.key), pk)?.expiresAt ?? 0;
  if (now > expiresAt) {
    if (endpoint.invalidIfStale) return { ...missing, expiresAt };
    return { data, expiryStatus: ExpiryStatus.Stale, expiresAt, error };
  }
  return { data, expiryStatus: ExpiryStatus.Valid, expiresAt, error };
}

/** True when the two reads would show the same thing. */
export function sameResponse(a: ResponseInfo, b: ResponseInfo): boolean {
  return (
    a.data === b.data &&
    a.expiryStatus === b.expiryStatus &&
    a.expiresAt === b.expiresAt &&
    a.error === b.error
  );
}
