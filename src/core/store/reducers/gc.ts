/** `gc`: drops unused responses and unreferenced entities, in one pass whatever their number. */
import type { EntityMetaTable, EntityTable } from '../../schema/types.js';
import { getOwn, hasOwn } from '../../util/own.js';
import type { GcAction } from '../actions.js';
import type { RecordWriter } from '../record-writer.js';
import type { StoreState } from '../state.js';

export function collect(state: StoreState, action: GcAction, writer: RecordWriter): StoreState {
  let { endpoints, meta, errors } = state;
  for (const key of action.keys) {
    endpoints = writer.delete(endpoints, key);
    meta = writer.delete(meta, key);
    errors = writer.delete(errors, key);
  }
  const entities = withoutEntities(state.entities, action.entities, writer);
  const entitiesMeta = withoutEntities(state.entitiesMeta, action.entities, writer);
  if (!writer.changed) return state;
  return { ...state, endpoints, meta, errors, entities, entitiesMeta };
}

function withoutEntities<T extends EntityTable | EntityMetaTable>(
  tables: T,
  entities: readonly (readonly [string, string])[],
  writer: RecordWriter,
): T {
  let next = tables as Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  const touched = new Set<string>();
  for (const [key, pk] of entities) {
    const table = getOwn(next, key);
    if (!table || !hasOwn(table, pk)) continue;
    next = writer.set(next, key, writer.delete(table, pk));
    touched.add(key);
  }
  // Emptiness is checked once per table, after its deletions: checking after each one walks a
  // table full of deleted slots again and again, which made one pass grow with the square of
  // what it collects.
  for (const key of touched) {
    if (isEmpty(getOwn(next, key)!)) next = writer.delete(next, key);
  }
  return next as T;
}

function isEmpty(record: object): boolean {
  for (const _key in record) return false;
  return true;
}
