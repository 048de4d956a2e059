/**
 * Where an endpoint's response lives in the store. Usually `endpoint.key(...args)`; the pages of
 * an endpoint that appends them (`getList.getPage`) all land on the list they page, so its key and
 * its normalization arguments leave the pagination field out. A RestEndpoint's own read with the
 * field (`getList({ page: 2 })`) is a read of its own.
 */
import { removeCursor } from '../schema/pagination.js';
import type { EndpointLike } from './types.js';

/**
 * The arguments a response is stored and normalized with.
 * @example storeArgs(getPage, [{ page: 2, author: 'a' }]) // [{ author: 'a' }]
 */
export function storeArgs(endpoint: EndpointLike, args: readonly unknown[]): readonly unknown[] {
  const field = !endpoint.keepsPage && endpoint.paginationField;
  const params = field ? removeCursor(args[0], field) : args[0];
  return params === args[0] ? args : [params, ...args.slice(1)];
}

/**
 * The key a response is stored under.
 * @example storeKey(getPage, [{ page: 2 }]) === getPage.key({}) // true
 */
export function storeKey(endpoint: EndpointLike, args: readonly unknown[]): string {
  return endpoint.key(...storeArgs(endpoint, args));
}
