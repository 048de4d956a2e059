/**
 * RestEndpoint: one REST request described by options, callable on its own
 * (`await endpoint(params)`) and runnable by a Controller (`endpoint.run(args, { fetch })`).
 */
// Values first, in the order that packs a bundle best (see src/core/index.ts); types after.
import { pageSchema, withCollection } from '../schema/pagination.js';
import {
  checkRequest,
  headersRecord,
  hideCredentials,
  isRawBody,
  reason,
  requestFailure,
  type RequestState,
} from './guards.js';
import { NetworkError, ResponseFormatError, TimeoutError } from '../errors.js';
import { shortUrl } from '../util/describe.js';
import { defaultOptimisticResponse } from './optimistic.js';
import { NOT_MODIFIED } from '../protocol/types.js';
import { defineOwn, entry } from '../util/own.js';
import { clampDelay, defaultTimers, type Timers } from '../env/timers.js';
import { checkOptions } from '../protocol/check-options.js';
import { buildUrl } from './url.js';
import type { RetryOption, RunContext, Snapshot } from '../protocol/types.js';
import type { Schema } from '../schema/types.js';
import type { DataFields } from '../type-utils.js';
import type {
  EndpointArgs,
  EndpointResult,
  Extended,
  RestEndpointOptions,
  RestGenerics,
  SchemaOf,
  UrlParams,
} from './endpoint-types.js';

