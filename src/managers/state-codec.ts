/**
 * The store's state is plain data apart from one thing: an INVALID entity is a symbol, which
 * neither structured clone (BroadcastChannel, IndexedDB) nor JSON can carry. These two functions
 * swap it for a marker string on the way out and back on the way in.
 */
import { INVALID } from '../core/index.js';
import type { StoreState } from '../core/index.js';

/** What an INVALID entity travels as. No entity is a string, so it cannot be mistaken for one. */
const INVALID_MARK = 'resource-elements:INVALID';

function mapTables(
  entities: StoreState['entities'],
  swap: (value: unknown) => unknown,
): StoreState['entities'] {
  const out: Record<string, Record<string, unknown>> = {};
  for (const type of Object.keys(entities)) {
    const table = entities[type]!;
    const copy: Record<string, unknown> = {};
    for (const pk of Object.keys(table)) {
      Object.defineProperty(copy, pk, { value: swap(table[pk]), enumerable: true });
    }
    Object.defineProperty(out, type, { value: copy, enumerable: true });
  }
  return out as StoreState['entities'];
}

/**
 * A (partial) state that structured clone and JSON can carry.
 * @example channel.postMessage(encodeState(dehydrate(controller)));
 */
export function encodeState<S extends Partial<StoreState>>(state: S): S {
  if (!state.entities) return state;
  return {
    ...state,
    entities: mapTables(state.entities, (value) => (value === INVALID ? INVALID_MARK : value)),
  };
}

/**
 * Undoes `encodeState`.
 * @example hydrate(controller, decodeState(message.state));
 */
export function decodeState<S extends Partial<StoreState>>(state: S): S {
  if (!state.entities) return state;
  return {
    ...state,
    entities: mapTables(state.entities, (value) => (value === INVALID_MARK ? INVALID : value)),
  };
}
