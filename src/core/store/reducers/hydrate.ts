/**
 * `hydrate`: merges a state made elsewhere into this one. Per response and per entity the one
 * fetched later wins, so hydrating an older snapshot over newer data changes nothing, and the
 * expiry of what is taken continues from when it was fetched.
 */
import { getOwn } from '../../util/own.js';
import type { RecordWriter } from '../record-writer.js';
import type { StoreState } from '../state.js';

export function hydrate(state: StoreState, incoming: StoreState, writer: RecordWriter): StoreState {
  let { endpoints, meta, errors, entities, entitiesMeta } = state;
  for (const key of Object.keys(incoming.meta ?? {})) {
    const theirs = incoming.meta[key]!;
    const ours = getOwn(meta, key);
    if (ours && ours.fetchedAt > theirs.fetchedAt) continue;
    meta = writer.set(meta, key, theirs);
    endpoints = writer.set(endpoints, key, getOwn(incoming.endpoints, key));
  }
  for (const key of Object.keys(incoming.errors ?? {})) {
    if (!getOwn(errors, key)) errors = writer.set(errors, key, incoming.errors[key]!);
  }
  for (const type of Object.keys(incoming.entities ?? {})) {
    const theirTable = incoming.entities[type]!;
    const theirMeta = getOwn(incoming.entitiesMeta ?? {}, type) ?? {};
    let table = getOwn(entities, type) ?? {};
    let tableMeta = getOwn(entitiesMeta, type) ?? {};
    for (const pk of Object.keys(theirTable)) {
      const ourFetch = getOwn(tableMeta, pk)?.fetchedAt ?? -Infinity;
      const theirFetch = getOwn(theirMeta, pk)?.fetchedAt ?? 0;
      if (ourFetch > theirFetch) continue;
      table = writer.set(table, pk, theirTable[pk]!);
      const pkMeta = getOwn(theirMeta, pk);
      if (pkMeta) tableMeta = writer.set(tableMeta, pk, pkMeta);
    }
    entities = writer.set(entities, type, table);
    entitiesMeta = writer.set(entitiesMeta, type, tableMeta);
  }
  if (!writer.changed) return state;
  return { ...state, endpoints, meta, errors, entities, entitiesMeta };
}
