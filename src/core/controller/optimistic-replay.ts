/**
 * What readers see: the committed state with every pending optimistic update applied on top, in
 * the order the requests started. Because the queue is replayed over whatever is committed,
 * removing an entry when its request settles rolls it back exactly, and later entries are
 * rebased on the new committed state.
 */
import type { MemoCache } from '../normalize/memo-cache.js';
import { EntityMarks } from '../store/entity-marks.js';
import { reduce } from '../store/reducer.js';
import { ABORT_OPTIMISTIC, createSnapshot } from './snapshot.js';
import type { OptimisticEntry, StoreState } from '../store/state.js';
import { storeArgs } from './store-key.js';
import type { EndpointLike } from '../protocol/types.js';

/** What the replay needs from the controller. */
export interface ReplayContext {
  readonly memo: MemoCache;
  readonly now: number;
  /** The endpoint of a pending request (state holds only plain data). */
  endpointOf(id: number): EndpointLike | undefined;
  /** A `getOptimisticResponse` or its normalization threw something other than `abort`. */
  onError(entry: OptimisticEntry, error: unknown): void;
}

/** The visible state and the entities the updates read through their snapshots. */
export interface Replayed {
  readonly state: StoreState;
  readonly reads: EntityMarks;
}

/**
 * Applies the pending optimistic updates of `committed`.
 * @example const { state } = replayOptimistic(committed, context);
 */
export function replayOptimistic(committed: StoreState, context: ReplayContext): Replayed {
  const reads = new EntityMarks();
  let state = committed;
  for (const entry of committed.optimistic) {
    const endpoint = context.endpointOf(entry.id);
    if (!endpoint?.getOptimisticResponse) continue;
    const snapshot = createSnapshot(state, context.memo, entry.fetchedAt, context.now, (key, pk) =>
      reads.add(key, pk),
    );
    try {
      const response = endpoint.getOptimisticResponse(snapshot, ...entry.args);
      state = reduce(state, {
        type: 'response/set',
        key: entry.key,
        schema: endpoint.schema,
        args: storeArgs(endpoint, entry.args),
        response,
        // As old as its request: a response fetched after the mutation started stays on top.
        fetchedAt: entry.fetchedAt,
        date: context.now,
        expiresAt: context.now + (endpoint.dataExpiryLength ?? 60_000),
      });
    } catch (error) {
      // Nothing of this entry is applied; the request itself still runs and settles.
      if (error !== ABORT_OPTIMISTIC) context.onError(entry, error);
    }
  }
  return { state, reads };
}
