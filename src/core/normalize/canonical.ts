import { hasOwn } from '../util/own.js';

/**
 * One string per argument set, the same whatever the key order, with numbers and numeric strings
 * equal and `undefined` left out: `{ b: 1, a: '2' }` and `{ a: 2, b: '1' }` give the same string.
 * @example canonicalArgs({ userId: 1, page: undefined }) // '{"userId":"1"}'
 */
export function canonicalArgs(params: unknown): string {
  if (params === null || typeof params !== 'object') return '{}';
  const keys = Object.keys(params).sort();
  let out = '{';
  let first = true;
  for (const key of keys) {
    if (!hasOwn(params, key)) continue;
    const value = (params as Record<string, unknown>)[key];
    if (value === undefined) continue;
    out += `${first ? '' : ','}${JSON.stringify(key)}:${JSON.stringify(stringifyValue(value))}`;
    first = false;
  }
  return `${out}}`;
}

function stringifyValue(value: unknown): string {
  if (Array.isArray(value)) return value.map(stringifyValue).join(',');
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The argument object a canonical string stands for (values as strings). */
export function parseCanonicalArgs(text: string): Record<string, string> {
  const parsed = JSON.parse(text) as Record<string, string>;
  return parsed !== null && typeof parsed === 'object' ? parsed : {};
}
