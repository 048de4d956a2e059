/**
 * `hydrate`: merges a state made elsewhere into this one. Per response and per entity the one
 * fetched later wins, so hydrating an older snapshot over newer data changes nothing, and the
 * expiry of what is taken continues from when it was fetched.
 */
import { getOwn } from '../../util/own.js';
import type { Writer } from '../../normalize/writer.js';
import type { HydrateAction } from '../actions.js';
import type { StoreState } from '../state.js';

export function hydrate(
  state: StoreState,
  { state: incoming, now = Infinity }: HydrateAction,
  writer: Writer,
): StoreState {
  // Fetched "after now" means another clock ahead of ours: taken as now, so that what we fetch
  // or write later is newer, not held back by it, and its expiry moved back as much, so that it
  // stays fresh for as long as it was to stay, not longer by the clocks' difference.
  const upToNow = <M extends { fetchedAt: number; expiresAt: number } | undefined>(
    theirs: M,
  ): M => {
    const ahead = theirs ? theirs.fetchedAt - now : 0;
    return ahead > 0 ? { ...theirs, fetchedAt: now, expiresAt: theirs!.expiresAt - ahead } : theirs;
  };
  let { endpoints, meta, errors, entities, entitiesMeta } = state;
  for (const key of Object.keys(incoming.meta ?? {})) {
    const theirs = upToNow(incoming.meta[key]!);
    const ours = getOwn(meta, key);
    if (ours && ours.fetchedAt > theirs.fetchedAt) continue;
    meta = writer.set(meta, key, theirs);
    endpoints = writer.set(endpoints, key, getOwn(incoming.endpoints, key));
  }
  for (const key of Object.keys(incoming.errors ?? {})) {
    if (!getOwn(errors, key)) errors = writer.set(errors, key, upToNow(incoming.errors[key]!));
  }
  for (const type of Object.keys(incoming.entities ?? {})) {
    const theirTable = incoming.entities[type]!;
    const theirMeta = getOwn(incoming.entitiesMeta ?? {}, type) ?? {};
    let table = getOwn(entities, type) ?? {};
    let tableMeta = getOwn(entitiesMeta, type) ?? {};
    for (const pk of Object.keys(theirTable)) {
      const pkMeta = upToNow(getOwn(theirMeta, pk));
      const ourFetch = getOwn(tableMeta, pk)?.fetchedAt ?? -Infinity;
      if (ourFetch > (pkMeta?.fetchedAt ?? 0)) continue;
      table = writer.set(table, pk, theirTable[pk]!);
      if (pkMeta) tableMeta = writer.set(tableMeta, pk, pkMeta);
    }
    entities = writer.set(entities, type, table);
    entitiesMeta = writer.set(entitiesMeta, type, tableMeta);
  }
  if (!writer.changed) return state;
  return { ...state, endpoints, meta, errors, entities, entitiesMeta };
}
