/**
 * The optimistic view: pending optimistic updates, replayed in the order their requests started
 * over whatever is committed. The state lists them as plain data; the view knows each one's
 * endpoint from the `optimistic/add` action that queued it. Removing an entry as its request
 * settles rolls it back exactly, and later entries are rebased on the new committed state.
 *
 * Replaying over the committed records themselves copied every record an update writes to on
 * every write, so with an update pending a write's cost grew with what the store holds (about
 * 23 ms at 10,000 stored responses). The view keeps the copies the last replay made instead: on
 * each write it brings back into them, from the committed state, only the keys that write changed
 * and the keys the last replay wrote, then replays the updates again over them, in place. A write
 * then costs what it and the updates write, whatever the store holds.
 */
// Values first, in the order that packs a bundle best (see src/core/index.ts); types after.
import { jsonEqual } from '../normalize/equal.js';
import { getOwn, hasOwn, setOwn } from '../util/own.js';
import { dataExpiresAt, TABLES } from './state.js';
import { readEntity, readResponse } from './read-response.js';
import { INVALID } from '../schema/types.js';
import { reduce } from './reducer.js';
import { shortUrl } from '../util/describe.js';
import { storeArgs, storeKey } from '../protocol/store-key.js';
import { EntityMarks } from './entity-marks.js';
import type { MemoCache } from '../normalize/memo-cache.js';
import type { EntityClass } from '../schema/types.js';
import type { WriteLog } from '../util/write-log.js';
import type { EndpointLike, ResponseInfo, Snapshot } from '../protocol/types.js';
import type { Action } from './actions.js';
import type { OptimisticEntry, StoreState } from './state.js';

function DEV(): boolean {
  return (typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production';
}

type AnyRecord = Record<string, unknown>;

/** Thrown from `getOptimisticResponse` (as `snapshot.abort`) to apply nothing. */
const ABORT: Error = new Error(
  `Optimistic update aborted${DEV() ? ': throw snapshot.abort only from getOptimisticResponse' : ''}.`,
);

/** Entries whose failure was reported: replays run on every change, it is said once. */
const reported = new WeakSet<object>();

/**
 * `committed` with every pending update applied, and the entities the updates read through their
 * snapshots (kept from garbage collection while pending). An entry whose endpoint `endpointOf`
 * does not know, or that has no `getOptimisticResponse`, is skipped. Records in `owned` are
 * written in place, and `log` hears of every key written (see `OptimisticView`: the copies the replays keep).
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
          `getOptimisticResponse for ${shortUrl(entry.key)} failed${DEV() ? '; nothing was applied' : ''}.`,
          error,
        );
      }
    }
  }
  return { state, reads };
}

/**
 * What readers see of the store: the committed state while no update is pending, else the updates
 * replayed over copies kept between writes (see the module's comment). The store hands it every
 * committed write.
 * @example const visible = view.show(action, committed, written);
 */
export class OptimisticView {
  /** The entities pending optimistic updates read (keep them while those are pending). */
  declare reads: EntityMarks;
  /** The last replay: over which committed state, what it gave, and what it wrote where. */
  #last: { committed: StoreState; visible: StoreState; touched: WriteLog } | undefined;
  /** The records the replays copied: nobody else holds them, the next replay writes in place. */
  #copies = new WeakSet<object>();
  /**
   * Each queued entry's endpoint, as its `optimistic/add` brought it: the state stays plain data,
   * and an entry that settles or is restamped (a new entry object) takes its own along.
   */
  #endpoints = new WeakMap<OptimisticEntry, EndpointLike | undefined>();
  #memo: MemoCache;
  #now: () => number;

  /** `memo` and `now` are what optimistic updates read their snapshots with. */
  constructor(memo: MemoCache, now: () => number) {
    // Set here: an initialized public field (assignment semantics) would move every private
    // field's initializer into the constructor too, in longer code.
    this.reads = new EntityMarks();
    this.#memo = memo;
    this.#now = now;
  }

  /**
   * The visible state after `action` made `committed`, given what it wrote (`written`: it must be
   * logged while the visible state is not the committed one, since the copies follow each write).
   */
  show(action: Action, committed: StoreState, written: WriteLog | undefined): StoreState {
    if (action.type === 'optimistic/add') this.#endpoints.set(action.entry, action.endpoint);
    if (committed.optimistic.length > 0) return this.#replay(committed, written);
    // Nothing pending: readers see the committed state; the copies go (once, not per write).
    if (this.#last) {
      this.#last = undefined;
      this.#copies = new WeakSet();
      this.reads = new EntityMarks();
    }
    return committed;
  }

  /** The visible state for `committed`, given what the write that made it wrote. */
  #replay(committed: StoreState, written: WriteLog | undefined): StoreState {
    const base: AnyRecord = { ...committed };
    const last = this.#last;
    const copies = this.#copies;
    // What the last replay showed under the keys it wrote.
    const shown: [AnyRecord, string, unknown][] = [];
    // The last replay's copy `record`, brought back to what `source` commits now; undefined when
    // it is not a copy of the replay's own (shared with a committed state, now or handed out
    // earlier: `from` may read a record the store has since changed in place), is gone from the
    // committed state, or was replaced in a way the log does not account for: the replay copies
    // it afresh if it writes there.
    const bring = (record: AnyRecord, from: unknown, source: AnyRecord | undefined) => {
      const changed = source && written!.get(source);
      if (!copies.has(record) || !source || (source !== from && !changed)) return undefined;
      for (const key of last!.touched.get(record) ?? []) {
        if (hasOwn(record, key)) shown.push([record, key, record[key]]);
        restore(record, source, key);
      }
      for (const key of changed ?? []) restore(record, source, key);
      return record;
    };
    for (const name of last ? TABLES : []) {
      const [visible, from, source] = [last!.visible, last!.committed, committed].map(
        (state) => state[name],
      ) as AnyRecord[];
      if (name === 'entities' || name === 'entitiesMeta') {
        // The tables of tables are small: copied each time, their tables brought back.
        const tables: AnyRecord = { ...source };
        for (const type in visible) {
          const copy = bring(
            visible[type] as AnyRecord,
            getOwn(from, type),
            getOwn(source as Record<string, AnyRecord>, type),
          );
          if (copy) setOwn(tables, type, copy as unknown);
        }
        base[name] = tables;
      } else base[name] = bring(visible!, from, source) ?? source;
    }
    const touched: WriteLog = new Map();
    const { state, reads } = replay(
      base as unknown as StoreState,
      (entry) => this.#endpoints.get(entry),
      this.#memo,
      this.#now(),
      copies,
      touched,
    );
    // Replayed again, an update makes new objects of the same values: what it writes as it was
    // keeps the object shown, so readers of it do not render again on every other write.
    for (const [record, key, value] of shown) {
      if (touched.get(record)?.has(key) && hasOwn(record, key) && jsonEqual(record[key], value)) {
        setOwn(record, key, value);
      }
    }
    this.#last = { committed, visible: state, touched };
    this.reads = reads;
    return state;
  }
}

/** `copy[key]` as the committed `source` has it (or not at all). */
function restore(copy: AnyRecord, source: AnyRecord, key: string): void {
  if (hasOwn(source, key)) setOwn(copy, key, source[key]);
  else delete copy[key];
}
