/** `invalidate`: responses that must not be shown until fetched again. */
import { getOwn, hasOwn } from '../../util/own.js';
import type { Writer } from '../../normalize/writer.js';
import type { StoreState } from '../state.js';

export function invalidate(state: StoreState, keys: readonly string[], writer: Writer): StoreState {
  let meta = state.meta;
  let errors = state.errors;
  for (const key of keys) {
    const current = getOwn(meta, key);
    if (current && !current.invalidated)
      meta = writer.set(meta, key, { ...current, invalidated: true });
    // An invalidated read must be fetched again now, not after its last error expires.
    if (hasOwn(errors, key)) errors = writer.delete(errors, key);
  }
  return writer.changed ? { ...state, meta, errors } : state;
}
