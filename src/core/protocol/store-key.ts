/**
 * Where an endpoint's response lives in the store. Usually `endpoint.key(...args)`; a paginated
 * endpoint's pages all land on the list they page, so its key and its normalization arguments
 * leave the pagination field out.
 */
import { hasOwn } from '../util/own.js';
import type { EndpointLike } from './types.js';

/**
 * The arguments a response is stored and normalized with.
 * @example storeArgs(getPage, [{ page: 2, author: 'a' }]) // [{ author: 'a' }]
 */
export function storeArgs(endpoint: EndpointLike, args: readonly unknown[]): readonly unknown[] {
  const field = endpoint.paginationField;
  const params = args[0];
  if (!field || params === null || typeof params !== 'object' || !hasOwn(params, field)) {
    return args;
  }
  const rest: Record<string, unknown> = { ...(params as Record<string, unknown>) };
  delete rest[field];
  return [rest, ...args.slice(1)];
}

/**
 * The key a response is stored under.
 * @example storeKey(getPage, [{ page: 2 }]) === getPage.key({}) // true
 */
export function storeKey(endpoint: EndpointLike, args: readonly unknown[]): string {
  return endpoint.key(...storeArgs(endpoint, args));
}
