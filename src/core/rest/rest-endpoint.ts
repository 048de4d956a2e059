/**
 * RestEndpoint: one REST request described by options, callable on its own
 * (`await endpoint(params)`) and runnable by a Controller (`endpoint.run(args, { fetch })`).
 */
import type { RetryOption, RunContext, Snapshot } from '../protocol/types.js';
import { clampDelay, defaultTimers } from '../env/timers.js';
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
import { parseResponse, reason } from './parse-response.js';
import { hasHeader, headersRecord, mergeInit, setHeader } from './request-init.js';
import { buildKey, buildUrl, hideCredentials } from './url.js';
import { AbortError, TimeoutError } from '../errors.js';
import { isRuntimeError, shortUrl } from '../util/describe.js';

const BODY_METHODS: ReadonlySet<string> = new Set<BodyMethod>(['POST', 'PUT', 'PATCH']);

/** Endpoints derived from another (push, unshift, getPage), made once per endpoint. */
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

/** `getList.push` / `getList.unshift`: POST to the same URL, resolving with the created entity. */
export type CreateEndpoint<O extends RestGenerics, V extends 'push' | 'unshift'> = [
  CollectionIn<SchemaOf<O>>,
] extends [never]
  ? undefined
  : RestEndpoint<
      Extended<
        Omit<O, 'paginationField' | 'process' | 'result'>,
        {
          readonly method: 'POST';
          readonly schema: (CollectionIn<SchemaOf<O>> & CollectionLike)[V] & Schema;
          readonly result: Element<EndpointResult<{ schema: CollectionIn<SchemaOf<O>> }>>;
        }
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

function isRawBody(body: unknown): boolean {
  if (typeof body === 'string') return true;
  if (body === null || typeof body !== 'object') return false;
  if (ArrayBuffer.isView(body) || body instanceof ArrayBuffer) return true;
  for (const name of ['FormData', 'Blob', 'URLSearchParams', 'ReadableStream']) {
    const type = (globalThis as Record<string, unknown>)[name];
    if (typeof type === 'function' && body instanceof (type as new () => unknown)) return true;
  }
  return false;
}

function combineSignals(
  a: AbortSignal | null | undefined,
  b: AbortSignal | null | undefined,
): AbortSignal | undefined {
  if (!a) return b ?? undefined;
  if (!b || a === b) return a;
  return AbortSignal.any([a, b]);
}

/**
 * `task`, or its signal's reason once the signal is aborted, whichever comes first. A failure of
 * `task` after that is let go (no unhandled rejection).
 */
