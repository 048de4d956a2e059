/**
 * Queries over the store: every stored entity of one type, given to a function of the read's
 * params (filter, sort, count, group), read like any endpoint (`getResponse`, `hold`,
 * `ResourceController`) and never fetched. A query is an endpoint whose `read` builds its data
 * from the store's entities: the one hook it needs in the core is in `readResponse`. Loaded by
 * `resource-elements/query`, so an app without queries does not carry this module.
 */
import { isEntityClass, isObject, isRecord } from './schema/is.js';
import { jsonEqual } from './normalize/equal.js';
import { entry, getOwn, once } from './util/own.js';
import { kindOf } from './util/describe.js';
import type { EntityClass, EntityTable } from './schema/types.js';
import type { EndpointLike, StoreMemo } from './protocol/types.js';

function DEV(): boolean {
  return (typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production';
}

/** A query's args: its one params object, which may be left out when `P` allows undefined. */
export type QueryArgs<P> = undefined extends P ? [params?: P] : [params: P];

/** Options of `queryAll`. */
export interface QueryOptions {
  /**
   * The query's name in its store key (`QUERY <name> <params>`) and in its errors. Default: the
   * entity's key and a number (`Todo#1`).
   */
  readonly name?: string | undefined;
}

/**
 * A query over the store (made by `queryAll`): an endpoint for the Controller's reads that sends
 * no request. Its read is always fresh; `fetch()` of it rejects.
 */
export interface Query<A extends readonly unknown[] = any, T = unknown> extends EndpointLike<A, T> {
  /** The Entity class whose stored entities it reads. */
  readonly entity: EntityClass;
  readonly schema: undefined;
  readonly sideEffect: false;
  /** Its data, made of `state`'s entities (what `getResponse` shows). */
  read(state: { readonly entities: EntityTable }, memo: StoreMemo, key: string, args: A): T;
}

/** The shorthand list schema of each entity class, one object each (the memo keys by it). */
const listOf = once((entity: EntityClass): [EntityClass] => [entity]);

/**
 * The pks of each entity table as each store's reads last found them: one array while they are
 * the same, so the memo finds its last read of the list (its input) and only checks its members.
 */
const pksSeen = new WeakMap<StoreMemo, Map<string, string[]>>();

function pksOf(memo: StoreMemo, key: string, table: object | undefined): string[] {
  const seen = entry(pksSeen, memo, Map) as Map<string, string[]>;
  const last = seen.get(key);
  if (last) {
    // Compared in place: an unchanged table costs no array.
    let i = 0;
    for (const pk in table) {
      if (pk !== last[i++]) {
        i = -1;
        break;
      }
    }
    if (i === last.length) return last;
  }
  const pks = table ? Object.keys(table) : [];
  seen.set(key, pks);
  return pks;
}

/** A result of `select` and the list it was made of. */
type Made = [list: unknown, result: unknown];

/** How many params of one query keep their last results per store (the oldest go first). */
const KEPT = 64;

let count = 0;

/**
 * A query of every stored entity of `entity`, as `select` makes it for the read's params: a
 * filtered and sorted list, a count, a grouping. Read it as any endpoint, with no request:
 * `controller.getResponse(query, params)`, `new ResourceController(this, query, () => params)`.
 * It shows what the store holds now (what any read or push brought, an optimistic update
 * included; not entities marked INVALID) and follows every write. `select` gets a list of its own
 * (sort it in place if you like), in no particular order, and runs again only when a member of
 * the list changed, came or went; a result deeply equal to the last (as JSON is, entities by
 * identity) keeps the last object, so readers are told only when what they show changed. Without
 * `select`, the list itself.
 *
 * A query fetches nothing: fetch what brings the entities (a list endpoint) where it is needed.
 * Nor does it keep entities from garbage collection: they stay while a response that holds them
 * is kept.
 * @example
 * const openTodos = queryAll(Todo, (todos, { userId }: { userId: number }) =>
 *   todos
 *     .filter((todo) => !todo.completed && todo.userId === userId)
 *     .sort((a, b) => a.title.localeCompare(b.title)),
 * );
 * controller.getResponse(openTodos, { userId: 1 }).data; // Todo[]
 */
export function queryAll<E extends EntityClass>(
  entity: E,
  select?: undefined,
  options?: QueryOptions,
): Query<[], InstanceType<E>[]>;
export function queryAll<E extends EntityClass, T, P extends object | undefined = undefined>(
  entity: E,
  select: (entities: InstanceType<E>[], params: P) => T,
  options?: QueryOptions,
): Query<QueryArgs<P>, T>;
export function queryAll(
  entity: EntityClass,
  select?: (entities: unknown[], params: unknown) => unknown,
  options: QueryOptions = {},
): Query {
  if (!isEntityClass(entity)) {
    throw new TypeError(
      `queryAll: the first argument must be an Entity class, got ${kindOf(entity)}${DEV() ? ' (queryAll(Todo, select): every stored Todo)' : ''}.`,
    );
  }
  if (select !== undefined && typeof select != 'function') {
    throw new TypeError(
      `queryAll(${entity.key}): select must be a function, got ${kindOf(select)}${DEV() ? ' ((entities, params) => what the read shows)' : ''}.`,
    );
  }
  const name = options.name ?? `${entity.key}#${++count}`;
  /** Each store's last two results per key, each with the list it was made of. */
  const made = new WeakMap<StoreMemo, Map<string, Made[]>>();
  const refuse = (): Promise<never> =>
    Promise.reject(
      new TypeError(
        `QUERY ${name} is read from the store and sends no request${DEV() ? ': read it with getResponse() or a ResourceController, and fetch the endpoint that brings its entities' : ''}.`,
      ),
    );
  const query = Object.assign(refuse, {
    entity,
    schema: undefined,
    sideEffect: false as const,
    key(params?: unknown): string {
      if (params === undefined) return `QUERY ${name}`;
      if (!isRecord(params)) {
        throw new TypeError(
          `QUERY ${name}: params must be an object, got ${kindOf(params)}${DEV() ? ' (what select gets as its second argument)' : ''}.`,
        );
      }
      return `QUERY ${name} ${paramsKey(params, 'params', name)}`;
    },
    run: refuse,
    read(
      state: { readonly entities: EntityTable },
      memo: StoreMemo,
      key: string,
      args: readonly unknown[],
    ): unknown {
      const { entities } = state;
      const list = memo.denormalize(
        listOf(entity),
        pksOf(memo, entity.key, getOwn(entities, entity.key)),
        entities,
      ) as unknown[];
      if (!select) return list;
      const results = entry(made, memo, Map) as Map<string, Made[]>;
      // The last two: an optimistic update rolled back brings the list before it back (the
      // memo's own), and with it the result made of it.
      const recent = results.get(key) ?? [];
      for (const [from, result] of recent) if (from === list) return result;
      let result = select(list.slice(), args[0]);
      if (result === undefined) {
        throw new TypeError(
          `select returned undefined${DEV() ? ', which readers take for "nothing read yet": return null for "nothing"' : ''}`,
        );
      }
      // Deeply the same as before: the same object, so nothing that shows it renders again.
      const last = recent.at(-1)?.[1];
      if (recent.length && jsonEqual(last, result)) result = last;
      results.delete(key);
      if (results.set(key, [...recent.slice(-1), [list, result]]).size > KEPT) {
        results.delete(results.keys().next().value!);
      }
      return result;
    },
  });
  Object.defineProperty(query, 'name', { value: `QUERY ${name}` });
  return query as unknown as Query;
}

/**
 * The params of a query as one text, the same whatever the key order (and `undefined` members
 * left out, as JSON does); a value JSON cannot hold as it is (a function, a Map, an entity)
 * is refused, naming where it is.
 */
function paramsKey(value: unknown, path: string, name: string): string {
  if (typeof value == 'number') return String(value);
  if (value === null || typeof value == 'string' || typeof value == 'boolean') {
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) {
    return `[${value.map((member, i) => (member === undefined ? 'null' : paramsKey(member, `${path}[${i}]`, name)))}]`;
  }
  if (isObject(value)) {
    if (typeof (value as { toJSON?: unknown }).toJSON == 'function') return JSON.stringify(value);
    const proto = Object.getPrototypeOf(value);
    if (proto === Object.prototype || proto === null) {
      let out = '';
      for (const key of Object.keys(value).sort()) {
        const member = (value as Record<string, unknown>)[key];
        if (member !== undefined) {
          out += `,${JSON.stringify(key)}:${paramsKey(member, `${path}.${key}`, name)}`;
        }
      }
      return `{${out.slice(1)}}`;
    }
  }
  throw new TypeError(
    `QUERY ${name}: ${path} is ${isObject(value) ? `a ${value.constructor?.name ?? 'object'}` : kindOf(value)}${DEV() ? '; the params of a query make its key: use strings, numbers, booleans, null, arrays and plain objects (a pk, not an entity)' : ''}.`,
  );
}
