/** `gc`: drops unused responses and unreferenced entities, in one pass whatever their number. */
import type { EntityMetaTable, EntityTable } from '../../schema/types.js';
import { getOwn } from '../../util/own.js';
import type { GcAction } from '../actions.js';
import type { Writer } from '../../normalize/writer.js';
import type { StoreState } from '../state.js';

export function collect(state: StoreState, action: GcAction, writer: Writer): StoreState {
  const { keys } = action;
  // Each table is written once for all its pks, not once per pk.
  const pksByKey = new Map<string, string[]>();
  for (const [key, pk] of action.entities) {
    const pks = pksByKey.get(key);
    if (pks) pks.push(pk);
    else pksByKey.set(key, [pk]);
  }
  const next = {
    ...state,
    endpoints: writer.delete(state.endpoints, keys),
    meta: writer.delete(state.meta, keys),
    errors: writer.delete(state.errors, keys),
    entities: withoutEntities(state.entities, pksByKey, writer),
    entitiesMeta: withoutEntities(state.entitiesMeta, pksByKey, writer),
  };
  return writer.changed ? next : state;
}

function withoutEntities<T extends EntityTable | EntityMetaTable>(
  tables: T,
  pksByKey: ReadonlyMap<string, readonly string[]>,
  writer: Writer,
): T {
  let next = tables as Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  for (const [key, pks] of pksByKey) {
    const table = getOwn(next, key);
    if (!table) continue;
    const rest = writer.delete(table, pks);
    // Emptiness is checked once per table, after all its deletions: checking after each one
    // walks a table full of deleted slots again and again (a pass grew with its square). A
    // table the store owns loses its pks in place, so `rest` may be `table` itself.
    if (isEmpty(rest)) next = writer.delete(next, key);
    else if (rest !== table) next = writer.set(next, key, rest);
  }
  return next as T;
}

function isEmpty(record: object): boolean {
  for (const _key in record) return false;
  return true;
}
