/**
 * Pagination, in one place: finding the Collection in an endpoint's schema, the page variant of
 * that schema, dropping the cursor from a call's params, and appending a page to its list.
 */
import type { Args } from './types.js';
import { appendNew, Collection } from './collection.js';
import type { CollectionMerge, CreateCollectionFilter } from './collection.js';
import { ObjectSchema } from './object.js';
import { canonicalArgs } from './list-key.js';
import { hasOwn } from '../util/own.js';
import { isObject, isRecord } from './is.js';

/**
 * Appends a page to a list: the stored members, then the incoming ones not already there.
 * @example paginatedMerge(['1', '2'], ['2', '3']) // ['1', '2', '3']
 */
export const paginatedMerge: CollectionMerge = appendNew;

/**
 * The URL params without the pagination field (`cursor` unless named), i.e. the params of the list
 * a page belongs to.
 * @example removeCursor({ userId: 1, page: 2 }, 'page') // { userId: 1 }
 */
export function removeCursor<P>(params: P, paginationField = 'cursor'): P {
  if (!isObject(params) || !hasOwn(params, paginationField)) return params;
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

/**
 * The Collection in a schema, at any depth of its object schemas (`{ data: { results: list } }`,
 * `new schema.Object({ items: list })`), with the member names that lead to it.
 * @example findCollection({ data: { results: list } }) // { collection: list, path: ['data', 'results'] }
 */
export function findCollection(
  schema: unknown,
  path: readonly string[] = [],
): { collection: Collection; path: readonly string[] } | undefined {
  if (schema instanceof Collection) return { collection: schema, path };
  const shape = schema instanceof ObjectSchema ? schema.schema : schema;
  if (!isRecord(shape)) return undefined;
  if (typeof (shape as { normalize?: unknown }).normalize === 'function') return undefined;
  for (const member of Object.keys(shape)) {
    const found = findCollection((shape as Record<string, unknown>)[member], [...path, member]);
    if (found) return found;
  }
  return undefined;
}

/** `schema` with the member at `path` replaced (copies along the path; the original is kept). */
export function replaceAt(schema: unknown, path: readonly string[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [member, ...rest] = path as [string, ...string[]];
  if (schema instanceof ObjectSchema) {
    return new ObjectSchema(replaceAt(schema.schema, path, replacement) as ObjectSchema['schema']);
  }
  const shape = schema as Record<string, unknown>;
  return { ...shape, [member]: replaceAt(shape[member], rest, replacement) };
}

/**
 * The schema of `getPage`: the Collection in `schema` (at any depth) appending each page to the
 * list fetched without `field`, never repeating a member. Throws "Missing Collection" when the
 * schema holds none.
 * @example pageSchema({ results: list, total: 0 }, 'page', 'Todo.getList')
 */
export function pageSchema(schema: unknown, field: string, name: string): unknown {
  const found = findCollection(schema);
  if (!found) {
    throw new TypeError(
      `Missing Collection: ${name}.getPage${(typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production' ? ' appends pages to a schema.Collection, and its schema has none. Use new schema.Collection([Entity]) (alone or as a member, e.g. { results: collection }).' : ''}`,
    );
  }
  const paged = found.collection.addWith(
    paginatedMerge,
    paginatedFilter((params: Record<string, unknown>) => removeCursor(params, field)),
  );
  return replaceAt(schema, found.path, paged);
}
