/**
 * The store's state is plain data apart from one thing: an INVALID entity is a symbol, which
 * neither structured clone (BroadcastChannel, IndexedDB) nor JSON can carry. These two functions
 * swap it for a marker string on the way out and back on the way in.
 */
import { INVALID } from '../core/index.js';
import type { StoreState } from '../core/index.js';
import { checkState } from '../hydration/index.js';

/** What an INVALID entity travels as. No entity is a string, so it cannot be mistaken for one. */
const INVALID_MARK = 'resource-elements:INVALID';

function mapTables(
  entities: StoreState['entities'],
  swap: (value: unknown) => unknown,
): StoreState['entities'] {
  const out: Record<string, unknown> = {};
  for (const type of Object.keys(entities)) {
    const table = entities[type]!;
    let copy: unknown = table;
    // A table that is not an object is left for checkState to name.
    if (table !== null && typeof table === 'object' && !Array.isArray(table)) {
      const rows: Record<string, unknown> = {};
      for (const pk of Object.keys(table)) {
        Object.defineProperty(rows, pk, { value: swap(table[pk]), enumerable: true });
      }
      copy = rows;
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
 * Undoes `encodeState`, and checks the shape: a state from storage or another tab may be from
 * another version of the app. Throws a TypeError naming the first part that does not fit.
 * @example hydrate(controller, decodeState(message.state));
 */
export function decodeState<S extends Partial<StoreState>>(state: S): S {
  const entities = (state as Partial<StoreState> | null | undefined)?.entities;
  const decoded =
    entities !== null && typeof entities === 'object' && !Array.isArray(entities)
      ? {
          ...state,
          entities: mapTables(entities, (value) => (value === INVALID_MARK ? INVALID : value)),
        }
      : state;
  checkState(decoded);
  return decoded;
}
