import type { Args } from '../schema/types.js';
import type { CollectionMerge, CreateCollectionFilter } from '../schema/collection.js';
import { canonicalArgs } from '../schema/list-key.js';
import { hasOwn } from '../util/own.js';

/**
 * Appends a page to a list: the stored members, then the incoming ones not already there.
 * @example paginatedMerge(['1', '2'], ['2', '3']) // ['1', '2', '3']
 */
export const paginatedMerge: CollectionMerge = (existing, incoming) => {
  const seen = new Set(existing.map((member) => JSON.stringify(member)));
  return [...existing, ...incoming.filter((member) => !seen.has(JSON.stringify(member)))];
};

/**
 * The URL params without the pagination field (`cursor` unless named), i.e. the params of the list
 * a page belongs to.
 * @example removeCursor({ userId: 1, page: 2 }, 'page') // { userId: 1 }
 */
export function removeCursor<P>(params: P, paginationField = 'cursor'): P {
  if (params === null || typeof params !== 'object' || !hasOwn(params, paginationField))
    return params;
  const rest = { ...(params as Record<string, unknown>) };
  delete rest[paginationField];
  return rest as P;
}

/**
 * A filter that adds a page only to the one list whose args equal the call's args without the
 * cursor (so page 2 of `{ userId: 1 }` never lands on the `{}` list).
 * @example list.addWith(paginatedMerge, paginatedFilter((params) => removeCursor(params, 'page')))
 */
export function paginatedFilter(
  remove: (params: any) => unknown = removeCursor,
): CreateCollectionFilter {
  return (...args: Args) => {
    const wanted = canonicalArgs(remove(args[0]));
    return (listArgs) => canonicalArgs(listArgs) === wanted;
  };
}
