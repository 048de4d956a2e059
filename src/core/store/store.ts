/**
 * The store: the committed state, the visible state derived from it, and the listeners told
 * once per committed change. Nothing else writes the state.
 */
import type { Action } from './actions.js';
import { EntityMarks } from './entity-marks.js';
import { reduce } from './reducer.js';
import type { Replayed } from '../controller/optimistic-replay.js';
import type { StoreState } from './state.js';
import { Subscribable } from '../env/subscribable.js';

/**
 * Holds the state; `dispatch` is the only way to change it.
 * @example
 * const store = new Store(emptyState(), (state) => ({ state, reads: new EntityMarks() }));
 * store.subscribe(() => console.log('changed'));
 * store.dispatch({ type: 'reset', date: 0 });
 */
export class Store extends Subscribable<() => void> {
  #committed: StoreState;
  #visible: Replayed;
  /** Entity tables only the committed state holds: the reducer may update them in place. */
  #owned = new WeakSet<object>();
  #notifying = false;
  #again = false;

  constructor(
    initial: StoreState,
    /** Derives what readers see from the committed state (the optimistic replay). */
    private readonly view: (committed: StoreState) => Replayed,
  ) {
    super();
    this.#committed = initial;
    this.#visible = { state: initial, reads: new EntityMarks() };
  }

  /** The state without pending optimistic updates (for reading now, not for keeping). */
  get committed(): StoreState {
    return this.#committed;
  }

  /**
   * The committed state, to keep: its tables are no longer updated in place (the next write to a
   * table copies it once), so the snapshot stays as it is.
   */
  snapshot(): StoreState {
    this.#owned = new WeakSet();
    return this.#committed;
  }

  /** The committed state with the pending optimistic updates applied: what readers see. */
  get visible(): StoreState {
    return this.#visible.state;
  }

  /** Entities pending optimistic updates read. */
  get optimisticReads(): EntityMarks {
    return this.#visible.reads;
  }

  /**
   * Applies `action`, then notifies the listeners once. Throws, changing nothing, when the
   * reducer throws. Returns false when the action changed nothing (and nobody was told).
   */
  dispatch(action: Action): boolean {
    const next = reduce(this.#committed, action, this.#owned);
    if (next === this.#committed) return false;
    this.#committed = next;
    this.#visible =
      next.optimistic.length === 0 ? { state: next, reads: new EntityMarks() } : this.view(next);
    this.#notify();
    return true;
  }

  #notify(): void {
    // A listener that dispatches gets its change announced after this round, not in the middle
    // of it: every listener of a round sees the same state.
    if (this.#notifying) {
      this.#again = true;
      return;
    }
    this.#notifying = true;
    try {
      do {
        this.#again = false;
        for (const listener of [...this.subscribers]) {
          // Removed by an earlier listener of this round: it asked not to be called again.
          if (!this.subscribers.has(listener)) continue;
          try {
            listener();
          } catch (error) {
            // One failing listener must not keep the others stale; the error still surfaces.
            queueMicrotask(() => {
              throw error;
            });
          }
        }
      } while (this.#again);
    } finally {
      this.#notifying = false;
    }
  }
}
