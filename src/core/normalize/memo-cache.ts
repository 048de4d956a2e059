import type { Args, EntityTable } from '../schema/types.js';
import { Denormalizer, depsValid } from './denormalizer.js';
import type { Dependencies, MemoEntry, StoredMemo } from './denormalizer.js';

/**
 * The same dependencies, each once and grouped by key, so checking a cached read costs one
 * lookup per entity it shows (a user on 17 articles is checked once, not 17 times).
 */
function compact(deps: Dependencies): Dependencies {
  const byKey = new Map<unknown, Map<unknown, unknown>>();
  for (let i = 0; i < deps.length; i += 3) {
    let pks = byKey.get(deps[i]);
    if (pks === undefined) byKey.set(deps[i], (pks = new Map()));
    pks.set(deps[i + 1], deps[i + 2]);
  }
  const out: Dependencies = [];
  for (const [key, pks] of byKey) for (const [pk, stored] of pks) out.push(key, pk, stored);
  return out;
}

/**
 * Memoized denormalize: the same inputs give the same output object (===), and changing one
 * entity gives new objects only along the paths that contain it. One per store.
 * @example
 * const memo = new MemoCache();
 * memo.denormalize([Todo], ['1', '2'], entities) === memo.denormalize([Todo], ['1', '2'], entities) // true
 */
export class MemoCache {
  private readonly stored: StoredMemo = new WeakMap();
  private readonly byObject = new WeakMap<object, Map<unknown, MemoEntry>>();
  // Reads whose normalized result is a plain value (a pk): bounded, as pks do not die like objects.
  private readonly byValue = new Map<unknown, Map<unknown, MemoEntry>>();
  private static readonly maxValueEntries = 10_000;

  denormalize(schema: unknown, input: unknown, entities: EntityTable, _args: Args = []): unknown {
    const bySchema = this.entriesFor(input);
    const hit = bySchema.get(schema);
    if (hit && depsValid(hit.deps, entities)) return hit.value;
    const entry = new Denormalizer(entities, this.stored).run(schema, input);
    bySchema.set(schema, { value: entry.value, deps: compact(entry.deps) });
    return entry.value;
  }

  private entriesFor(input: unknown): Map<unknown, MemoEntry> {
    if (input !== null && typeof input === 'object') {
      let entries = this.byObject.get(input);
      if (!entries) this.byObject.set(input, (entries = new Map()));
      return entries;
    }
    let entries = this.byValue.get(input);
    if (!entries) {
      if (this.byValue.size >= MemoCache.maxValueEntries) this.byValue.clear();
      this.byValue.set(input, (entries = new Map()));
    }
    return entries;
  }
}
