/**
 * From URL parameters to a request URL. Path parameters fill the template; every other parameter
 * goes to the query string, in the caller's key order for the request and sorted for the cache
 * key, so that `{ a, b }` and `{ b, a }` (and `1` and `'1'`) name one cache entry.
 */
import { encode, place, queryText } from './guards.js';
import { fillPath, pathParams } from './path.js';

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

/** What a URL is built from: an endpoint's options. */
export interface UrlSource {
  readonly urlPrefix: string;
  readonly path: string;
  readonly method: string;
  readonly paginationField?: string | undefined;
}

/**
 * The URL of a call: prefix, filled path, then the query, in the caller's order with the
 * pagination field last, or sorted by name for a cache key (values of one name keep their order).
 * @example buildUrl({ urlPrefix: '', path: '/:group/posts', method: 'GET' }, { group: 'a', author: 'b' }) // '/a/posts?author=b'
 */
export function buildUrl(
  { urlPrefix, path: template, method, paginationField }: UrlSource,
  params: Readonly<Record<string, unknown>>,
  sorted?: boolean,
): string {
  const path = fillPath(template, params, method);
  const inPath = pathParams(template);
  const query = Object.keys(params)
    .filter((name) => !inPath.some((param) => param.name == name))
    .sort(sorted ? undefined : (a, b) => +(a == paginationField) - +(b == paginationField))
    .flatMap((name) => {
      const where = () => place('Query', name, template, method);
      return [params[name]]
        .flat()
        .filter((value) => value !== undefined)
        .map((value) => `${encode(name, where)}=${encode(queryText(value, where), where)}`);
    })
    .join('&');
  // One `/` between prefix and path: '/api/' and '/todos' must not make `/api//todos` (which
  // servers route apart), nor '/' and '/todos' make `//todos`, a host to a browser.
  const url = urlPrefix + (urlPrefix.endsWith('/') && path[0] == '/' ? path.slice(1) : path);
  // A template may hold a literal (escaped) `?`: then the query continues it.
  return query ? url + (url.includes('?') ? '&' : '?') + query : url;
}
