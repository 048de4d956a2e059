/**
 * RestEndpoint: one REST request described by options, callable on its own
 * (`await endpoint(params)`) and runnable by a Controller (`endpoint.run(args, { fetch })`).
 */
import type { RetryOption, RunContext, Snapshot } from '../protocol/types.js';
import type { Schema } from '../schema/types.js';
import type {
  BodyMethod,
  EndpointArgs,
  EndpointResult,
  Extended,
  RestEndpointOptions,
  RestGenerics,
  SchemaOf,
  UrlParams,
} from './endpoint-types.js';
import { defaultOptimisticResponse } from './optimistic.js';
import { findCollection, pageSchema } from '../schema/pagination.js';
import { parseResponse } from './parse-response.js';
import {
  checkInit,
  checkResponse,
  refuseCredentials,
  requestFailure,
  type RequestState,
} from './guards.js';
import { headersRecord, isRawBody, setHeader } from './request-init.js';
import { anySignal, bindSignals, startTimeout, unless } from './timeout.js';
import { checkOptions } from '../protocol/check-options.js';
import { buildKey, buildUrl, hideCredentials } from './url.js';

const BODY_METHODS: ReadonlySet<string> = new Set<BodyMethod>(['POST', 'PUT', 'PATCH']);

/** Endpoints derived from another (push, unshift, remove, getPage), made once per endpoint. */
const derivedCache = new WeakMap<object, Map<string, unknown>>();
/**
 * The request each response answers, set by `run`: an override that calls
 * `super.parseResponse(response)` alone still gets errors naming the method and URL.
 */
const requestOf = new WeakMap<Response, { method: string; url: string }>();
/** Endpoints whose name was given, so extend keeps it instead of deriving a new one. */
const namedByUser = new WeakSet<object>();

// ---- Types of the derived members ----

interface CollectionLike {
  readonly push: unknown;
  readonly unshift: unknown;
  addWith(merge: unknown, filter?: unknown): unknown;
}

/** The collection in a schema: the schema itself, or a member of its object schemas (3 deep). */
type CollectionIn<S, Depth extends unknown[] = []> = S extends CollectionLike
  ? S
  : Depth['length'] extends 3
    ? never
    : S extends
          | readonly unknown[]
          | ((...args: any[]) => unknown)
          | (abstract new (...args: any[]) => unknown)
      ? never
      : S extends object
        ? { [K in keyof S]: CollectionIn<S[K], [...Depth, unknown]> }[keyof S]
        : never;

type Element<T> = T extends readonly (infer U)[] ? U : T;
/** The data fields of an entity type, each optional. */
type FieldsOf<T> = {
  readonly [K in keyof T as T[K] extends (...args: any[]) => unknown ? never : K]?: T[K];
};

/**
 * `getList.push` / `getList.unshift`: POST to the same URL, resolving with the created entity;
 * `getList.remove`: PATCH to the same URL with some of the entity's fields, resolving with it.
 */
export type CreateEndpoint<O extends RestGenerics, V extends 'push' | 'unshift' | 'remove'> = [
  CollectionIn<SchemaOf<O>>,
] extends [never]
  ? undefined
  : RestEndpoint<
      Extended<
        Omit<O, 'paginationField' | 'process' | 'result'>,
        {
          readonly method: V extends 'remove' ? 'PATCH' : 'POST';
          readonly schema: (CollectionIn<SchemaOf<O>> & { readonly [K in V]: unknown })[V] & Schema;
          readonly result: Element<EndpointResult<{ schema: CollectionIn<SchemaOf<O>> }>>;
        } & (V extends 'remove'
          ? {
              // Some of the body's fields, or of the entity's (its pk, say).
              readonly body: Partial<O extends { readonly body: infer B } ? B : {}> &
                FieldsOf<Element<EndpointResult<{ schema: CollectionIn<SchemaOf<O>> }>>>;
            }
          : {})
      >
    >;

/** `getList.getPage`: the list's request plus the pagination field, merged into the list. */
export type PageEndpoint<O extends RestGenerics> = O extends {
  readonly paginationField: infer F extends string;
}
  ? RestEndpoint<
      Extended<
        O,
        {
          readonly searchParams: (O extends { readonly searchParams: infer S extends object }
            ? S
            : {}) & { [K in F]: string | number };
        }
      >
    >
  : undefined;

