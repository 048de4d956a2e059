/** The queue of pending optimistic updates: `optimistic/add`, `optimistic/remove`. */
import type { OptimisticEntry, StoreState } from '../state.js';

/** Adds an entry last; one with the id of an entry already queued replaces it (a restamp). */
export function addOptimistic(state: StoreState, entry: OptimisticEntry): StoreState {
  return { ...state, optimistic: [...settle(state.optimistic, entry.id), entry] };
}

export function removeOptimistic(state: StoreState, id: number): StoreState {
  const optimistic = settle(state.optimistic, id);
  return optimistic === state.optimistic ? state : { ...state, optimistic };
}

/** The queue without the entry of the request that settled. */
export function settle(
  optimistic: readonly OptimisticEntry[],
  id: number | undefined,
): readonly OptimisticEntry[] {
  if (id === undefined || !optimistic.some((entry) => entry.id === id)) return optimistic;
  return optimistic.filter((entry) => entry.id !== id);
}
