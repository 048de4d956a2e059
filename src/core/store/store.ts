/**
 * The store: the committed state, the visible state derived from it, and the listeners told
 * once per committed change (or once per batch). Nothing else writes the state.
 *
 * The visible state, while optimistic updates are pending, is the committed state with the
 * updates replayed over it (optimistic.ts). Replaying over the committed records themselves
 * copied every record an update writes to on every write, so with an update pending a write's
 * cost grew with what the store holds (about 23 ms at 10,000 stored responses). The store keeps
 * the copies the last replay made instead: on each write it brings back into them, from the
 * committed state, only the keys that write changed and the keys the last replay wrote, then
 * replays the updates again over them, in place. A write then costs what it and the updates
 * write, whatever the store holds.
 */
// Values first, in the order that packs a bundle best (see src/core/index.ts); types after.
import { reduce } from './reducer.js';
import { jsonEqual } from '../normalize/equal.js';
import { getOwn, hasOwn, setOwn } from '../util/own.js';
import { Subscribable, tellEach } from '../env/subscribable.js';
import { EntityMarks } from './entity-marks.js';
import { replay } from './optimistic.js';
import { TABLES } from './state.js';
import type { MemoCache } from '../normalize/memo-cache.js';
import type { WriteLog } from '../util/write-log.js';
import type { EndpointLike } from '../protocol/types.js';
import type { Action } from './actions.js';
import type { OptimisticEntry, StoreState } from './state.js';

/** What a listener is told: the last committed action, every action of the change, the state. */
export interface StoreChange {
  readonly action: Action;
  /** Every action committed since the last notification (more than one inside `batch`). */
  readonly actions: readonly Action[];
  /** The committed state after them: read it now; keep `snapshot()` instead. */
  readonly state: StoreState;
}

/**
 * The store as managers and devtools may see it: its states and write logs, never a way to write
 * (that is `controller.dispatch`). `committed` and `visible` are for reading now; keep
 * `controller.getState()` instead.
 * @example
 * const { committed } = controller.store;
 * console.log(Object.keys(committed.meta).length, 'responses stored');
 */
export interface StoreView {
  /** The state without pending optimistic updates. */
  readonly committed: StoreState;
  /** The committed state with the pending optimistic updates applied: what readers see. */
  readonly visible: StoreState;
  /** The entities pending optimistic updates read (keep them while those are pending). */
  readonly optimisticReads: EntityMarks;
  /**
   * Has each write log the keys it wrote (`writtenBy`) until the function it returns is called: a
   * manager that needs what changed asks for that instead of comparing whole tables. The function
   * ends this one request, however often it is called.
   */
  logWrites(): () => void;
  /** The keys the write that made `state` wrote, by record; undefined unless logged. */
  writtenBy(state: StoreState): WriteLog | undefined;
}

type AnyRecord = Record<string, unknown>;

/**
 * Holds the state; `dispatch` is the only way to change it. Pending optimistic updates are its
 * own: each `optimistic/add` action brings its entry's endpoint, and the store replays them.
 * @example
 * const store = new Store(emptyState(), new MemoCache(), Date.now);
 * store.subscribe(({ action }) => console.log(action.type));
 * store.dispatch({ type: 'reset', date: 0 });
 */
export class Store extends Subscribable<(change: StoreChange) => void> implements StoreView {
  /** One token per request for write logs (`logWrites`). */
  #logging = new Subscribable<object>();
  // The public fields are set in the constructor: an initialized one (assignment semantics) would
  // move every private field's initializer into the constructor too, in longer code.
  #committed: StoreState;
  #visible: StoreState;
  optimisticReads: EntityMarks;
  /** Records and tables only the committed state holds: the reducer may update them in place. */
  #owned = new WeakSet<object>();
  /** What each logged write wrote, by the state it made (see `writtenBy`). */
  #written = new WeakMap<StoreState, WriteLog>();
  #pending: Action[] = [];
  #depth = 0;
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
  constructor(initial: StoreState, memo: MemoCache, now: () => number) {
    super();
    this.optimisticReads = new EntityMarks();
    this.#committed = this.#visible = initial;
    this.#memo = memo;
    this.#now = now;
  }

  /** The state without pending optimistic updates (for reading now, not for keeping). */
  get committed(): StoreState {
    return this.#committed;
  }

  /** The committed state with the pending optimistic updates applied: what readers see. */
  get visible(): StoreState {
    return this.#visible;
  }

  /** Logs what each write wrote until the function it returns is called (see `StoreView`). */
  logWrites(): () => void {
    return this.#logging.subscribe({});
  }

  /**
   * The committed state, to keep: its records are no longer updated in place (the next write to
   * one copies it once), so the snapshot stays as it is.
   */
  snapshot(): StoreState {
    this.#owned = new WeakSet();
    return this.#committed;
  }

  /**
   * The keys the action that made `state` wrote, by the record they are in; undefined unless
   * `logWrites()` or a pending optimistic update asked. By state, not "the last write": a listener
   * that writes while hearing of one write must not hide that write's log from the next listener.
   */
  writtenBy(state: StoreState): WriteLog | undefined {
    return this.#written.get(state);
  }

  /**
   * Applies `action`; the listeners hear of it once the outermost `batch` ends (this dispatch's
   * own, when none is running). Returns the new committed state, or undefined when the action
   * changed nothing (and nobody is told). Throws, changing nothing, when the reducer throws.
   */
  dispatch(action: Action): StoreState | undefined {
    return this.batch(() => {
      const last = this.#last;
      const written: WriteLog | undefined = last || this.#logging.size ? new Map() : undefined;
      const committed = reduce(this.#committed, action, this.#owned, written);
      if (committed === this.#committed) return undefined;
      this.#committed = committed;
      if (written) this.#written.set(committed, written);
      if (action.type === 'optimistic/add') this.#endpoints.set(action.entry, action.endpoint);
      this.#pending.push(action);
      if (committed.optimistic.length > 0) this.#replay(committed, written);
      else {
        // Nothing pending: readers see the committed state; the copies go (once, not per write).
        if (last) {
          this.#last = undefined;
          this.#copies = new WeakSet();
          this.optimisticReads = new EntityMarks();
        }
        this.#visible = committed;
      }
      return committed;
    });
  }

  /**
   * Runs `work`; listeners hear of everything it dispatched once, after it returns (or throws).
   * @example store.batch(() => { store.dispatch(a); store.dispatch(b); }); // one notification
   */
  batch<T>(work: () => T): T {
    this.#depth++;
    try {
      return work();
    } finally {
      // Depth stays 1 while listeners are told: a listener that dispatches gets its change
      // announced after this round, not in the middle of it (every listener of a round sees the
      // same state).
      while (this.#depth === 1 && this.#pending.length > 0) {
        const actions = this.#pending;
        this.#pending = [];
        const change: StoreChange = { action: actions.at(-1)!, actions, state: this.#committed };
        tellEach(this.subscribers, (listener) => listener(change));
      }
      this.#depth--;
    }
  }

  /** The visible state for `committed`, given what the write that made it wrote. */
  #replay(committed: StoreState, written: WriteLog | undefined): void {
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
    this.#visible = state;
    this.optimisticReads = reads;
  }
}

/** `copy[key]` as the committed `source` has it (or not at all). */
function restore(copy: AnyRecord, source: AnyRecord, key: string): void {
  if (hasOwn(source, key)) setOwn(copy, key, source[key]);
  else delete copy[key];
}
