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
 * Undoes `encodeState`, and checks the shape first: a state from storage or another tab may be
 * from another version of the app. Throws a TypeError naming the first part that does not fit.
 * @example hydrate(controller, decodeState(message.state));
 */
export function decodeState<S extends Partial<StoreState>>(state: S): S {
  checkState(state);
  if (!state.entities) return state;
  return {
    ...state,
    entities: mapTables(state.entities, (value) => (value === INVALID_MARK ? INVALID : value)),
  };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function checkState(state: unknown): void {
  const fail = (where: string, what: string): never => {
    throw new TypeError(`The state at ${where} ${what}.`);
  };
  if (!isObject(state)) fail('its root', 'is not an object');
  const root = state as Record<string, unknown>;
  const table = (name: string): Record<string, unknown> | undefined => {
    const value = root[name];
    if (value === undefined) return undefined;
    if (!isObject(value)) fail(name, 'is not an object');
    return value as Record<string, unknown>;
  };
  const stamps = (where: string, meta: unknown, fields: readonly string[]): void => {
    if (!isObject(meta)) fail(where, 'is not an object');
    for (const field of fields) {
      if (typeof (meta as Record<string, unknown>)[field] !== 'number') {
        fail(`${where}.${field}`, 'is not a number');
      }
    }
  };
  for (const [type, rows] of Object.entries(table('entities') ?? {})) {
    if (!isObject(rows)) fail(`entities.${type}`, 'is not an object');
  }
  for (const [type, rows] of Object.entries(table('entitiesMeta') ?? {})) {
    if (!isObject(rows)) fail(`entitiesMeta.${type}`, 'is not an object');
    for (const [pk, meta] of Object.entries(rows as Record<string, unknown>)) {
      stamps(`entitiesMeta.${type}[${JSON.stringify(pk)}]`, meta, ['date', 'fetchedAt']);
    }
  }
  table('endpoints');
  for (const [key, meta] of Object.entries(table('meta') ?? {})) {
    stamps(`meta[${JSON.stringify(key)}]`, meta, ['date', 'fetchedAt', 'expiresAt']);
  }
  for (const [key, error] of Object.entries(table('errors') ?? {})) {
    stamps(`errors[${JSON.stringify(key)}]`, error, ['fetchedAt', 'expiresAt']);
  }
  if (root.lastReset !== undefined && typeof root.lastReset !== 'number') {
    fail('lastReset', 'is not a number');
  }
}
