/**
 * The read-only view of the store given to `getOptimisticResponse`.
 */
import type { MemoCache } from '../normalize/memo-cache.js';
import type { EntityClass } from '../schema/types.js';
import { INVALID } from '../schema/types.js';
import { getOwn } from '../util/own.js';
import { readResponse } from '../store/read-response.js';
import type { StoreState } from '../store/state.js';
import type { EndpointLike, ResponseInfo, Snapshot } from '../protocol/types.js';

/** Thrown from `getOptimisticResponse` (as `snapshot.abort`) to apply nothing. */
export const ABORT_OPTIMISTIC: Error = new Error(
  `Optimistic update aborted${(typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production' ? ': throw snapshot.abort only from getOptimisticResponse' : ''}.`,
);

/**
 * A snapshot of `state` as it is when an optimistic update is (re)applied.
 * `onEntityRead` learns which entities the update read, so they are kept while it is pending.
 * @example
 * getOptimisticResponse(snapshot, params, body) {
 *   const todo = snapshot.get(Todo, params);
 *   if (!todo) throw snapshot.abort;
 *   return { ...todo, ...body };
 * }
 */
export function createSnapshot(
  state: StoreState,
  memo: MemoCache,
  fetchedAt: number,
  now: number,
  onEntityRead?: (key: string, pk: string) => void,
): Snapshot {
  return {
    fetchedAt,
    abort: ABORT_OPTIMISTIC,
    get<E extends EntityClass>(entity: E, props: object): InstanceType<E> | undefined {
      const id = entity.pk(props);
      if (id === undefined || id === null) return undefined;
      const pk = String(id);
      onEntityRead?.(entity.key, pk);
      const stored = getOwn(getOwn(state.entities, entity.key), pk);
      if (stored === undefined || stored === INVALID) return undefined;
      const value = memo.denormalize(entity, pk, state.entities, []);
      return value === INVALID ? undefined : (value as InstanceType<E>);
    },
    getResponse<E extends EndpointLike>(endpoint: E, ...args: Parameters<E>): ResponseInfo<any> {
      return readResponse(state, memo, endpoint, args, now);
    },
  };
}
