/**
 * The store: the committed state, the visible state derived from it, and the listeners told
 * once per committed change (or once per batch). Nothing else writes the state. While optimistic
 * updates are pending, the visible state is the optimistic view's (optimistic.ts): the committed
 * state with the updates replayed over copies it keeps between writes.
 */
// Values first, in the order that packs a bundle best (see src/core/index.ts); types after.
import { OptimisticView } from './optimistic.js';
import { reduce } from './reducer.js';
import { Subscribable, tellEach } from '../env/subscribable.js';
import type { EntityMarks } from './entity-marks.js';
import type { MemoCache } from '../normalize/memo-cache.js';
import type { WriteLog } from '../util/write-log.js';
import type { Action } from './actions.js';
import type { StoreState } from './state.js';

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

/**
 * Holds the state; `dispatch` is the only way to change it. Pending optimistic updates are its
 * own: each `optimistic/add` action brings its entry's endpoint, and its optimistic view replays
 * them.
 * @example
 * const store = new Store(emptyState(), new MemoCache(), Date.now);
 * store.subscribe(({ action }) => console.log(action.type));
 * store.dispatch({ type: 'reset', date: 0 });
 */
export class Store extends Subscribable<(change: StoreChange) => void> implements StoreView {
  /** One token per request for write logs (`logWrites`). */
  #logging = new Subscribable<object>();
  #committed: StoreState;
  #visible: StoreState;
  /** Records and tables only the committed state holds: the reducer may update them in place. */
  #owned = new WeakSet<object>();
  /** What each logged write wrote, by the state it made (see `writtenBy`). */
  #written = new WeakMap<StoreState, WriteLog>();
  #pending: Action[] = [];
  #depth = 0;
  /** The committed state with the pending optimistic updates replayed over it. */
  #optimistic: OptimisticView;

  /** `memo` and `now` are what optimistic updates read their snapshots with. */
  constructor(initial: StoreState, memo: MemoCache, now: () => number) {
    super();
    this.#committed = this.#visible = initial;
    this.#optimistic = new OptimisticView(memo, now);
  }

  /** The state without pending optimistic updates (for reading now, not for keeping). */
  get committed(): StoreState {
    return this.#committed;
  }

  /** The committed state with the pending optimistic updates applied: what readers see. */
  get visible(): StoreState {
    return this.#visible;
  }

  /** The entities pending optimistic updates read (keep them while those are pending). */
  get optimisticReads(): EntityMarks {
    return this.#optimistic.reads;
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
      // Logged when asked, and while a replay's copies (visible, not committed) follow each write.
      const written: WriteLog | undefined =
        this.#visible !== this.#committed || this.#logging.size ? new Map() : undefined;
      const committed = reduce(this.#committed, action, this.#owned, written);
      if (committed === this.#committed) return undefined;
      this.#committed = committed;
      if (written) this.#written.set(committed, written);
      this.#pending.push(action);
      this.#visible = this.#optimistic.show(action, committed, written);
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
}
