/** `gc`: drops unused responses and unreferenced entities, in one pass whatever their number. */
import { getOwn } from '../../util/own.js';
import type { GcAction } from '../actions.js';
import type { Writer } from '../../normalize/writer.js';
import { TABLES } from '../state.js';
import type { StoreState } from '../state.js';

type Tables = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

export function collect(
  state: StoreState,
  { keys, entities }: GcAction,
  writer: Writer,
): StoreState {
  const next: Record<string, unknown> = { ...state };
  for (const name of TABLES) {
    let tables = state[name] as Tables;
    if (name === 'entities' || name === 'entitiesMeta') {
      // The first pk dropped from a table copies it (unless the store owns it); the others go in
      // place, so a pass costs what it drops.
      for (const [type, pk] of entities) {
        const table = getOwn(tables, type);
        if (table) tables = writer.set(tables, type, writer.delete(table, pk));
      }
      // Emptiness once per table, after all its deletions: checking after each one walks a table
      // full of deleted slots again and again (a pass grew with its square).
      for (const type of new Set(entities.map(([type]) => type))) {
        if (isEmpty(getOwn(tables, type))) tables = writer.delete(tables, type);
      }
    } else tables = writer.delete(tables, keys);
    next[name] = tables;
  }
  return writer.changed ? (next as unknown as StoreState) : state;
}

function isEmpty(record: object | undefined): boolean {
  for (const _key in record) return false;
  return true;
}
