/**
 * The types of endpoints: how an endpoint's options decide its call arguments and resolved value.
 * Everything an endpoint's types depend on is one object type `O` (its "generics"), so `extend`
 * can change any part of it by merging objects.
 */
import type { RetryOption, Snapshot } from '../protocol/types.js';
import type { Denormalize, Schema } from '../schema/types.js';
import type { Simplify } from '../type-utils.js';
import type { PathArgs } from './path.js';

/** HTTP methods with their usual meaning; any other upper-case token is accepted too. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

/** Methods whose call takes a body: `(urlParams, body)`, or `(body)` when no param is required. */
export type BodyMethod = 'POST' | 'PUT' | 'PATCH';

/**
 * The type-level description of an endpoint. `searchParams` and `body` are type carriers: their
 * runtime values are ignored (`searchParams: {} as { author?: string }`).
 */
export interface RestGenerics {
  readonly path: string;
  readonly schema?: Schema | undefined;
  readonly method?: string | undefined;
  readonly searchParams?: any;
  readonly body?: any;
  readonly paginationField?: string | undefined;
  /**
   * Type-only: the resolved value when it is not the schema's denormalized type (`push` resolves
   * with the created entity, not with the list its schema stores it in).
   */
  readonly result?: unknown;
}

/** The options every endpoint kind shares (also accepted by `createResource`). */
export interface EndpointExtraOptions {
  /** How long a response stays fresh, in ms (the controller's default when absent). */
  readonly dataExpiryLength?: number | undefined;
  /** How long an error is kept before a read fetches again, in ms. */
  readonly errorExpiryLength?: number | undefined;
  /** Refetch every so many ms while a view shows the data. */
  readonly pollFrequency?: number | undefined;
  /** Stale data must not be shown (a reader waits for the refetch). */
  readonly invalidIfStale?: boolean | undefined;
  /**
   * Aborts the request when no complete response (body included) has arrived after this many
   * ms, counted from the call, so an async `getHeaders` (a token refresh) counts too; it then
   * rejects with a `TimeoutError` naming the URL and the timeout. No limit when absent.
   */
  readonly timeout?: number | undefined;
  /**
   * How often a failed request is tried again, with exponential backoff and jitter (or the
   * server's `Retry-After`), waiting while offline: a number of retries for network errors, 5xx,
   * 408 and 429, or a function `(failures, error) => boolean | delayMs`. Reads default to 2
   * (three attempts); POST, PUT, PATCH and DELETE are never retried unless this is set.
   */
  readonly retry?: RetryOption | undefined;
}

type PathOf<O> = O extends { readonly path: infer P extends string } ? P : string;
type MethodOf<O> = O extends { readonly method: infer M extends string } ? M : 'GET';
type SearchOf<O> = O extends { readonly searchParams: infer S } ? (S extends object ? S : {}) : {};
/** The page a list endpoint may be read at: its `paginationField`, optional. */
type PageOf<O> = O extends { readonly paginationField: infer F extends string }
  ? { [K in F]?: string | number }
  : {};

/** The request body type of an endpoint: its `body` option's type, or `any`. */
export type BodyOf<O> = O extends { readonly body: infer B } ? B : any;

/** The schema of an endpoint, or undefined. */
export type SchemaOf<O> = O extends { readonly schema: infer S } ? S : undefined;

/**
 * The URL parameters of an endpoint: the template's parameters plus its `searchParams` (and its
 * `paginationField`, optional).
 * @example type P = UrlParams<{ path: '/:group/posts'; searchParams: { author?: string } }>
 * // { group: string | number; author?: string }
 */
export type UrlParams<O> = Simplify<PathArgs<PathOf<O>> & SearchOf<O> & PageOf<O>>;

type TakesBody<O> =
  MethodOf<O> extends BodyMethod
    ? 'alone-or-after-params'
    : MethodOf<O> extends 'GET' | 'HEAD'
      ? 'no'
      : O extends { readonly body: any }
        ? 'after-params'
        : 'no';

/**
 * The call arguments of an endpoint: `(urlParams)` for reads, `(urlParams, body)` for writes.
 * POST, PUT and PATCH may take `(body)` alone when no URL param is required; another method with
 * a `body` option (a batch DELETE) always takes both.
 * @example type A = EndpointArgs<{ path: '/todos/:id'; method: 'PUT'; body: { title: string } }>
 * // [params: { id: string | number }, body: { title: string }]
 */
