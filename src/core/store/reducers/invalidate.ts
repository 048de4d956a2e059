/** `invalidate`: responses that must not be shown until fetched again. */
import { getOwn } from '../../util/own.js';
import type { InvalidateAction } from '../actions.js';
import type { Writer } from '../../normalize/writer.js';
import type { StoreState } from '../state.js';

export function invalidate(
  state: StoreState,
  { keys, entities = [] }: InvalidateAction,
  writer: Writer,
): StoreState {
  let { meta, errors, entitiesMeta } = state;
  for (const [type, pk] of entities) {
    const table = getOwn(entitiesMeta, type);
    const at = getOwn(table, pk);
    if (at && at.expiresAt > 0) {
      entitiesMeta = writer.set(
        entitiesMeta,
        type,
        writer.set(table!, pk, { ...at, expiresAt: 0 }),
      );
    }
  }
  for (const key of keys) {
    const current = getOwn(meta, key);
    if (current && !current.invalidated) {
      meta = writer.set(meta, key, { ...current, invalidated: true });
    }
    // An invalidated read must be fetched again now, not after its last error expires.
    errors = writer.delete(errors, key);
  }
  return writer.changed ? { ...state, meta, errors, entitiesMeta } : state;
}
