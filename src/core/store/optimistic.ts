/**
 * Pending optimistic updates, replayed in the order their requests started over whatever is
 * committed. The state lists them as plain data; the store knows each one's endpoint from the
 * `optimistic/add` action that queued it. Removing an entry as its request settles rolls it back
 * exactly, and later entries are rebased on the new committed state.
 */
import type { MemoCache } from '../normalize/memo-cache.js';
import type { EntityClass } from '../schema/types.js';
import { INVALID } from '../schema/types.js';
import { shortUrl } from '../util/describe.js';
import type { WriteLog } from '../util/write-log.js';
import { storeArgs, storeKey } from '../protocol/store-key.js';
import type { EndpointLike, ResponseInfo, Snapshot } from '../protocol/types.js';
import { EntityMarks } from './entity-marks.js';
import { readEntity, readResponse } from './read-response.js';
import { reduce } from './reducer.js';
import { dataExpiresAt } from './state.js';
import type { OptimisticEntry, StoreState } from './state.js';

/** Thrown from `getOptimisticResponse` (as `snapshot.abort`) to apply nothing. */
const ABORT: Error = new Error(
  `Optimistic update aborted${(typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production' ? ': throw snapshot.abort only from getOptimisticResponse' : ''}.`,
);

/** Entries whose failure was reported: replays run on every change, it is said once. */
const reported = new WeakSet<object>();

/**
 * `committed` with every pending update applied, and the entities the updates read through their
 * snapshots (kept from garbage collection while pending). An entry whose endpoint `endpointOf`
 * does not know, or that has no `getOptimisticResponse`, is skipped. Records in `owned` are
 * written in place, and `log` hears of every key written (see store.ts: the copies the replays keep).
 * @example const { state } = replay(committed, (entry) => endpoints.get(entry), memo, now);
 */
export function replay(
  committed: StoreState,
  endpointOf: (entry: OptimisticEntry) => EndpointLike | undefined,
  memo: MemoCache,
  now: number,
  owned?: WeakSet<object>,
  log?: WriteLog,
): { state: StoreState; reads: EntityMarks } {
  const reads = new EntityMarks();
  let state = committed;
  for (const entry of committed.optimistic) {
    const endpoint = endpointOf(entry);
    if (!endpoint?.getOptimisticResponse) continue;
    // The snapshot reads the state as the entries before this one left it.
    const seen = state;
    const snapshot: Snapshot = {
      fetchedAt: entry.fetchedAt,
      abort: ABORT,
      get<T extends EntityClass>(entity: T, props: object): InstanceType<T> | undefined {
        const id = entity.pk(props);
        if (id === undefined || id === null) return undefined;
        const pk = String(id);
        reads.add(entity.key, pk);
        const value = readEntity(seen.entities, memo, entity, pk);
        return value === INVALID ? undefined : (value as InstanceType<T>);
      },
      getResponse: (endpoint: EndpointLike, ...args: unknown[]): ResponseInfo<any> =>
        readResponse(seen, memo, storeKey(endpoint, args), endpoint, args, now),
    };
    try {
      state = reduce(
        state,
        {
          type: 'response/set',
          key: entry.key,
          schema: endpoint.schema,
          args: storeArgs(endpoint, entry.args),
          response: endpoint.getOptimisticResponse(snapshot, ...entry.args),
          // As old as its request: a response fetched after the mutation started stays on top
          // (so is a deletion it applies: only its answer is dated when it arrives).
          fetchedAt: entry.fetchedAt,
          date: entry.fetchedAt,
          expiresAt: dataExpiresAt(endpoint, now),
        },
        owned,
        log,
      );
    } catch (error) {
      // Nothing of this entry is applied; the request itself still runs and settles.
      if (error !== ABORT && !reported.has(entry)) {
        reported.add(entry);
        console.error(
          `getOptimisticResponse for ${shortUrl(entry.key)} failed${(typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production' ? '; nothing was applied' : ''}.`,
          error,
        );
      }
    }
  }
  return { state, reads };
}