export type EndpointArgs<O> = 0 extends 1 & O
  ? any[]
  : string extends PathOf<O>
    ? // A path known only as `string` (RestEndpoint's default generics, subclasses): anything goes.
      [params?: Record<string, unknown>, body?: any] | [body?: any]
    : StrictArgs<O>;

type StrictArgs<O> =
  TakesBody<O> extends 'no'
    ? {} extends UrlParams<O>
      ? [params?: UrlParams<O>]
      : [params: UrlParams<O>]
    : TakesBody<O> extends 'alone-or-after-params'
      ? {} extends UrlParams<O>
        ? [params: UrlParams<O>, body: BodyOf<O>] | [body: BodyOf<O>]
        : [params: UrlParams<O>, body: BodyOf<O>]
      : [params: UrlParams<O>, body: BodyOf<O>];

type ProcessedOf<O> = O extends { readonly process: (...args: any[]) => infer R }
  ? Awaited<R>
  : any;

/**
 * What an endpoint resolves with: the denormalized type of its schema; without a schema, what its
 * `process` returns (or `any`).
 */
export type EndpointResult<O> = O extends { readonly result: infer R }
  ? R
  : O extends { readonly schema: infer S }
    ? S extends undefined
      ? ProcessedOf<O>
      : Denormalize<S>
    : ProcessedOf<O>;

/** `O` with the members of `E` replacing its own: what `extend(E)` gives. */
export type MergeGenerics<O, E> = Simplify<
  Omit<
    O,
    keyof E | ('schema' extends keyof E ? 'result' : 'process' extends keyof E ? 'result' : never)
  > &
    E
>;

/** `MergeGenerics` known to be endpoint generics (it keeps `path`, so it always is). */
export type Extended<O extends RestGenerics, E> =
  MergeGenerics<O, E> extends infer M extends RestGenerics ? M : never;

/** The options of a RestEndpoint whose types are described by `O`. */
export interface RestEndpointOptions<
  O extends RestGenerics = RestGenerics,
> extends EndpointExtraOptions {
  /** Path template: `:name` required, `:name?` optional, `\\` escapes the next character. */
  readonly path: string;
  /** Put before every URL, e.g. `'https://api.example.com'`. */
  readonly urlPrefix?: string | undefined;
  /** Defaults to GET. */
  readonly method?: string | undefined;
  /** How the response is normalized. */
  readonly schema?: Schema | undefined;
  /** Type carrier for the query parameters (value ignored). */
  readonly searchParams?: any;
  /** Type carrier for the request body (value ignored). */
  readonly body?: any;
  /** True for mutations; defaults to every method but GET. */
  readonly sideEffect?: boolean | undefined;
  /** Names the endpoint in errors and dev tools. */
  readonly name?: string | undefined;
  /** The query parameter that carries the page or cursor; gives the endpoint `getPage`. */
  readonly paginationField?: string | undefined;
  /**
   * False: a call with `paginationField` lands where the call without it is stored (what
   * `getPage` does), e.g. for a cache-busting parameter. Default true: `getList({ page: 2 })` is
   * page 2, a read of its own.
   */
  readonly keepsPage?: boolean | undefined;
  /** Merged into every request's init (headers merged by name). */
  readonly requestInit?: RequestInit | undefined;
  /**
   * True lets a mutation's answer come after a redirect: for an API that answers 307 or 308,
   * which fetch follows with the method and body. By default a redirected mutation rejects (fetch
   * follows a 301, 302 or 303 as a GET without the body, so the answer is not the mutation's).
   */
  readonly allowRedirects?: boolean | undefined;
  /**
   * Makes a mutation optimistic with the usual guess for its method (PUT/POST: params and body;
   * PATCH: the stored entity with the body merged in; DELETE: the params), unless
   * `getOptimisticResponse` is given.
   */
  readonly optimistic?: boolean | undefined;
  /** Turns the parsed response into what is normalized. */
  process?(value: any, ...args: EndpointArgs<O>): any;
  /** The value to apply before the server answers; throw `snapshot.abort` to apply nothing. */
  getOptimisticResponse?(snapshot: Snapshot, ...args: EndpointArgs<O>): unknown;
  /** Builds the request init from the body (may be async). */
  getRequestInit?(body: unknown): RequestInit | Promise<RequestInit>;
  /** Final say over the request headers (may be async). */
  getHeaders?(headers: Record<string, string>): HeadersInit | Promise<HeadersInit>;
}