function unless<T>(task: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return task;
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason);
    if (signal.aborted) stop();
    signal.addEventListener('abort', stop);
    void task.then(resolve, reject).then(() => signal.removeEventListener('abort', stop));
  });
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
        `RestEndpoint needs a path template${typeof process !== 'undefined' && process.env.NODE_ENV !== 'production' ? ', e.g. { path: "/todos/:id" }' : ''}`,
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
    const params = (value: unknown): Record<string, unknown> => {
      if (value === undefined || value === null) return {};
      if (typeof value !== 'object' || Array.isArray(value)) {
        throw new TypeError(
          `${this.name} takes an object of URL parameters${typeof process !== 'undefined' && process.env.NODE_ENV !== 'production' ? ', e.g. { id: 1 }' : ''}: got ${Array.isArray(value) ? 'an array' : typeof value}.`,
        );
      }
      return value as Record<string, unknown>;
    };
    if (args.length >= 2) return [params(args[0]), args[1]];
    if (args.length === 1 && BODY_METHODS.has(this.method)) return [{}, args[0]];
    return [params(args[0]), undefined];
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
    const url = this.url(params);
    const shown = hideCredentials(url);
    if (shown !== url) {
      // fetch would refuse it too, with the password in its message.
      throw new TypeError(
        `${this.method} ${shortUrl(shown)} must not hold a user name or password${typeof process !== 'undefined' && process.env.NODE_ENV !== 'production' ? ': send credentials in a header' : ''}.`,
      );
    }
    const timeout = this.timeout;
    if (timeout !== undefined && !(typeof timeout === 'number' && timeout > 0)) {
      throw new TypeError(
        `${this.name}: timeout must be a positive number of ms${typeof process !== 'undefined' && process.env.NODE_ENV !== 'production' ? ' (or undefined for none)' : ''}: got ${String(timeout)}.`,
      );
    }
    // The timeout and the caller's signal cover the whole request, getRequestInit too: an async
    // getHeaders that never settles (a token refresh that hangs) must not hold the read for good.
    // The Controller's timers (fake in tests), clamped: a timeout past 2^31-1 ms must not fire at once.
    const timers = context.timers ?? defaultTimers();
    let method: string = this.method;
    let timedOut: TimeoutError | undefined;
    let timer: unknown;
    let ours: AbortSignal | undefined;
    if (timeout !== undefined && Number.isFinite(timeout)) {
      const timeoutAbort = new AbortController();
      ours = timeoutAbort.signal;
      timer = timers.setTimeout(() => {
        timedOut = new TimeoutError({ method, url, timeout });
        timeoutAbort.abort(timedOut);
      }, clampDelay(timeout));
    }
    const proto = RestEndpoint.prototype;
    let value: unknown;
    try {
      let init: RequestInit;
      try {
        init = {
          ...(await unless(
            this.getRequestInit(body),
            // Only code of yours can hang here: the built-in steps are not raced (a listener on
            // the signal per request costs a few µs).
            this.getRequestInit !== proto.getRequestInit || this.getHeaders !== proto.getHeaders
              ? combineSignals(context.signal, ours)
              : undefined,
          )),
        };
      } catch (error) {
        if (timedOut) throw timedOut;
        if (context.signal?.aborted) {
          throw new AbortError({ method, url, reason: context.signal.reason });
        }
        // A body JSON cannot encode (a BigInt, a cycle) or a throwing getHeaders: say which request.
        const why = error instanceof Error ? error.message : String(error);
        throw new TypeError(`${method} ${shortUrl(url)} could not be sent: ${why}`, {
          cause: error,
        });
      }
      method = init.method ?? method;
      checkHeaders(init.headers, method, url);
      const fetchImpl = context.fetch ?? globalThis.fetch;
      if (typeof fetchImpl !== 'function') {
        throw new TypeError(
          `${this.name}: no fetch available${typeof process !== 'undefined' && process.env.NODE_ENV !== 'production' ? '; pass one to the Controller' : ''}.`,
        );
      }
      const userSignal = combineSignals(init.signal, context.signal);
      const signal = combineSignals(userSignal, ours);
      if (signal) init.signal = signal;
      let status: number | undefined;
      let processing = false;
      try {
        const response = await fetchImpl(url, init);
        // A stub or wrapper of fetch that gives no Response is said so, not as a crash inside.
        if (typeof response !== 'object' || response === null) {
          throw new TypeError(
            `fetch gave ${response === null ? 'null' : typeof response}, not a Response.`,
          );
        }
        requestOf.set(response, { method, url });
        status = response.status;
        // The body is part of the response: the timeout and an abort cover reading it too.
        value = await this.parseResponse(response, { method, url });
        processing = true;
        value = (this.process as (value: unknown, ...args: unknown[]) => unknown)(value, ...args);
      } catch (error) {
        throw requestFailure(error, {
          method,
          url,
          status,
          timedOut,
          userSignal,
          headers: init.headers,
          processing,
        });
      }
    } finally {
      if (timer !== undefined) timers.clearTimeout(timer);
    }
    return value;
  }

  /**
   * The request init for a body: `requestInit` merged in, the method, JSON body with
   * `Content-Type: application/json` (strings, FormData, Blob… are sent as they are), headers
   * passed through `getHeaders`. Override it (it may be async) to add `credentials` and the like.
   * @example override async getRequestInit(body) { return { ...(await super.getRequestInit(body)), credentials: 'same-origin' }; }
   */
  async getRequestInit(body: unknown): Promise<RequestInit> {
    const base = mergeInit(undefined, this.requestInit);
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
    for (const [name, value] of Object.entries(headersRecord(base.headers))) {
      setHeader(headers, name, value);
    }
    const finalHeaders = await this.getHeaders(headers);
    const record = headersRecord(finalHeaders);
    if (Object.keys(record).length > 0 || hasHeader(headers, 'content-type')) init.headers = record;
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
    for (const key of Reflect.ownKeys(this)) {
      if (key === 'length' || key === 'name') continue;
      Object.defineProperty(next, key, Object.getOwnPropertyDescriptor(this, key)!);
    }
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
   * With `paginationField`: the list's request with a page argument; the page is appended to the
   * list fetched without it, never repeating an entity.
   * @example await controller.fetch(PostResource.getList.getPage, { author: 'a', page: 2 });
   */
  get getPage(): PageEndpoint<O> {
    return derived(this, 'getPage') as PageEndpoint<O>;
  }
}