// ---- Runtime helpers ----

function define(target: object, key: string, value: unknown): void {
  if (value === undefined) {
    // Undefined means "no own value": the prototype's default (or the subclass's) applies again.
    delete (target as Record<string, unknown>)[key];
    return;
  }
  Object.defineProperty(target, key, {
    value: key === 'method' && typeof value === 'string' ? value.toUpperCase() : value,
    writable: true,
    enumerable: true,
    configurable: true,
  });
}

/** Names an endpoint: the user's `name` (which extend keeps), or by default its method and path. */
function nameIt(endpoint: RestEndpoint<any>, name: string | undefined): void {
  if (name !== undefined) namedByUser.add(endpoint);
  define(endpoint, 'name', name ?? defaultName(endpoint));
}

function callable(prototype: object): RestEndpoint<any> {
  const endpoint = ((...args: unknown[]) =>
    endpoint.run(args as any, {})) as unknown as RestEndpoint<any>;
  Object.setPrototypeOf(endpoint, prototype);
  return endpoint;
}

// Instances are functions: calling one performs the request and resolves with the processed JSON
// (no store involved); a Controller runs it with `run(args, context)` and normalizes the result
// with `schema`. The interface gives instances that call signature; the constructor returns a
// function, so the merge describes what the object really is (the class below has the JSDoc).
export interface RestEndpoint<O extends RestGenerics = RestGenerics> {
  (...args: EndpointArgs<O>): Promise<EndpointResult<O>>;
}

