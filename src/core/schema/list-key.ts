import { hasOwn } from '../util/own.js';
import { isObject, isRecord } from './is.js';

/** A list id's value: the argument as a string, a list or plain object of those, or null. */
export type ListArgValue = string | null | ListArgValue[] | { [key: string]: ListArgValue };

/**
 * One string per argument set (a Collection's list id), the same whatever the key order, with
 * numbers and numeric strings equal and `undefined` left out: `{ b: 1, a: '2' }` and
 * `{ a: 2, b: '1' }` give the same string (nested plain objects too). Arrays and objects stay
 * arrays and objects, and `null` stays null, so
 * `{ tag: ['a', 'b'] }` and `{ tag: 'a,b' }`, or `{ q: null }` and `{ q: 'null' }`, are two lists.
 * @example canonicalArgs({ userId: 1, page: undefined }) // '{"userId":"1"}'
 */
export function canonicalArgs(params: unknown): string {
  if (!isObject(params)) return '{}';
  const keys = Object.keys(params).sort();
  let out = '{';
  let first = true;
  for (const key of keys) {
    if (!hasOwn(params, key)) continue;
    const value = (params as Record<string, unknown>)[key];
    if (value === undefined) continue;
    out += `${first ? '' : ','}${JSON.stringify(key)}:${JSON.stringify(canonicalValue(value))}`;
    first = false;
  }
  return `${out}}`;
}

function canonicalValue(value: unknown): ListArgValue {
  if (value === null) return null;
  if (Array.isArray(value)) return value.map(canonicalValue);
  // A plain object stays an object (not its JSON text), canonical as the top level is. An
  // object with toJSON (a Date) is its JSON text.
  if (typeof value === 'object') {
    return typeof (value as { toJSON?: unknown }).toJSON === 'function'
      ? JSON.stringify(value)
      : (JSON.parse(canonicalArgs(value)) as ListArgValue);
  }
  return String(value);
}

/**
 * The argument object a list id stands for; undefined when the id is not one (a list restored
 * from a damaged or older state), so that list simply matches nothing.
 */
export function parseCanonicalArgs(text: string): Record<string, ListArgValue> | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  return isRecord(parsed) ? (parsed as Record<string, ListArgValue>) : undefined;
}
