/**
 * Pagination, in one place: the Collection in an endpoint's schema (replaced by a variant of it),
 * dropping the cursor from a call's params, and appending a page to its list.
 */
import type { Args } from './types.js';
import { addNew, Collection } from './collection.js';
import type { CollectionMerge, CreateCollectionFilter } from './collection.js';
import { ObjectSchema } from './object.js';
import { canonicalArgs } from './list-key.js';
import { hasOwn } from '../util/own.js';
import { isObject, isRecord, isSchemaInstance } from './is.js';

function DEV(): boolean {
  return (typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production';
}

/**
 * Appends a page to a list: the stored members, then the incoming ones not already there.
 * @example paginatedMerge(['1', '2'], ['2', '3']) // ['1', '2', '3']
 */
export const paginatedMerge: CollectionMerge = addNew;

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
  return (params: Args[0]) => {
    const wanted = canonicalArgs(remove(params));
    return (listArgs) => canonicalArgs(listArgs) === wanted;
  };
}

/**
 * `schema` with its Collection (at any depth of its object schemas: `{ data: { results: list } }`,
 * `new schema.Object({ items: list })`) replaced by what `replace` makes of it, copied along the
 * way (the original is kept); undefined when it holds none.
 * @example withCollection({ results: list, total: 0 }, (found) => found.push) // { results: list.push, total: 0 }
 */
export function withCollection(
  schema: unknown,
  replace: (collection: Collection) => unknown,
): unknown {
  if (schema instanceof Collection) return replace(schema);
  const object = schema instanceof ObjectSchema;
  const shape: unknown = object ? schema.schema : schema;
  if (!isRecord(shape) || isSchemaInstance(shape)) return undefined;
  for (const member of Object.keys(shape)) {
    const found = withCollection(shape[member], replace);
    if (found !== undefined) {
      const copy = { ...shape, [member]: found };
      return object ? new ObjectSchema(copy) : copy;
    }
  }
  return undefined;
}

/**
 * The schema of `getPage`: the Collection in `schema` (at any depth) appending each page to the
 * list fetched without `field`, never repeating a member. In development it throws "Missing
 * Collection" when the schema holds none (in production that getPage has no schema).
 * @example pageSchema({ results: list, total: 0 }, 'page', 'Todo.getList')
 */
export function pageSchema(schema: unknown, field: string, name: string): unknown {
  const paged = withCollection(schema, (collection) =>
    collection.addWith(
      paginatedMerge,
      paginatedFilter((params: Record<string, unknown>) => removeCursor(params, field)),
    ),
  );
  // A check of the programmer's own misuse: development only.
  if (DEV() && paged === undefined) {
    throw new TypeError(
      `Missing Collection: ${name}.getPage appends pages to a schema.Collection, and its schema has none. Use new schema.Collection([Entity]) (alone or as a member, e.g. { results: collection }).`,
    );
  }
  return paged;
}
