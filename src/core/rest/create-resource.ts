/**
 * createResource: the standard endpoints of one REST resource (get, getList with push, unshift,
 * remove and getPage, update, partialUpdate, move, delete) from one path template and one entity
 * schema, and
 * `extend()` to change or add members.
 */
import { isRestEndpoint } from './is-rest-endpoint.js';
import { Collection as DefaultCollection } from '../schema/collection.js';
import type { CreatingCollection } from '../schema/collection.js';
import { Invalidate } from '../schema/invalidate.js';
import { holdsEntity, isObject, isRecord } from '../schema/is.js';
import type { Denormalize, EntityClass, Schema } from '../schema/types.js';
import type { DataFields } from '../type-utils.js';
import { assignOwn, getOwn } from '../util/own.js';
import type {
  EndpointExtraOptions,
  Extended,
  RestEndpointOptions,
  RestGenerics,
} from './endpoint-types.js';
import { pathParams, shortenPath, type ShortenPath } from './path.js';
import { RestEndpoint } from './rest-endpoint.js';
import type { QueryValue } from './url.js';

function DEV(): boolean {
  return (typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production';
}

/** The type-level part of createResource's options. */
export interface ResourceGenerics {
  readonly path: string;
  readonly schema: Schema;
  readonly searchParams?: any;
  readonly body?: any;
  readonly paginationField?: string | undefined;
}

/** A class that can build every member: RestEndpoint or a subclass of it. */
export type EndpointClass = new (options: any) => object;

/** A class that can build the getList schema: schema.Collection or a subclass of it. */
export type CollectionClass = new (schema: [any], options?: any) => object;

/** The options of createResource (the spec's table, plus endpoint options for every member). */
export interface ResourceOptions extends EndpointExtraOptions {
  /** Path template of one entity, e.g. `'/todos/:id'`; the list path is it without the last param. */
  readonly path: string;
  /** The entity schema. */
  readonly schema: Schema;
  readonly urlPrefix?: string | undefined;
  /** Type carrier of getList's (and push's) query parameters. */
  readonly searchParams?: any;
  /** Type carrier of the body of push, unshift and update (partialUpdate takes a part of it). */
  readonly body?: any;
  /** Gives `getList.getPage`, which sends this query parameter. */
  readonly paginationField?: string | undefined;
  /** Makes every mutation member optimistic. */
  readonly optimistic?: boolean | undefined;
  /** Builds every member (default RestEndpoint). */
  readonly Endpoint?: EndpointClass | undefined;
  /** Builds getList's schema (default schema.Collection). */
  readonly Collection?: CollectionClass | undefined;
  /** Merged into every member's requests. */
  readonly requestInit?: RequestInit | undefined;
}

type BodyOf<O> = O extends { readonly body: infer B }
  ? B
  : Partial<DataFields<Denormalize<O extends { readonly schema: infer S } ? S : never>>>;
type SearchOf<O> = O extends { readonly searchParams: infer Q } ? Q : Record<string, QueryValue>;
type PagingOf<O> = O extends { readonly paginationField: infer F extends string }
  ? { readonly paginationField: F }
  : {};
type SchemaOf<O extends ResourceGenerics> = O['schema'];

/** The members createResource makes. */
export interface ResourceMembers<O extends ResourceGenerics> {
  /** GET `path`: one entity. */
  readonly get: RestEndpoint<{ readonly path: O['path']; readonly schema: SchemaOf<O> }>;
  /** GET the shortened path with `searchParams`: a Collection of entities. */
  readonly getList: RestEndpoint<
    {
      readonly path: ShortenPath<O['path']>;
      readonly schema: DefaultCollection<[SchemaOf<O>]>;
      readonly searchParams: SearchOf<O>;
      readonly body: BodyOf<O>;
    } & PagingOf<O>
  >;
  /** PUT `path` with the entity's fields. */
  readonly update: RestEndpoint<{
    readonly path: O['path'];
    readonly schema: SchemaOf<O>;
    readonly method: 'PUT';
    readonly body: BodyOf<O>;
  }>;
  /** PATCH `path` with some of the entity's fields. */
  readonly partialUpdate: RestEndpoint<{
    readonly path: O['path'];
    readonly schema: SchemaOf<O>;
    readonly method: 'PATCH';
    readonly body: Partial<BodyOf<O>>;
  }>;
  /**
   * PATCH `path` with some of the entity's fields, like partialUpdate; the entity also leaves the
   * stored lists its new values no longer match and is appended to those they now match.
   */
  readonly move: RestEndpoint<{
    readonly path: O['path'];
    readonly schema: CreatingCollection<[SchemaOf<O>]>;
    readonly method: 'PATCH';
    readonly body: Partial<BodyOf<O>>;
  }>;
  /** DELETE `path`: the entity becomes INVALID. */
  readonly delete: RestEndpoint<{
    readonly path: O['path'];
    readonly schema: SchemaOf<O> extends EntityClass ? Invalidate<SchemaOf<O>> : SchemaOf<O>;
    readonly method: 'DELETE';
  }>;
}

type AnyEndpoint = RestEndpoint<any>;
type GenericsOf<E> = E extends RestEndpoint<infer O> ? O : never;

/** Options of one member in `extend`: generics (path, schema, body…) and endpoint options. */
export type MemberOptions = Partial<RestGenerics> & Partial<RestEndpointOptions<any>>;

/** A resource: its members and `extend`. */
export type Resource<M> = M & ResourceExtend<M>;

/** The three forms of `extend`. */
export interface ResourceExtend<M> {
  /**
   * Adds a member (or changes one) made from `get` with these options.
   * @example TodoResource.extend('search', { path: '/todos/search', searchParams: {} as { q: string }, schema: [Todo] })
   */
  extend<const N extends string, const E extends object>(
    name: N,
    options: E & Partial<RestEndpointOptions<any>>,
  ): Resource<
    Omit<M, N> & {
      readonly [K in N]: RestEndpoint<
        Extended<GenericsOf<M extends { readonly get: infer G } ? G : never>, E>
      >;
    }
  >;
  /**
   * Adds or changes members computed from the base resource.
   * @example TodoResource.extend((Base) => ({ byUser: Base.getList.extend({ path: '/users/:userId/todos' }) }))
   */
  extend<T extends Record<string, unknown>>(make: (base: M) => T): Resource<Omit<M, keyof T> & T>;
  /**
   * Overrides options of members, e.g. a new path, body or schema.
   * @example TodoResource.extend({ update: { method: 'PATCH' }, getList: { schema: { results: new schema.Collection([Todo]), total: 0 } } })
   */
  extend<const T extends { readonly [K in keyof M]?: object }>(
    overrides: T & { readonly [K in keyof T]: MemberOptions },
  ): Resource<{
    [K in keyof M]: K extends keyof T
      ? M[K] extends AnyEndpoint
        ? RestEndpoint<Extended<GenericsOf<M[K]>, T[K]>>
        : M[K]
      : M[K];
  }>;
}

function extendResource(
  this: Record<string, unknown>,
  first: string | Record<string, MemberOptions> | ((base: unknown) => Record<string, unknown>),
  second?: MemberOptions,
): unknown {
  const members = assignOwn({}, this) as Record<string, any>;
  if (typeof first == 'function') assignOwn(members, first(this));
  else {
    if (typeof first == 'string') first = { [first]: second ?? {} };
    if (!isObject(first)) {
      throw new TypeError(
        `extend got ${first === null ? 'null' : typeof first}${DEV() ? ': it takes (name, options), ({ member: options }) or (base => members)' : ''}.`,
      );
    }
    for (const name of Object.keys(first)) {
      // A new member starts from `get`.
      const from = [members[name], members.get].find(isRestEndpoint);
      if (!from) {
        throw new Error(
          `extend("${name}"): the resource has no "get" member${DEV() ? ' to start the new one from' : ''}.`,
        );
      }
      members[name] = from.extend(first[name]!);
    }
  }
  return withExtend(members);
}

function withExtend<M extends object>(members: M): Resource<M> {
  // Not enumerable: hookifyResource and spreads see only the members.
  return Object.defineProperty(members, 'extend', { value: extendResource }) as Resource<M>;
}

/**
 * The standard endpoints of a REST resource, all from one path template and one entity schema.
 * @example
 * const TodoResource = createResource({
 *   urlPrefix: 'https://api.test',
 *   path: '/todos/:id',
 *   schema: Todo,
 *   searchParams: {} as { userId?: number },
 *   paginationField: 'page',
 * });
 * await TodoResource.get({ id: 1 });                      // GET  https://api.test/todos/1
 * await TodoResource.getList({ userId: 2 });              // GET  https://api.test/todos?userId=2
 * await TodoResource.getList.push({ title: 'Buy milk' }); // POST https://api.test/todos
 * await TodoResource.partialUpdate({ id: 1 }, { completed: true }); // PATCH …/todos/1
 */
export function createResource<const O extends ResourceOptions>(
  options: O,
): Resource<ResourceMembers<O>> {
  const {
    path,
    schema,
    // Type carriers, read by no one at runtime: kept off the members.
    searchParams: _searchParams,
    body: _body,
    paginationField,
    optimistic,
    Endpoint = RestEndpoint,
    Collection = DefaultCollection,
    ...shared
  } = options as ResourceOptions;
  if (typeof path != 'string') {
    throw new TypeError(
      `createResource needs a path template${DEV() ? ', e.g. { path: "/todos/:id" }' : ''}.`,
    );
  }
  if (schema == null) {
    throw new TypeError(
      `createResource({ path: "${path}" }) needs a schema${DEV() ? ', e.g. an Entity class' : ''}.`,
    );
  }
  const key = (schema as { key?: unknown }).key;
  const label = typeof key == 'string' && key ? key : path;
  // getList's own Collection is move's too, so a subclass's filter (nonFilterArgumentKeys…) decides.
  const collection = new Collection([schema]) as DefaultCollection;
  const invalidate = holdsEntity(schema) ? new Invalidate(schema as EntityClass) : undefined;
  const members: Record<string, any> = {
    get: new Endpoint({ ...shared, path, schema, name: `${label}.get` }) as AnyEndpoint,
  };
  // Every other member is `get` extended. A `retry` given for the resource is for its reads: a
  // mutation retries only when its own endpoint says so (`TodoResource.update.extend({ retry: 2 })`).
  const mutation = { optimistic, retry: undefined };
  for (const [name, extra] of Object.entries({
    // Throws for a path without parameter, naming the path: better now than at the first list call.
    getList: {
      path: shortenPath(path),
      schema: collection,
      paginationField,
      optimistic,
    },
    update: { ...mutation, method: 'PUT' },
    partialUpdate: { ...mutation, method: 'PATCH' },
    move: { ...mutation, method: 'PATCH', schema: collection.move },
    // An Entity or a Union is invalidated; any other schema reads the response as it is.
    delete: {
      ...mutation,
      method: 'DELETE',
      schema: invalidate ?? schema,
      // What `delete` resolves with: a non-empty object or a bare pk (string or number) as it
      // is; otherwise the URL params of the call, from which Invalidate computes the pk, or when
      // they give none (`/projects/:project_id`), the value of the path's last parameter.
      process: (value: unknown, params: Record<string, unknown> = {}) => {
        if (
          (typeof value == 'string' && value) ||
          typeof value == 'number' ||
          (isRecord(value) && Object.keys(value).length)
        ) {
          return value;
        }
        try {
          invalidate?.pkOf(params);
        } catch {
          return getOwn(params, pathParams(path).at(-1)!.name) ?? params;
        }
        return params;
      },
    },
  })) {
    members[name] = members.get.extend({ ...extra, name: `${label}.${name}` } as any);
  }
  return withExtend(members) as unknown as Resource<ResourceMembers<O>>;
}