/** `endpoint.push`, `.unshift` or `.getPage`: made on first use, then the same object. */
function derived(endpoint: RestEndpoint<any>, key: 'push' | 'unshift' | 'getPage'): unknown {
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

function create(endpoint: RestEndpoint<any>, mode: 'push' | 'unshift'): unknown {
  const found = findCollection(endpoint.schema);
  if (!found) return undefined;
  return endpoint.extend({
    method: 'POST',
    schema: found.collection[mode] as Schema,
    // A name of method and path says POST, as the request does.
    name: `${namedByUser.has(endpoint) ? endpoint.name : defaultName(endpoint, 'POST')}.${mode}`,
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

/**
 * What a failed request rejects with: the timeout's or the user's abort, a failure before any
 * response (fetch's bare "Failed to fetch" / "fetch failed"), and a TypeError once the response
 * arrived (an override's `parseResponse` that throws, with the status), each naming method and
 * URL. Errors that already describe the response (NetworkError, ResponseFormatError…) pass through.
 */
function requestFailure(
  error: unknown,
  request: {
    method: string;
    url: string;
    /** The response's status, when one arrived. */
    status: number | undefined;
    timedOut: TimeoutError | undefined;
    userSignal: AbortSignal | undefined;
    headers?: HeadersInit | undefined;
    /** True once the body was read: `process()` threw. */
    processing?: boolean;
  },
): unknown {
  const { method, url } = request;
  const shown = shortUrl(url);
  if (request.timedOut) return request.timedOut;
  if (request.headers && error instanceof Error && mentionsHeader(error, request.headers)) {
    // The runtime quoted a header value (a token) in its message: keep it, and its cause, out.
    return new TypeError(
      `${method} ${shown} failed before a response arrived (a header was refused).`,
    );
  }
  if (request.userSignal?.aborted) {
    return new AbortError({ method, url, reason: request.userSignal.reason });
  }
  // fetch's TypeErrors, and what a process() that reads a field the answer lacks throws, say what,
  // not which request. An error class of the app's own (or a fetch wrapper's) passes through.
  if (
    (request.processing ? isRuntimeError(error) : error instanceof TypeError) &&
    !(error as Error).message.includes(shown)
  ) {
    const what =
      request.status === undefined
        ? 'failed before a response arrived'
        : `answered ${request.status}, then ${request.processing ? 'process() ' : ''}failed`;
    return new TypeError(`${method} ${shown} ${what}: ${reason(error as Error)}`, {
      cause: error,
    });
  }
  return error;
}

/**
 * Refuses, before anything is sent, a header value fetch would refuse (a line break or NUL, e.g.
 * a token read with its newline), naming the header but never showing its value.
 */
function checkHeaders(headers: HeadersInit | undefined, method: string, url: string): void {
  for (const [name, value] of Object.entries(headersRecord(headers))) {
    if (/[\r\n\0]/.test(value)) {
      throw new TypeError(
        `${method} ${shortUrl(url)}: header "${name}" has a line break or NUL${
          typeof process !== 'undefined' && process.env.NODE_ENV !== 'production'
            ? ', which HTTP does not allow (the value is not shown)'
            : ''
        }.`,
      );
    }
  }
}

/** True when the error's message or its cause's quotes one of the request's header values. */
function mentionsHeader(error: Error, headers: HeadersInit): boolean {
  const cause = (error as { cause?: unknown }).cause;
  const text = `${error.message} ${cause instanceof Error ? cause.message : ''}`;
  return Object.values(headersRecord(headers)).some(
    (value) => value.trim().length >= 4 && text.includes(value.trim()),
  );
}

function defaultName(endpoint: RestEndpoint<any>, method: string = endpoint.method): string {
  return `${method} ${hideCredentials(endpoint.urlPrefix)}${endpoint.path}`;
}

// Defaults live on the prototype, so own options (and subclass fields) override them.
Object.defineProperties(RestEndpoint.prototype, {
  urlPrefix: { value: '', writable: true, configurable: true },
  method: { value: 'GET', writable: true, configurable: true },
});
