/**
 * The one function that changes the store. The same state and action give the same next state,
 * unchanged parts keep their identity, and an action that changes nothing returns the state
 * itself (so no listener is notified). It may throw (a response that does not fit its schema);
 * the state is then unchanged. Records and tables listed in `owned` (held by the store alone) are
 * updated in place, so a write costs the same at 10 or 100,000 stored responses; every other
 * part is copied on write. Each family of actions has its own file under reducers/.
 */
// Values first, in the order that packs a bundle best (see src/core/index.ts); types after.
import { setEntities, setError, setResponse } from './reducers/response.js';
import { Writer } from '../normalize/writer.js';
import { invalidate } from './reducers/invalidate.js';
import { addOptimistic, settle } from './reducers/optimistic.js';
import { collect } from './reducers/gc.js';
import { emptyState } from './state.js';
import type { Action } from './actions.js';
import type { WriteLog } from '../util/write-log.js';
import type { StoreState } from './state.js';

/** How one type of action changes a state, writing through `writer`. */
export type Reducer<T extends Action['type']> = (
  state: StoreState,
  action: Extract<Action, { type: T }>,
  writer: Writer,
) => StoreState;

/**
 * The reducer of each action type. `hydrate` is set when its module loads
 * (src/core/hydration.ts), so its code is not in the main bundle; until then a hydrate action
 * changes nothing. `followFilters` (src/core/follow.ts) wraps the three that write entities
 * (`response/set`, `entities/set`, and `hydrate` whenever it is set): each wrapper runs the reducer,
 * then re-files the entities it wrote among their followed lists, so the main entry carries no
 * hook for it.
 */
export const reducers: { [T in Action['type']]?: Reducer<T> } = {
  'response/set': setResponse,
  'response/error': setError,
  'entities/set': setEntities,
  'optimistic/add': addOptimistic,
  'optimistic/remove': (state, action) => settle(state, action.id),
  invalidate,
  gc: collect,
  reset: (_, action) => emptyState(action.date),
};

/**
 * Applies `action` to `state`; `log` hears of every key written, by record.
 * @example const next = reduce(state, { type: 'reset', date: Date.now() });
 */
export function reduce(
  state: StoreState,
  action: Action,
  owned?: WeakSet<object>,
  log?: WriteLog,
): StoreState {
  const reducer = reducers[action.type] as Reducer<Action['type']> | undefined;
  return reducer ? reducer(state, action, new Writer(owned, log)) : state;
}