/**
 * One REST endpoint: path template, method, schema and request options. Instances are functions:
 * calling one performs the request and resolves with the processed JSON, with no store involved.
 * `extend()` makes a changed copy; the original is never mutated. Subclass it to change how
 * requests are built.
 * @example
 * const getTodo = new RestEndpoint({ path: '/todos/:id', schema: Todo, urlPrefix: 'https://api.test' });
 * const todo = await getTodo({ id: 1 }); // GET https://api.test/todos/1
 * @example
 * class AuthedEndpoint extends RestEndpoint {
 *   override async getRequestInit(body: unknown) {
 *     return { ...(await super.getRequestInit(body)), credentials: 'same-origin' as const };
 *   }
 * }
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class RestEndpoint<const O extends RestGenerics = RestGenerics> {
  /** The path template. */
  declare readonly path: O['path'];
  /** Put before every URL ('' by default). */
  declare readonly urlPrefix: string;
  /** The HTTP method, upper case ('GET' by default). */
  declare readonly method: O extends { readonly method: infer M extends string } ? M : 'GET';
  /** How the response is normalized; undefined stores it as it is. */
  declare readonly schema: SchemaOf<O>;
  /** Names the endpoint in errors and dev tools. */
  declare readonly name: string;
  /** The query parameter that carries the page or cursor (enables `getPage`). */
  declare readonly paginationField: string | undefined;
  /** Merged into every request's init. */
  declare readonly requestInit: RequestInit | undefined;
  /** Mutations use the default optimistic guess of their method. */
  declare readonly optimistic: boolean | undefined;
  declare readonly dataExpiryLength: number | undefined;
  declare readonly errorExpiryLength: number | undefined;
  declare readonly pollFrequency: number | undefined;
  declare readonly invalidIfStale: boolean | undefined;
  /** Aborts the request after this many ms with a `TimeoutError`; no limit when undefined. */
  declare readonly timeout: number | undefined;
  /** Retries of a failed request (reads: 2 by default; mutations: none unless set). */
  declare readonly retry: RetryOption | undefined;
  /** Type carrier of the query parameters (never read at runtime). */
  declare readonly searchParams: O extends { readonly searchParams: infer S } ? S : undefined;
  /** Type carrier of the body (never read at runtime). */
  declare readonly body: O extends { readonly body: infer B } ? B : undefined;

  constructor(options: O & RestEndpointOptions<O>) {
    const endpoint = callable(new.target.prototype);
    if (typeof options?.path !== 'string') {
      throw new TypeError(
        `RestEndpoint needs a path template${(typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production' ? ', e.g. { path: "/todos/:id" }' : ''}`,
      );
    }
    for (const key of Object.keys(options)) define(endpoint, key, (options as any)[key]);
    // A side effect with no method is a POST (a GET is never one).
    if ((options as { sideEffect?: unknown }).sideEffect === true && options.method === undefined)
      define(endpoint, 'method', 'POST');
    nameIt(endpoint, typeof options.name === 'string' ? options.name : undefined);
    // The instance is the callable function, not `this`: subclass fields land on it all the same.
    return endpoint as unknown as RestEndpoint<O>;
  }

  /** True for mutations: every method but GET, unless the `sideEffect` option says otherwise. */
  get sideEffect(): boolean {
    return this.method !== 'GET';
  }

  /**
   * With `optimistic: true`, a mutation's default guess (see `defaultOptimisticResponse`);
   * undefined otherwise. The `getOptimisticResponse` option replaces it.
   */
  get getOptimisticResponse():
    ((snapshot: Snapshot, ...args: EndpointArgs<O>) => unknown) | undefined {
    if (!this.optimistic || !this.sideEffect) return undefined;
    return defaultOptimisticResponse(this);
  }

  /**
   * The URL params and the body of a call: `(params, body)`, `(params)`, or `(body)` alone for
   * POST, PUT and PATCH.
   * @example putTodo.splitArgs([{ title: 'x' }]) // [{}, { title: 'x' }]
   */
  splitArgs(args: readonly unknown[]): [Record<string, unknown>, unknown] {
    if (args.length === 1 && BODY_METHODS.has(this.method)) return [{}, args[0]];
    const params = args[0];
    if (params != null && (typeof params !== 'object' || Array.isArray(params))) {
      throw new TypeError(
        `${this.name} takes an object of URL parameters${(typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production' ? ', e.g. { id: 1 }' : ''}: got ${Array.isArray(params) ? 'an array' : typeof params}.`,
      );
    }
    return [(params ?? {}) as Record<string, unknown>, args[1]];
  }

  /**
   * The request URL for these URL params: prefix, filled path, then the other params as the query
   * in the given order (the pagination field last).
   * @example getTodos.url({ userId: 1, page: 2 }) // 'https://api.test/todos?userId=1&page=2'
   */
  url(params: UrlParams<O> | Record<string, unknown> = {}): string {
    return buildUrl(
      this.urlPrefix,
      this.path,
      params as Record<string, unknown>,
      this.paginationField,
      this.method,
    );
  }

  /**
   * The cache key: method and URL with the query sorted, so equal requests share it.
   * @example getTodos.key({ b: 2, a: 1 }) // 'GET https://api.test/todos?a=1&b=2'
   */
  key(...args: EndpointArgs<O>): string {
    const [params] = this.splitArgs(args);
    return buildKey(this.method, this.urlPrefix, this.path, params);
  }

  /**
   * Performs the request with `context.fetch` (or the global fetch) and resolves with the
   * processed body. Nothing is normalized here.
   * @example const value = await getTodo.run([{ id: 1 }], { fetch: myFetch });
   */
  async run(args: EndpointArgs<O>, context: RunContext = {}): Promise<unknown> {
    const [params, body] = this.splitArgs(args);
    const request: RequestState = {
      method: this.method,
      url: this.url(params),
      signal: context.signal,
    };
    refuseCredentials(request);
    // The timeout and the caller's signal cover the whole request, getRequestInit too: an async
    // getHeaders that never settles (a token refresh that hangs) must not hold the read for good.
    if ((typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production')
      checkOptions(this);
    const stop = startTimeout(this.timeout, request, context.timers);
    const proto = RestEndpoint.prototype;
    try {
      let init: RequestInit;
      try {
        init = {
          ...(await unless(
            this.getRequestInit(body),
            // Only code of yours can hang here: the built-in steps are not raced (a listener on
            // the signal per request costs a few µs).
            this.getRequestInit !== proto.getRequestInit || this.getHeaders !== proto.getHeaders
              ? anySignal(request.signal, request.deadline)
              : undefined,
          )),
        };
      } catch (error) {
        throw requestFailure(error, request);
      }
      checkInit(init, request, context, this.name);
      bindSignals(init, request);
      try {
        const response = checkResponse(await this.fetchResponse(request.url, init, context));
        const sent = { method: request.method, url: request.url };
        requestOf.set(response, sent);
        request.status = response.status;
        // The body is part of the response: the timeout and an abort cover reading it too.
        const value = await this.parseResponse(response, sent);
        request.processing = true;
        return (this.process as (value: unknown, ...args: unknown[]) => unknown)(value, ...args);
      } catch (error) {
        throw requestFailure(error, request);
      }
    } finally {
      stop();
    }
  }

  /**
   * Sends the request with `context.fetch`, or the global fetch. Override it to send another way
   * (or to time, log or sign the request); `run` reads the body of the Response it resolves with.
   * @example override async fetchResponse(input, init, context) { const response = await super.fetchResponse(input, init, context); log(response.status); return response; }
   */
  fetchResponse(input: string, init: RequestInit, context: RunContext): Promise<Response> {
    return (context.fetch ?? globalThis.fetch)(input, init);
  }

  /**
   * The request init for a body: `requestInit` merged in, the method, JSON body with
   * `Content-Type: application/json` (strings, FormData, Blob… are sent as they are), headers
   * passed through `getHeaders`. Override it (it may be async) to add `credentials` and the like.
   * @example override async getRequestInit(body) { return { ...(await super.getRequestInit(body)), credentials: 'same-origin' }; }
   */
  async getRequestInit(body: unknown): Promise<RequestInit> {
    const base = this.requestInit;
    const headers: Record<string, string> = {};
    const init: RequestInit = { ...base, method: this.method };
    if (body !== undefined) {
      if (isRawBody(body)) {
        init.body = body as BodyInit;
        // fetch sends a stream only when told it goes out as it comes (Node and Chromium refuse it).
        if (typeof ReadableStream === 'function' && body instanceof ReadableStream) {
          (init as { duplex?: string }).duplex = 'half';
        }
      } else {
        init.body = JSON.stringify(body);
        setHeader(headers, 'Content-Type', 'application/json');
      }
    }
    for (const [name, value] of Object.entries(headersRecord(base?.headers))) {
      setHeader(headers, name, value);
    }
    const finalHeaders = await this.getHeaders(headers);
    const record = headersRecord(finalHeaders);
    if (
      Object.keys(record).length > 0 ||
      Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')
    )
      init.headers = record;
    else delete init.headers;
    return init;
  }

  /**
   * Final say over the request headers; may be async (e.g. to read a token).
   * @example override async getHeaders(headers) { return { ...headers, Authorization: `Bearer ${await token()}` }; }
   */
  getHeaders(headers: Record<string, string>): HeadersInit | Promise<HeadersInit> {
    return headers;
  }

  /**
   * Reads the response (see `parseResponse`): JSON, null for no content, errors for failures.
   * `request` (method and URL, for error messages) may be left out.
   * @example override async parseResponse(response) { return response.status === 202 ? null : super.parseResponse(response); }
   */
  parseResponse(response: Response, request?: { method: string; url: string }): Promise<unknown> {
    // An override may call `super.parseResponse(response)` alone: `run` noted the request.
    return parseResponse(
      response,
      request ?? requestOf.get(response) ?? { method: this.method, url: response.url },
    );
  }

  /**
   * Turns the parsed response into what is normalized; the call's args follow the value.
   * @example process(value, params) { return value.data; }
   */
  process(value: any, ..._args: EndpointArgs<O>): any {
    return value;
  }

  /**
   * A new endpoint with these options over this one's (same class); this one is unchanged.
   * An option given as undefined goes back to the default.
   * @example const withToken = getTodo.extend({ requestInit: { headers: { 'Access-Token': t } } });
   */
  extend<const E extends object>(
    options: E & Partial<RestEndpointOptions<Extended<O, E>>>,
  ): RestEndpoint<Extended<O, E>> {
    const next = callable(Object.getPrototypeOf(this));
    // Every own property but the function's length: options and subclass fields alike (the name
    // is set again below).
    const { length: _, ...own } = Object.getOwnPropertyDescriptors(this);
    Object.defineProperties(next, own);
    for (const key of Object.keys(options)) {
      if (key !== 'name') define(next, key, (options as any)[key]);
    }
    nameIt(
      next,
      typeof options.name === 'string'
        ? options.name
        : namedByUser.has(this)
          ? this.name
          : undefined,
    );
    return next as unknown as RestEndpoint<Extended<O, E>>;
  }

  /**
   * When the schema holds a Collection: POST to this URL, adding the created entity at the end of
   * every matching list.
   * @example await TodoResource.getList.push({ title: 'Buy milk' });
   */
  get push(): CreateEndpoint<O, 'push'> {
    return derived(this, 'push') as CreateEndpoint<O, 'push'>;
  }

  /**
   * Like `push`, adding the created entity at the start of every matching list.
   * @example await TodoResource.getList.unshift({ title: 'Urgent' });
   */
  get unshift(): CreateEndpoint<O, 'unshift'> {
    return derived(this, 'unshift') as CreateEndpoint<O, 'unshift'>;
  }

  /**
   * When the schema holds a Collection: PATCH to this URL, taking the entity the server answers
   * with out of every stored list whose filter its values match.
   * @example await TodoResource.getList.remove({ userId: 1 }, { id: 5 });
   */
  get remove(): CreateEndpoint<O, 'remove'> {
    return derived(this, 'remove') as CreateEndpoint<O, 'remove'>;
  }

  /**
   * With `paginationField`: the list's request with a page argument; the page is appended to the
   * list fetched without it, never repeating an entity.
   * @example await controller.fetch(PostResource.getList.getPage, { author: 'a', page: 2 });
   */
  get getPage(): PageEndpoint<O> {
    return derived(this, 'getPage') as PageEndpoint<O>;
  }
}

/** `endpoint.push`, `.unshift`, `.remove` or `.getPage`: made on first use, then the same object. */
function derived(
  endpoint: RestEndpoint<any>,
  key: 'push' | 'unshift' | 'remove' | 'getPage',
): unknown {
  let cache = derivedCache.get(endpoint);
  if (!cache) derivedCache.set(endpoint, (cache = new Map()));
  if (!cache.has(key)) cache.set(key, key === 'getPage' ? page(endpoint) : create(endpoint, key));
  return cache.get(key);
}

function page(endpoint: RestEndpoint<any>): unknown {
  const field = endpoint.paginationField;
  if (field === undefined) return undefined;
  const schema = pageSchema(endpoint.schema, field, endpoint.name);
  return endpoint.extend({ schema: schema as Schema, name: `${endpoint.name}.getPage` } as any);
}

function create(endpoint: RestEndpoint<any>, mode: 'push' | 'unshift' | 'remove'): unknown {
  const found = findCollection(endpoint.schema);
  if (!found) return undefined;
  const method = mode === 'remove' ? 'PATCH' : 'POST';
  return endpoint.extend({
    method,
    schema: found.collection[mode] as Schema,
    // A name of method and path says the method the request uses.
    name: `${namedByUser.has(endpoint) ? endpoint.name : defaultName(endpoint, method)}.${mode}`,
    // The list's own response handling and paging do not apply to a created entity.
    process: undefined,
    paginationField: undefined,
    sideEffect: undefined,
    getOptimisticResponse: undefined,
    // A POST sent twice may create two records: the list's retries are not the create's.
    retry: undefined,
  } as any);
}

// Endpoints are functions: keep call/apply/bind and `instanceof Function` working.
Object.setPrototypeOf(RestEndpoint.prototype, Function.prototype);

function defaultName(endpoint: RestEndpoint<any>, method: string = endpoint.method): string {
  return `${method} ${hideCredentials(endpoint.urlPrefix)}${endpoint.path}`;
}

// Defaults live on the prototype, so own options (and subclass fields) override them.
Object.defineProperties(RestEndpoint.prototype, {
  urlPrefix: { value: '', writable: true, configurable: true },
  method: { value: 'GET', writable: true, configurable: true },
});
