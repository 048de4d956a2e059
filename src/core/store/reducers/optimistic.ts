/** The queue of pending optimistic updates: `optimistic/add`, `optimistic/remove`. */
import type { AddOptimisticAction } from '../actions.js';
import type { StoreState } from '../state.js';

/** Adds an entry last; one with the id of an entry already queued replaces it (a restamp). */
export function addOptimistic(state: StoreState, { entry }: AddOptimisticAction): StoreState {
  return { ...state, optimistic: [...settle(state, entry.id).optimistic, entry] };
}

/**
 * `state` without the entry of request `id` (the request settled); the state itself when no
 * entry is its.
 */
export function settle(state: StoreState, id: number | undefined): StoreState {
  const optimistic = state.optimistic.filter((entry) => entry.id !== id);
  return optimistic.length < state.optimistic.length ? { ...state, optimistic } : state;
}
