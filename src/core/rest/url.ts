/**
 * From URL parameters to a request URL and a cache key. Path parameters fill the template; every
 * other parameter goes to the query string in the caller's key order. The key sorts the query so
 * that `{ a, b }` and `{ b, a }` (and `1` and `'1'`) name one cache entry.
 */
import { encodeComponent, fillPath, paramPlace, pathParams } from './path.js';

/** A value that can go in a query string: arrays repeat the key, undefined is left out. */
export type QueryValue =
  | string
  | number
  | boolean
  | bigint
  | Date
  | null
  | undefined
  | readonly (string | number | boolean | bigint | Date | null | undefined)[];

const pathNames = new Map<string, ReadonlySet<string>>();

function namesOf(template: string): ReadonlySet<string> {
  let names = pathNames.get(template);
  if (!names) {
    names = new Set(pathParams(template).map((param) => param.name));
    pathNames.set(template, names);
  }
  return names;
}

function queryText(value: unknown, where: () => string): string {
  if (value === null) return '';
  const date = value instanceof Date;
  // NaN, Infinity and an invalid Date have no text a server would read as meant.
  if (date ? isNaN(value.getTime()) : typeof value === 'number' && !isFinite(value)) {
    throw new TypeError(`${where()} is ${String(value)}.`);
  }
  if (date) return value.toISOString();
  if (typeof value === 'object' || typeof value === 'function' || typeof value === 'symbol') {
    throw new TypeError(
      `${where()} must be a query value${
        (typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production'
          ? ' (a string, number, boolean, Date or an array of them)'
          : ''
      }: got ${typeof value}.`,
    );
  }
  return String(value);
}

/**
 * The query pairs of `params`: every own key that is not a path parameter, in the caller's order
 * (with `last` moved to the end), undefined values left out, arrays as one pair per item. Errors
 * name the `method` when it is given.
 * @example queryPairs('/posts/:id', { id: 1, tag: ['a', 'b'] }) // [['tag', 'a'], ['tag', 'b']]
 */
export function queryPairs(
  template: string,
  params: Readonly<Record<string, unknown>> = {},
  last?: string,
  method?: string,
): [string, string][] {
  const names = namesOf(template);
  const keys = Object.keys(params).filter((key) => !names.has(key));
  if (last !== undefined && keys.includes(last)) {
    keys.splice(keys.indexOf(last), 1);
    keys.push(last);
  }
  const pairs: [string, string][] = [];
  for (const key of keys) {
    const value = params[key];
    const where = () => paramPlace('Query', key, template, method);
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      for (const item of value) if (item !== undefined) pairs.push([key, queryText(item, where)]);
    } else {
      pairs.push([key, queryText(value, where)]);
    }
  }
  return pairs;
}

/**
 * Writes pairs as `name=value&…`, each part percent-encoded; errors name the parameter as
 * `paramPlace` does.
 * @example formatQuery([['q', 'a b']], '/search') // 'q=a%20b'
 */
export function formatQuery(
  pairs: readonly (readonly [string, string])[],
  template: string,
  method?: string,
): string {
  return pairs
    .map(
      ([name, value]) =>
        `${encodeComponent(name, () => 'A query parameter name')}=${encodeComponent(value, () => paramPlace('Query', name, template, method))}`,
    )
    .join('&');
}

/** A user name or password in a URL (`https://me:s3cret@host`), up to its `@`. */
const USERINFO = /^([a-z][a-z\d+.-]*:\/\/)[^/?#]*@/i;

/**
 * `url` with any user name and password replaced by `***`: what keys, names and errors may show.
 * fetch refuses such URLs anyway; the secret must not reach a message, a store key or a page.
 * @example hideCredentials('https://me:s3cret@api.test/todos') // 'https://***@api.test/todos'
 */
export function hideCredentials(url: string): string {
  return url.replace(USERINFO, '$1***@');
}

/**
 * The prefix and the filled path with one `/` between them when both have one: `'/api/'` and
 * `'/todos'` must not make `/api//todos` (which servers route apart), nor `'/'` and `'/todos'` make
 * `//todos`, which a browser reads as the host "todos".
 */
function prefixed(
  urlPrefix: string,
  template: string,
  params: Readonly<Record<string, unknown>>,
  method?: string,
) {
  const path = fillPath(template, params, method);
  return urlPrefix.endsWith('/') && path[0] === '/' ? urlPrefix + path.slice(1) : urlPrefix + path;
}

function join(path: string, query: string): string {
  if (!query) return path;
  // A template may hold a literal (escaped) `?`, e.g. '/search\\?q=:q': then the query continues.
  return `${path}${path.includes('?') ? '&' : '?'}${query}`;
}

/**
 * The request URL: prefix, filled path, query in the caller's order. Errors about a value name
 * the `method` when it is given.
 * @example buildUrl('https://api.test', '/:group/posts', { group: 'a', author: 'b' })
 * // 'https://api.test/a/posts?author=b'
 */
export function buildUrl(
  urlPrefix: string,
  template: string,
  params: Readonly<Record<string, unknown>> = {},
  last?: string,
  method?: string,
): string {
  return join(
    prefixed(urlPrefix, template, params, method),
    formatQuery(queryPairs(template, params, last, method), template, method),
  );
}

/**
 * The cache key: `METHOD URL` with the query sorted by name (values of one name keep their order).
 * @example buildKey('GET', '', '/posts', { b: 2, a: '1' }) // 'GET /posts?a=1&b=2'
 */
export function buildKey(
  method: string,
  urlPrefix: string,
  template: string,
  params: Readonly<Record<string, unknown>> = {},
): string {
  const pairs = queryPairs(template, params, undefined, method).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  return `${method} ${hideCredentials(join(prefixed(urlPrefix, template, params, method), formatQuery(pairs, template, method)))}`;
}
