/**
 * Request init helpers: headers as a plain record (merged by case-insensitive name), and the
 * equality `hookifyResource` uses to keep one endpoint per unchanged init.
 */

import { defineOwn } from '../util/own.js';

/**
 * Headers of any `HeadersInit` shape as a plain record, names as given.
 * @example headersRecord([['Accept', 'text/plain']]) // { Accept: 'text/plain' }
 */
export function headersRecord(headers: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (headers === undefined || headers === null) return out;
  if (Array.isArray(headers) || typeof (headers as Headers).forEach !== 'function') {
    for (const [name, value] of Array.isArray(headers) ? headers : Object.entries(headers)) {
      setHeader(out, name, value);
    }
  } else {
    (headers as Headers).forEach((value, name) => setHeader(out, name, value));
  }
  return out;
}

/**
 * Sets a header, replacing one of the same name in any letter case.
 * @example setHeader(h, 'content-type', 'text/plain') // replaces h['Content-Type']
 */
export function setHeader(headers: Record<string, string>, name: string, value: string): void {
  const lower = name.toLowerCase();
  for (const existing of Object.keys(headers)) {
    if (existing.toLowerCase() === lower) delete headers[existing];
  }
  defineOwn(headers, name, String(value));
}

/**
 * `extra` over `base`; headers merged by name instead of replaced.
 * @example mergeInit({ headers: { A: '1' } }, { headers: { B: '2' } }) // { headers: { A: '1', B: '2' } }
 */
export function mergeInit(
  base: RequestInit | undefined,
  extra: RequestInit | undefined,
): RequestInit {
  const out: RequestInit = { ...base, ...extra };
  if (base?.headers !== undefined || extra?.headers !== undefined) {
    const headers = headersRecord(base?.headers);
    for (const [name, value] of Object.entries(headersRecord(extra?.headers))) {
      setHeader(headers, name, value);
    }
    out.headers = headers;
  }
  return out;
}

function headersKey(headers: HeadersInit | undefined): string {
  const record = headersRecord(headers);
  return JSON.stringify(
    Object.keys(record)
      .map((name) => [name.toLowerCase(), record[name]])
      .sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0)),
  );
}

/**
 * Shallow equality of two inits, with headers compared by value (a fresh `{ headers: {…} }` per
 * render is still "the same init").
 * @example sameInit({ headers: { A: '1' } }, { headers: { a: '1' } }) // true
 */
export function sameInit(a: RequestInit | undefined, b: RequestInit | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    const left = (a as Record<string, unknown>)[key];
    const right = (b as Record<string, unknown>)[key];
    if (key === 'headers') {
      if (headersKey(left as HeadersInit) !== headersKey(right as HeadersInit)) return false;
    } else if (!Object.is(left, right)) {
      return false;
    }
  }
  return true;
}

/**
 * True for a body fetch sends as it is (a string, bytes, FormData, Blob, URLSearchParams, a
 * stream); any other body is sent as JSON.
 * @example isRawBody(new FormData()) // true
 */
export function isRawBody(body: unknown): boolean {
  if (typeof body === 'string') return true;
  if (body === null || typeof body !== 'object') return false;
  if (ArrayBuffer.isView(body) || body instanceof ArrayBuffer) return true;
  for (const name of ['FormData', 'Blob', 'URLSearchParams', 'ReadableStream']) {
    const type = (globalThis as Record<string, unknown>)[name];
    if (typeof type === 'function' && body instanceof (type as new () => unknown)) return true;
  }
  return false;
}
