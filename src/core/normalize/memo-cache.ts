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

/** Arrays with the same members, or plain objects with the same own values (compared with ===). */
function sameMembers(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }
  if (Array.isArray(b) || Object.getPrototypeOf(a) !== Object.prototype) return false;
  if (Object.getPrototypeOf(b) !== Object.prototype) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    if (!Object.prototype.hasOwnProperty.call(b, key)) return false;
    if ((a as Record<string, unknown>)[key] !== (b as Record<string, unknown>)[key]) return false;
  }
  return true;
}

/**
 * Memoized denormalize: the same inputs give the same output object (===), and changing one
 * entity gives new objects only along the paths that contain it. One per store.
 * @example
 * const memo = new MemoCache();
 * memo.denormalize([Todo], ['1', '2'], entities) === memo.denormalize([Todo], ['1', '2'], entities) // true
 */
export class MemoCache {
  private stored: StoredMemo = new WeakMap();
  private readonly byObject = new WeakMap<object, Map<unknown, MemoEntry[]>>();
  // Reads whose normalized result is a plain value (a pk): bounded, as pks do not die like objects.
  private readonly byValue = new Map<unknown, Map<unknown, MemoEntry[]>>();
  private static readonly maxValueEntries = 10_000;

  denormalize(schema: unknown, input: unknown, entities: EntityTable, _args: Args = []): unknown {
    const bySchema = this.entriesFor(input);
    // The last two results are kept: an optimistic update that is rolled back brings the tables
    // back to the older one, which is then still valid as it was.
    const recent = bySchema.get(schema);
    if (recent !== undefined) {
      for (let i = recent.length - 1; i >= 0; i--) {
        if (depsValid(recent[i]!.deps, entities)) return recent[i]!.value;
      }
    }
    let entry: MemoEntry;
    try {
      entry = new Denormalizer(entities, this.stored).run(schema, input);
    } catch (error) {
      // A pass that failed (a constructor that threw, a graph too deep for the stack) left its
      // unfinished values behind as if built: forget them all, so the next read tries again
      // instead of finding "missing".
      this.stored = new WeakMap();
      throw error;
    }
    // A read that comes out with the very same members as a recent one keeps that object, so
    // nothing re-renders for it.
    const same = recent?.find((old) => sameMembers(old.value, entry.value));
    const value = same !== undefined ? same.value : entry.value;
    const next = { value, deps: compact(entry.deps) };
    bySchema.set(schema, recent === undefined ? [next] : [recent[recent.length - 1]!, next]);
    return value;
  }

  private entriesFor(input: unknown): Map<unknown, MemoEntry[]> {
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
