/**
 * Pending optimistic updates. The store's state lists them as plain data; this keeps their
 * endpoints and replays them, in the order their requests started, over whatever is committed.
 * Removing an entry when its request settles therefore rolls it back exactly, and later entries
 * are rebased on the new committed state.
 */
import type { MemoCache } from '../normalize/memo-cache.js';
import type { EndpointLike } from '../protocol/types.js';
import { EntityMarks } from '../store/entity-marks.js';
import { reduce } from '../store/reducer.js';
import type { OptimisticEntry, StoreState } from '../store/state.js';
import type { Replayed } from '../store/store.js';
import type { WriteLog } from '../util/write-log.js';
import { shortUrl } from '../util/describe.js';
import { dataExpiresAt } from './expiry.js';
import { ABORT_OPTIMISTIC, createSnapshot } from './snapshot.js';
import { storeArgs } from '../protocol/store-key.js';

export class OptimisticQueue {
  readonly #endpoints = new Map<number, EndpointLike>();
  /** Entries whose failure was reported: replays run on every change, say it once. */
  readonly #reported = new Set<number>();

  readonly #memo: MemoCache;
  readonly #now: () => number;

  constructor(memo: MemoCache, now: () => number) {
    this.#memo = memo;
    this.#now = now;
  }

  /** Remembers the endpoint of entry `id` until `forget(id)`. */
  register(id: number, endpoint: EndpointLike): void {
    this.#endpoints.set(id, endpoint);
  }

  forget(id: number | undefined): void {
    if (id === undefined) return;
    this.#endpoints.delete(id);
    this.#reported.delete(id);
  }

  endpointOf(id: number): EndpointLike | undefined {
    return this.#endpoints.get(id);
  }

  /**
   * The committed state with every pending update applied, and the entities the updates read
   * through their snapshots (kept from garbage collection while they are pending). Records in
   * `owned` are written in place, and `log` hears of every key written (see store/overlay.ts).
   * @example const { state } = queue.replay(committed);
   */
  replay(committed: StoreState, owned?: WeakSet<object>, log?: WriteLog): Replayed {
    const reads = new EntityMarks();
    const now = this.#now();
    let state = committed;
    for (const entry of committed.optimistic) {
      const endpoint = this.#endpoints.get(entry.id);
      if (!endpoint?.getOptimisticResponse) continue;
      const snapshot = createSnapshot(state, this.#memo, entry.fetchedAt, now, (key, pk) =>
        reads.add(key, pk),
      );
      try {
        const response = endpoint.getOptimisticResponse(snapshot, ...entry.args);
        state = reduce(
          state,
          {
            type: 'response/set',
            key: entry.key,
            schema: endpoint.schema,
            args: storeArgs(endpoint, entry.args),
            response,
            // As old as its request: a response fetched after the mutation started stays on top.
            fetchedAt: entry.fetchedAt,
            date: now,
            expiresAt: dataExpiresAt(endpoint, now),
          },
          owned,
          log,
        );
      } catch (error) {
        // Nothing of this entry is applied; the request itself still runs and settles.
        if (error !== ABORT_OPTIMISTIC) this.#report(entry, error);
      }
    }
    return { state, reads };
  }

  #report(entry: OptimisticEntry, error: unknown): void {
    if (this.#reported.has(entry.id)) return;
    this.#reported.add(entry.id);
    console.error(
      `getOptimisticResponse for ${shortUrl(entry.key)} failed${(typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production' ? '; nothing was applied' : ''}.`,
      error,
    );
  }
}
