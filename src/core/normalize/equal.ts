import { isObject } from '../schema/is.js';
import { hasOwn } from '../util/own.js';

/**
 * Deep equality of plain JSON-like data (what the store holds): lets a refetch of unchanged data
 * keep the stored object, so nothing that shows it re-renders. Objects other than arrays and
 * plain objects are equal only when they are the same object.
 */
export function jsonEqual(a: unknown, b: unknown, depth = 0): boolean {
  if (a === b) return true;
  if (!isObject(a) || !isObject(b)) return false;
  // A value that links back to itself (a process() that adds parent links) would be walked
  // until the stack overflows: past a depth no JSON reaches, it is taken as changed.
  if (depth > 999) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i], depth + 1)) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  // Only plain objects compare by their keys: a Date, a Map or a class instance keeps its value
  // elsewhere than in own keys (two different Dates have none), so it is equal only to itself.
  const proto = Object.getPrototypeOf(a);
  if (proto !== Object.getPrototypeOf(b) || (proto !== Object.prototype && proto !== null)) {
    return false;
  }
  const keysA = Object.keys(a);
  if (keysA.length !== Object.keys(b).length) return false;
  for (const key of keysA) {
    if (!hasOwn(b, key)) return false;
    if (
      !jsonEqual(
        (a as Record<string, unknown>)[key],
        (b as Record<string, unknown>)[key],
        depth + 1,
      )
    )
      return false;
  }
  return true;
}
