/**
 * The store: the committed state, the visible state derived from it, and the listeners told
 * once per committed change (or once per batch). Nothing else writes the state.
 */
import type { Action } from './actions.js';
import { EntityMarks } from './entity-marks.js';
import { Overlay } from './overlay.js';
import type { Replay } from './overlay.js';
import { reduce } from './reducer.js';
import type { StoreState } from './state.js';
import { Subscribable, tellEach } from '../env/subscribable.js';
import type { WriteLog } from '../util/write-log.js';

/** What readers see: the state with pending optimistic updates applied, and what they read. */
export interface Replayed {
  readonly state: StoreState;
  readonly reads: EntityMarks;
}

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
   * While above 0, each write logs the keys it wrote (`writtenBy`): a manager that needs what
   * changed counts itself in (`++`) and out (`--`) instead of comparing whole tables.
   */
  logWrites: number;
  /** The keys the write that made `state` wrote, by record; undefined unless logged. */
  writtenBy(state: StoreState): WriteLog | undefined;
}

/**
 * Holds the state; `dispatch` is the only way to change it.
 * @example
 * const store = new Store(emptyState(), (state) => ({ state, reads: new EntityMarks() }));
 * store.subscribe(({ action }) => console.log(action.type));
 * store.dispatch({ type: 'reset', date: 0 });
 */
export class Store extends Subscribable<(change: StoreChange) => void> implements StoreView {
  #committed: StoreState;
  #visible: Replayed;
  readonly #overlay: Overlay;
  readonly #onCommit: (action: Action, state: StoreState) => void;
  /** Records and tables only the committed state holds: the reducer may update them in place. */
  #owned = new WeakSet<object>();
  #pending: Action[] = [];
  /** What each logged write wrote, by the state it made (see `writtenBy`). */
  readonly #written = new WeakMap<StoreState, WriteLog>();
  /**
   * While above 0, each write logs the keys it wrote (`writtenBy`): a manager that needs what
   * changed (tab sync) counts itself in here instead of comparing whole tables.
   */
  logWrites = 0;
  #batchDepth = 0;
  #notifying = false;

  constructor(
    initial: StoreState,
    /** Applies the pending optimistic updates: what readers see (see Overlay). */
    replay: Replay,
    /** Told of each committed action at once, before listeners (events, managers). */
    onCommit: (action: Action, state: StoreState) => void = () => {},
  ) {
    super();
    this.#onCommit = onCommit;
    this.#overlay = new Overlay(replay);
    this.#committed = initial;
    this.#visible = { state: initial, reads: new EntityMarks() };
  }

  /** The state without pending optimistic updates (for reading now, not for keeping). */
  get committed(): StoreState {
    return this.#committed;
  }

  /**
   * The committed state, to keep: its records are no longer updated in place (the next write to
   * one copies it once), so the snapshot stays as it is.
   */
  snapshot(): StoreState {
    this.#owned = new WeakSet();
    return this.#committed;
  }

  /** The committed state with the pending optimistic updates applied: what readers see. */
  get visible(): StoreState {
    return this.#visible.state;
  }

  /**
   * The keys the action that made `state` wrote, by the record they are in; undefined unless
   * `logWrites` or a pending optimistic update asked. By state, not "the last write": a listener
   * that writes while hearing of one write must not hide that write's log from the next listener.
   */
  writtenBy(state: StoreState): WriteLog | undefined {
    return this.#written.get(state);
  }

  /** Entities pending optimistic updates read. */
  get optimisticReads(): EntityMarks {
    return this.#visible.reads;
  }

  /**
   * Applies `action`, then notifies the listeners once (at the end of the outermost `batch`).
   * Throws, changing nothing, when the reducer throws. Returns false when the action changed
   * nothing (and nobody was told).
   */
  dispatch(action: Action): boolean {
    const written = this.#overlay.following || this.logWrites > 0 ? new Map() : undefined;
    const next = reduce(this.#committed, action, this.#owned, written);
    if (next === this.#committed) return false;
    this.#committed = next;
    if (written) this.#written.set(next, written);
    if (next.optimistic.length === 0) {
      this.#overlay.clear();
      this.#visible = { state: next, reads: new EntityMarks() };
    } else {
      this.#visible = this.#overlay.update(next, written);
    }
    this.#pending.push(action);
    this.#onCommit(action, next);
    if (this.#batchDepth === 0) this.#notify();
    return true;
  }

  /**
   * Runs `work`; listeners hear of everything it dispatched once, after it returns (or throws).
   * @example store.batch(() => { store.dispatch(a); store.dispatch(b); }); // one notification
   */
  batch<T>(work: () => T): T {
    this.#batchDepth++;
    try {
      return work();
    } finally {
      if (--this.#batchDepth === 0) this.#notify();
    }
  }

  #notify(): void {
    // A listener that dispatches gets its change announced after this round, not in the middle
    // of it: every listener of a round sees the same state.
    if (this.#notifying) return;
    this.#notifying = true;
    try {
      while (this.#pending.length > 0) {
        const actions = this.#pending;
        this.#pending = [];
        const change: StoreChange = {
          action: actions[actions.length - 1]!,
          actions,
          state: this.#committed,
        };
        tellEach(this.subscribers, (listener) => listener(change));
      }
    } finally {
      this.#notifying = false;
    }
  }
}
