/**
 * The one function that changes the store. The same state and action give the same next state,
 * unchanged parts keep their identity, and an action that changes nothing returns the state
 * itself (so no listener is notified). It may throw (a response that does not fit its schema);
 * the state is then unchanged. Records and tables listed in `owned` (held by the store alone) are
 * updated in place, so a write costs the same at 10 or 100,000 stored responses; every other
 * part is copied on write. Each family of actions has its own file under reducers/.
 */
import type { Action } from './actions.js';
import { Writer } from '../normalize/writer.js';
import type { WriteLog } from '../util/write-log.js';
import { collect } from './reducers/gc.js';
import { invalidate } from './reducers/invalidate.js';
import { addOptimistic, removeOptimistic } from './reducers/optimistic.js';
import { setEntities, setError, setResponse } from './reducers/response.js';
import { emptyState } from './state.js';
import type { StoreState } from './state.js';
import type { HydrateAction } from './actions.js';

/**
 * Reducers of optional entries, set when their module loads, so their code is not in the main
 * bundle: `hydrate` (src/core/hydration.ts, resource-elements/hydration). Without it, a hydrate
 * action changes nothing.
 */
export const optionalReducers: {
  hydrate?: (state: StoreState, action: HydrateAction, writer: Writer) => StoreState;
} = {};

/**
 * Applies `action` to `state`.
 * @example const next = reduce(state, { type: 'reset', date: Date.now() });
 */
export function reduce(
  state: StoreState,
  action: Action,
  owned?: WeakSet<object>,
  /** Told every key written, by record (for the visible state to follow). */
  log?: WriteLog,
): StoreState {
  const writer = new Writer(owned, log);
  switch (action.type) {
    case 'response/set':
      return setResponse(state, action, writer);
    case 'response/error':
      return setError(state, action, writer);
    case 'entities/set':
      return setEntities(state, action, writer);
    case 'optimistic/add':
      return addOptimistic(state, action.entry);
    case 'optimistic/remove':
      return removeOptimistic(state, action.id);
    case 'invalidate':
      return invalidate(state, action.keys, writer);
    case 'reset':
      return emptyState(action.date);
    case 'gc':
      return collect(state, action, writer);
    case 'hydrate':
      return optionalReducers.hydrate?.(state, action, writer) ?? state;
  }
}
