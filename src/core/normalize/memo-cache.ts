import type { EntityTable } from '../schema/types.js';
import { Denormalizer, depsValid } from './denormalizer.js';
import type { Dependencies, MemoEntry, StoredMemo } from './denormalizer.js';
import { entry, hasOwn, setOwn } from '../util/own.js';
import { isObject } from '../schema/is.js';

/**
 * The same dependencies, each once and grouped by key, so checking a cached read costs one
 * lookup per entity it shows (a user on 17 articles is checked once, not 17 times).
 */
function compact(deps: Dependencies): Dependencies {
  const byKey = new Map<unknown, Map<unknown, unknown>>();
  for (let i = 0; i < deps.length; i += 3) {
    entry(byKey, deps[i], Map).set(deps[i + 1], deps[i + 2]);
  }
  const out: Dependencies = [];
  for (const [key, pks] of byKey) for (const [pk, stored] of pks) out.push(key, pk, stored);
  return out;
}

/** A plain array or object: what a read builds around its entities, which keep their own identity. */
function isPlain(value: unknown): value is Record<string, unknown> {
  return (
    Array.isArray(value) || (isObject(value) && Object.getPrototypeOf(value) === Object.prototype)
  );
}

/**
 * `next`, where each plain array and object whose members are all the same as in `old` (===, or
 * the same by this rule) is old's own: when one entity changed, only the objects on the paths to
 * it are new (a sibling list or Values map keeps its object). Each object of `next` is looked at
 * once (`done`), so a value that links back to itself ends.
 */
function share(old: unknown, next: unknown, done: Map<object, unknown>): unknown {
  const array = Array.isArray(next);
  if (old === next || !isPlain(old) || !isPlain(next) || array !== Array.isArray(old)) return next;
  if (done.has(next)) return done.get(next);
  done.set(next, next);
  // An array by index: its keys as strings would cost one string per member of a long list.
  const keys: Iterable<string | number> = array ? next.keys() : Object.keys(next);
  let same = array
    ? next.length === old.length
    : Object.keys(old).length === Object.keys(next).length;
  let out: Record<string, unknown> | undefined;
  for (const key of keys) {
    const member = next[key];
    const had = hasOwn(old, key);
    // The same member (every unchanged entity of a list) needs no look inside.
    const kept = !had || old[key] === member ? member : share(old[key], member, done);
    if (kept !== member) {
      // Spread copies a `__proto__` member as data.
      out ??= array ? ([...next] as never) : { ...next };
      setOwn(out!, key as string, kept);
    }
    same &&= had && kept === old[key];
  }
  const value = same ? old : (out ?? next);
  done.set(next, value);
  return value;
}

/**
 * Memoized denormalize: the same inputs give the same output object (===), and changing one
 * entity gives new objects only along the paths that contain it. One per store.
 * @example
 * const memo = new MemoCache();
 * memo.denormalize([Todo], ['1', '2'], entities) === memo.denormalize([Todo], ['1', '2'], entities) // true
 */
export class MemoCache {
  #stored: StoredMemo = new WeakMap();
  readonly #byObject = new WeakMap<object, Map<unknown, MemoEntry[]>>();
  // Reads whose normalized result is a plain value (a pk): bounded (10,000 values), as pks do not
  // die like objects.
  readonly #byValue = new Map<unknown, Map<unknown, MemoEntry[]>>();

  /** Denormalizes `input` by `schema` against `entities`, the same object for the same inputs. */
  denormalize(schema: unknown, input: unknown, entities: EntityTable): unknown {
    const bySchema = this.#entriesFor(input);
    // The last two results are kept: an optimistic update that is rolled back brings the tables
    // back to the older one, which is then still valid as it was.
    const recent = bySchema.get(schema) ?? [];
    for (let i = recent.length; i--;) {
      if (depsValid(recent[i]!.deps, entities)) return recent[i]!.value;
    }
    let result: MemoEntry;
    const pass = new Denormalizer(entities, this.#stored);
    try {
      result = pass.run(schema, input);
    } catch (error) {
      // A pass that failed (a constructor that threw, a graph too deep for the stack) left its
      // unfinished values behind as if built: forget them all, so the next read tries again
      // instead of finding "missing".
      this.#stored = new WeakMap();
      throw error;
    }
    // What is the same as in the last read keeps its object, so nothing re-renders for it; a
    // read the same as the one before (an optimistic update rolled back) is that one.
    let value = result.value;
    const last = recent.at(-1)?.value;
    if (recent.length) {
      const older = recent[0]!.value;
      value = share(last, value, new Map());
      if (value !== last && older !== last && share(older, value, new Map()) === older) {
        value = older;
      }
    }
    const next = { value, deps: pass.repeated ? compact(result.deps) : result.deps };
    bySchema.set(schema, [...recent.slice(-1), next]);
    return value;
  }

  #entriesFor(input: unknown): Map<unknown, MemoEntry[]> {
    if (isObject(input)) return entry(this.#byObject, input, Map);
    const byValue = this.#byValue;
    if (byValue.size >= 10_000 && !byValue.has(input)) byValue.clear();
    return entry(byValue, input, Map);
  }
}
