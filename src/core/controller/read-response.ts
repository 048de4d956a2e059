/**
 * Reading one response out of a store state: its denormalized data and how fresh it is.
 */
import type { MemoCache } from '../normalize/memo-cache.js';
import { INVALID } from '../schema/types.js';
import { getOwn, hasOwn } from '../util/own.js';
import type { StoreState } from './state.js';
import { storeArgs, storeKey } from './store-key.js';
import { ExpiryStatus } from './types.js';
import type { EndpointLike, ResponseInfo } from './types.js';

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
  if (!hasOwn(state.endpoints, key) || meta?.invalidated) {
    return { data: undefined, expiryStatus: ExpiryStatus.Invalid, expiresAt, error };
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

/** True when the two reads would show the same thing. */
export function sameResponse(a: ResponseInfo, b: ResponseInfo): boolean {
  return (
    a.data === b.data &&
    a.expiryStatus === b.expiryStatus &&
    a.expiresAt === b.expiresAt &&
    a.error === b.error
  );
}