function DEV(): boolean {
  return (typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production';
}

/** The request a response answers, for error messages (never its headers). */
interface RequestSummary {
  readonly method: string;
  readonly url: string;
}

/** push, unshift, remove and getPage of each endpoint, made on first use. */
const derivedOf = new WeakMap<object, Record<string, unknown>>();
/**
 * The request each response answers, set by `run`: an override that calls
 * `super.parseResponse(response)` alone still gets errors naming the method and URL.
 */
const requestOf = new WeakMap<Response, RequestSummary>();
/** Endpoints whose name was given, so extend keeps it instead of deriving a new one. */
const namedByUser = new WeakSet<object>();
/** The derived `push` and `unshift`: one body creates one entity. */
const creates = new WeakSet<object>();

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
                Readonly<
                  Partial<
                    DataFields<Element<EndpointResult<{ schema: CollectionIn<SchemaOf<O>> }>>>
                  >
                >;
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

/**
 * Makes an endpoint: a function calling `run`, with `proto`'s methods, `from`'s own properties
 * (options and subclass fields alike) and `options` over them. An option given as undefined
 * deletes the own value, so the prototype's default applies again.
 */
function make(proto: object, options: Record<string, any>, from?: object): RestEndpoint<any> {
  const endpoint = ((...args: unknown[]) =>
    endpoint.run(args as any)) as unknown as RestEndpoint<any>;
  Object.setPrototypeOf(endpoint, proto);
  const { length: _, ...own } = Object.getOwnPropertyDescriptors(from ?? {});
  Object.defineProperties(endpoint, own);
  for (const [key, value] of Object.entries(options)) {
    if (key != 'name') {
      if (value === undefined) delete (endpoint as any)[key];
      else
        defineOwn(
          endpoint,
          key,
          key == 'method' && typeof value == 'string' ? value.toUpperCase() : value,
        );
    }
  }
  // A name given is kept by extend; a default one says each endpoint's own method and path.
  const named = typeof options.name == 'string' ? options : namedByUser.has(from!) && from;
  if (named) namedByUser.add(endpoint);
  defineOwn(endpoint, 'name', named ? (named as RestEndpoint).name : defaultName(endpoint));
  return endpoint;
}

function defaultName(endpoint: RestEndpoint<any>, method: string = endpoint.method): string {
  return `${method} ${hideCredentials(endpoint.urlPrefix)}${endpoint.path}`;
}

/** The signal aborted when either is; undefined when there is none. */
function anySignal(a?: AbortSignal | null, b?: AbortSignal): AbortSignal | undefined {
  return a && b && a != b ? AbortSignal.any([a, b]) : (a ?? b);
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
  /**
   * Whether `paginationField` stays in the store key of a call that passes it: true by default,
   * so `getList({ page: 2 })` is a read of its own; false for `getPage`, which appends each page
   * to the list fetched without it.
   */
  declare readonly keepsPage: boolean;
  /** Merged into every request's init. */
  declare readonly requestInit: RequestInit | undefined;
  /** A mutation's answer may come after a redirect (307/308); by default that rejects. */
  declare readonly allowRedirects: boolean | undefined;
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

  /**
   * `getList.push`, `getList.unshift` (when the schema holds a Collection): POST to this URL,
   * adding the created entity at the end, or the start, of every matching list.
   * @example await TodoResource.getList.push({ title: 'Buy milk' });
   */
  declare readonly push: CreateEndpoint<O, 'push'>;
  /**
   * Like `push`, adding the created entity at the start of every matching list.
   * @example await TodoResource.getList.unshift({ title: 'Urgent' });
   */
  declare readonly unshift: CreateEndpoint<O, 'unshift'>;
  /**
   * When the schema holds a Collection: PATCH to this URL, taking the entity the server answers
   * with out of every stored list whose filter its values match.
   * @example await TodoResource.getList.remove({ userId: 1 }, { id: 5 });
   */
  declare readonly remove: CreateEndpoint<O, 'remove'>;
  /**
   * With `paginationField`: the list's request with a page argument; the page is appended to the
   * list fetched without it, never repeating an entity.
   * @example await controller.fetch(PostResource.getList.getPage, { author: 'a', page: 2 });
   */
  declare readonly getPage: PageEndpoint<O>;

  constructor(options: O & RestEndpointOptions<O>) {
    if (typeof options?.path != 'string') {
      throw new TypeError(
        `RestEndpoint needs a path template${DEV() ? ', e.g. { path: "/todos/:id" }' : ''}`,
      );
    }
    // A side effect with no method is a POST (a GET is never one). The instance is the function
    // `make` returns, not `this`: subclass fields land on it all the same.
    return make(
      new.target.prototype,
      (options as { sideEffect?: unknown }).sideEffect === true && options.method === undefined
        ? { ...options, method: 'POST' }
        : options,
    ) as any;
  }

  /**
   * True for mutations: every method but GET, unless the `sideEffect` option says otherwise.
   * @example TodoResource.update.sideEffect // true
   */
  get sideEffect(): boolean {
    return this.method != 'GET';
  }

  /**
   * With `optimistic: true`, a mutation's default guess (see `defaultOptimisticResponse`);
   * undefined otherwise. The `getOptimisticResponse` option replaces it.
   * @example TodoResource.update.extend({ optimistic: true }).getOptimisticResponse // (snapshot, params, body) => …
   */
  get getOptimisticResponse():
    ((snapshot: Snapshot, ...args: EndpointArgs<O>) => unknown) | undefined {
    return this.optimistic && this.sideEffect ? defaultOptimisticResponse(this) : undefined;
  }

  /**
   * The URL params and the body of a call: `(params, body)`, `(params)`, or `(body)` alone for
   * POST, PUT and PATCH.
   * @example putTodo.splitArgs([{ title: 'x' }]) // [{}, { title: 'x' }]
   */
  splitArgs(args: readonly unknown[]): [Record<string, unknown>, unknown] {
    if (args.length == 1 && ['POST', 'PUT', 'PATCH'].includes(this.method)) return [{}, args[0]];
    const params = args[0];
    const kind = Array.isArray(params) ? 'an array' : typeof params;
    if (params != null && kind != 'object') {
      throw new TypeError(
        `${this.name} takes an object of URL parameters${DEV() ? ', e.g. { id: 1 }' : ''}: got ${kind}.`,
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
    return buildUrl(this, params as Record<string, unknown>);
  }

  /**
   * The cache key: method and URL with the query sorted, so equal requests share it.
   * @example getTodos.key({ b: 2, a: 1 }) // 'GET https://api.test/todos?a=1&b=2'
   */
  key(...args: EndpointArgs<O>): string {
    return `${this.method} ${hideCredentials(buildUrl(this, this.splitArgs(args)[0], true))}`;
  }

  /**
   * The request: `url` -> `getRequestInit` -> `fetchResponse` -> `parseResponse` -> `process`,
   * each overridable, under the endpoint's timeout and the context's signal. Nothing is
   * normalized here.
   * @example const value = await getTodo.run([{ id: 1 }], { fetch: myFetch });
   */
  async run(args: EndpointArgs<O>, context: RunContext = {}): Promise<unknown> {
    const [params, body] = this.splitArgs(args);
    const request: RequestState = {
      method: this.method,
      url: this.url(params),
      signal: context.signal,
    };
    checkRequest(request);
    if (typeof (context.fetch ?? globalThis.fetch) != 'function') {
      throw new TypeError(
        `${this.name}: no fetch available${DEV() ? '; pass one to the Controller' : ''}.`,
      );
    }
    if (DEV()) checkOptions(this);
    const { timeout } = this;
    let timers: Timers | undefined;
    let timer: unknown;
    // No timeout, or one that cannot work (checkOptions refuses it in development). Clamped: one
    // past 2^31-1 ms must not fire at once.
    if (timeout! > 0 && timeout! < Infinity) {
      const abort = new AbortController();
      request.deadline = abort.signal;
      timers = context.timers ?? defaultTimers();
      timer = timers.setTimeout(
        () => abort.abort(new TimeoutError({ ...request, timeout: timeout! })),
        clampDelay(timeout!),
      );
    }
    const proto = RestEndpoint.prototype;
    try {
      // The timeout and the signal cover getRequestInit too (a token refresh that hangs must not
      // hold the read for good), raced only when it is code of yours: a listener per request
      // costs a few µs.
      const init: RequestInit = {
        ...(await race(
          this.getRequestInit(body),
          (this.getRequestInit != proto.getRequestInit || this.getHeaders != proto.getHeaders) &&
            anySignal(request.signal, request.deadline),
        )),
      };
      request.method = init.method ?? request.method;
      // A revalidation asks whether the stored answer still holds, unless the caller asks itself.
      const { validator } = context;
      const headers = headersRecord(init.headers);
      const asked = validator && !Object.keys(headers).some((name) => /^if-/i.test(name));
      if (asked) {
        headers[validator.endsWith('"') ? 'If-None-Match' : 'If-Modified-Since'] = validator;
        init.headers = headers;
        // Not 'no-store', which fetch makes of a request with such a header: it would add
        // `Cache-Control: no-cache`, and servers that honour it (Express) answer in full.
        init.cache ??= 'no-cache';
      }
      request.init = init;
      // Its errors name the URL: requestFailure lets them through.
      checkRequest(request);
      // An abort by the caller's signals (the init's and the context's) is an AbortError.
      request.signal = anySignal(init.signal, request.signal);
      const signal = anySignal(request.signal, request.deadline);
      if (signal) init.signal = signal;
      const response = await this.fetchResponse(request.url, init, context);
      // A stub or wrapper of fetch that gives no Response is said so, not as a crash inside (a
      // check of the app's own fetch: development only).
      if (DEV() && (typeof response != 'object' || !response)) {
        throw new TypeError(
          `fetch gave ${response === null ? 'null' : typeof response}, not a Response.`,
        );
      }
      const sent = { method: request.method, url: request.url };
      const named = `${sent.method} ${shortUrl(sent.url)}`;
      // fetch follows a 301, 302 or 303 with a GET and no body: what answers is not the mutation.
      if (response.redirected && this.sideEffect && !this.allowRedirects) {
        throw new TypeError(
          `${named} was redirected to ${shortUrl(response.url)}${DEV() ? ': fetch sends a 301/302/303 on as a GET without the body. Use the URL it redirects to (a trailing slash in the path?), or allowRedirects: true for an API that answers 307/308' : ''}`,
        );
      }
      requestOf.set(response, sent);
      request.status = response.status;
      if (asked && response.status == 304) return NOT_MODIFIED;
      // The body is part of the response: the timeout and an abort cover reading it too.
      const value = await this.parseResponse(response, sent);
      // A list where one created entity belongs would file every member into the lists.
      if (creates.has(this) && Array.isArray(value) && !Array.isArray(body)) {
        throw new TypeError(`${named} answered an array (${value.length}) for one created entity`);
      }
      request.processing = true;
      // Kept for the next revalidation.
      context.validator =
        response.headers.get('etag') ?? response.headers.get('last-modified') ?? undefined;
      return (this.process as (value: unknown, ...args: unknown[]) => unknown)(value, ...args);
    } catch (error) {
      throw requestFailure(error, request);
    } finally {
      timers?.clearTimeout(timer);
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
    const init: RequestInit & { duplex?: string } = { ...this.requestInit, method: this.method };
    const headers: Record<string, string> = {};
    if (body !== undefined) {
      if (isRawBody(body)) {
        init.body = body as BodyInit;
        // fetch sends a stream only when told it goes out as it comes (Node and Chromium refuse it).
        if ((body as ReadableStream).getReader) init.duplex = 'half';
      } else {
        init.body = JSON.stringify(body);
        headers['Content-Type'] = 'application/json';
      }
    }
    headersRecord(init.headers, headers);
    const record = headersRecord(await this.getHeaders(headers));
    if (Object.keys(record).length) init.headers = record;
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
   * Reads the response: 2xx JSON is parsed; 204, 205, HEAD or an empty body gives null;
   * `text/plain` gives the text (a delete may answer with the bare pk); any other type where JSON
   * is expected rejects with ResponseFormatError; a status outside 2xx with NetworkError.
   * `request` (method and URL, for error messages) may be left out.
   * @example override async parseResponse(response) { return response.status === 202 ? null : super.parseResponse(response); }
   */
  async parseResponse(
    response: Response,
    // An override may call `super.parseResponse(response)` alone: `run` noted the request.
    request: RequestSummary = requestOf.get(response) ?? { method: this.method, url: response.url },
  ): Promise<unknown> {
    const { status, ok } = response;
    // A 204 or 205 cannot carry a body and fetch gives the answer to a HEAD none: each reads as
    // '', which is null below.
    // A body an override has read already fails for that reason, which is no lost connection.
    const used = response.bodyUsed;
    let text = '';
    try {
      text = await response.text();
    } catch (error) {
      // A failure status is the news: an unreadable error body must not hide it. Otherwise the
      // connection dropped half-way (Node's "terminated", Chromium's "network error"), and the
      // words "body could not be read" let the retry policy try the read again.
      if (ok) {
        throw used || !(error instanceof TypeError)
          ? error
          : new TypeError(
              `${request.method} ${shortUrl(request.url)} answered ${status}, then its body could not be read: ${reason(error)}`,
              { cause: error },
            );
      }
    }
    let value: unknown;
    let invalid: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      invalid = error;
    }
    // A failure's body is its JSON, else its text, else undefined.
    if (!ok)
      throw new NetworkError({ ...request, response, body: invalid ? text || undefined : value });
    if (!text.trim()) return null;
    const contentType = response.headers.get('content-type') ?? '';
    const type = contentType.split(';')[0]!.trim().toLowerCase();
    let why = `expected JSON${DEV() ? '; is the URL right, or does the server send the wrong Content-Type?' : '.'}`;
    if (!type || /[+/]json$/.test(type)) {
      if (!invalid) return value;
      why = `not valid JSON (${(invalid as Error).message}).`;
    } else if (type == 'text/plain') return text;
    throw new ResponseFormatError({
      ...request,
      response,
      contentType,
      reason: `${why} The body starts with ${JSON.stringify(text.slice(0, 60))}`,
    });
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
    return make(Object.getPrototypeOf(this), options, this) as any;
  }
}

/**
 * `task`, or its signal's reason once the signal is aborted, whichever comes first (no signal:
 * `task` itself). A failure of `task` after that is let go (no unhandled rejection).
 */
function race<T>(task: Promise<T>, signal: AbortSignal | false | undefined): Promise<T> {
  return signal
    ? new Promise<T>((resolve, reject) => {
        const stop = () => reject(signal.reason);
        if (signal.aborted) stop();
        signal.addEventListener('abort', stop);
        void task.then(resolve, reject).then(() => signal.removeEventListener('abort', stop));
      })
    : task;
}

// The derived members: made on first use, then the same object. A created entity is not a list:
// the list's response handling, paging and optimism do not apply to it, nor its retries (a POST
// sent twice may create two records).
for (const key of ['push', 'unshift', 'remove', 'getPage']) {
  Object.defineProperty(RestEndpoint.prototype, key, {
    configurable: true,
    get(this: RestEndpoint<any>) {
      const derived = entry(derivedOf, this, Object);
      if (!(key in derived)) {
        const { paginationField: field, schema, name } = this;
        const method = key == 'remove' ? 'PATCH' : 'POST';
        let variant: unknown;
        if (key != 'getPage') withCollection(schema, (found) => (variant = (found as any)[key]));
        derived[key] = variant
          ? this.extend({
              method,
              schema: variant,
              // A default name says the method the request uses.
              name: `${namedByUser.has(this) ? name : defaultName(this, method)}.${key}`,
              process: undefined,
              paginationField: undefined,
              sideEffect: undefined,
              getOptimisticResponse: undefined,
              retry: undefined,
            } as any)
          : key == 'getPage' && field
            ? this.extend({
                schema: pageSchema(schema, field, name) as Schema,
                name: `${name}.${key}`,
                keepsPage: false,
              } as any)
            : undefined;
        if (variant && key != 'remove') creates.add(derived[key] as object);
      }
      return derived[key];
    },
  });
}

// Endpoints are functions: keep call/apply/bind and `instanceof Function` working. Defaults live
// on the prototype, so own options (and subclass fields) override them.
Object.assign(Object.setPrototypeOf(RestEndpoint.prototype, Function.prototype), {
  urlPrefix: '',
  method: 'GET',
  keepsPage: true,
});
