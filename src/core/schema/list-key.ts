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
  let out = '';
  for (const key of Object.keys(params).sort()) {
    const value = (params as Record<string, unknown>)[key];
    if (value !== undefined) out += `,${JSON.stringify(key)}:${canonicalValue(value)}`;
  }
  return `{${out.slice(1)}}`;
}

/**
 * The JSON text of one argument value, as `canonicalArgs` writes it: a plain object canonical as
 * the top level is, an array member by member, an object with toJSON (a Date) as its JSON text,
 * anything else as its string.
 * @example canonicalValue([1, null]) // '["1",null]'
 */
export function canonicalValue(value: unknown): string {
  return value === null
    ? 'null'
    : Array.isArray(value)
      ? `[${value.map(canonicalValue)}]`
      : isObject(value) && typeof (value as { toJSON?: unknown }).toJSON !== 'function'
        ? canonicalArgs(value)
        : JSON.stringify(isObject(value) ? JSON.stringify(value) : String(value));
}

/**
 * The argument object a list id stands for; undefined when the id is not one (a list restored
 * from a damaged or older state), so that list simply matches nothing.
 * @example parseCanonicalArgs('{"userId":"1"}') // { userId: '1' }
 */
export function parseCanonicalArgs(text: string): Record<string, ListArgValue> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return isRecord(parsed) ? (parsed as Record<string, ListArgValue>) : undefined;
  } catch {
    return undefined;
  }
}
