/**
 * Every guard on request input, in one module: path and query values, credentials in the URL,
 * headers, bodies, a fetch that gives no Response; and what a failed request rejects with. Each
 * message names what and where (method, URL, parameter, header) and never a header value or a
 * password: errors end up in logs and UIs.
 */
import { AbortError, type TimeoutError } from '../errors.js';
import { defineOwn } from '../util/own.js';
import { describeValue, isRuntimeError, shortUrl } from '../util/describe.js';

function DEV(): boolean {
  return (typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production';
}

/** One request as it runs: what its errors name, and what decides which error a failure is. */
export interface RequestState {
  /** The endpoint's method, then the request init's. */
  method: string;
  url: string;
  /** The timeout's signal, aborted with its TimeoutError. */
  deadline?: AbortSignal | undefined;
  /** The caller's signals: the run context's, then combined with the request init's. */
  signal?: AbortSignal | undefined;
  /** Set once `getRequestInit` gave it. */
  init?: RequestInit | undefined;
  /** Set once a response arrived. */
  status?: number | undefined;
  /** True once the body was read and `process()` runs. */
  processing?: boolean | undefined;
}

/**
 * A URL value's place as its errors name it: the parameter, the path template and the method
 * when known; never the URL prefix, which may hold credentials.
 * @example place('Query', 'q', '/search', 'GET') // 'Query parameter "q" for path "/search" (GET)'
 */
export function place(kind: string, name: string, template: string, method?: string): string {
  return `${kind} parameter ${JSON.stringify(name)} for path "${template}"${method ? ` (${method})` : ''}`;
}

/**
 * `encodeURIComponent`, whose bare "URI malformed" for text that is not well-formed Unicode (a
 * lone surrogate, half of an emoji cut by `slice`) would not say which parameter held it.
 * @example encode('a b', () => 'Query parameter "q"') // 'a%20b'
 */
export function encode(text: string, where: () => string): string {
  try {
    return encodeURIComponent(text);
  } catch (error) {
    throw new URIError(
      `${where()} is not well-formed Unicode${DEV() ? ' (it holds a lone surrogate, e.g. half of an emoji)' : ''}: got ${describeValue(text)}.`,
      { cause: error },
    );
  }
}

/**
 * The text of path parameter `name` of `params`, or undefined for an optional one that is
 * missing or empty (the caller leaves it out). `where` gives its place, capitalized (made only
 * for an error: a key is built on every read).
 * @example pathText({ id: 5 }, 'id', false, () => 'Path parameter "id" for path "/todos/:id"') // '5'
 */
export function pathText(
  params: Readonly<Record<string, unknown>>,
  name: string,
  optional: boolean,
  where: () => string,
): string | undefined {
  const value = params[name];
  if (value == null || value === '') {
    if (optional) return;
    throw new Error(
      value == null
        ? `Missing required p${where().slice(1)}: got ${describeValue(params)}.`
        : `${where()} is an empty string${DEV() ? ': it would leave an empty path segment' : ''}.`,
    );
  }
  if (typeof value != 'string' && typeof value != 'bigint' && !Number.isFinite(value)) {
    throw new TypeError(
      `${where()} must be a string or a finite number: got ${describeValue(value)}.`,
    );
  }
  return String(value);
}

/**
 * The query text of one value (an array's item, or the value itself); null is ''.
 * @example queryText(new Date(0), () => 'Query parameter "since"') // '1970-01-01T00:00:00.000Z'
 */
export function queryText(value: unknown, where: () => string): string {
  if (value === null) return '';
  const date = value instanceof Date;
  // NaN, Infinity and an invalid Date have no text a server would read as meant.
  if ((date || typeof value == 'number') && !isFinite(value as number)) {
    throw new TypeError(`${where()} is ${String(value)}.`);
  }
  // A string, number, boolean or bigint (a symbol, object or function has no query text).
  if (!date && !/^(st|n|b)/.test(typeof value)) {
    throw new TypeError(
      `${where()} must be a query value${DEV() ? ' (a string, number, boolean, Date or an array of them)' : ''}: got ${typeof value}.`,
    );
  }
  return date ? value.toISOString() : String(value);
}

/** A user name or password in a URL (`https://me:s3cret@host`), up to its `@`. */
const USERINFO = /^([a-z][a-z\d+.-]*:\/\/)[^/?#]*@/i;

/**
 * `url` with any user name and password replaced by `***`: what keys, names and errors may show.
 * @example hideCredentials('https://me:s3cret@api.test/todos') // 'https://***@api.test/todos'
 */
export function hideCredentials(url: string): string {
  return url.includes('@') ? url.replace(USERINFO, '$1***@') : url;
}

/**
 * Refuses a URL with a user name or password (fetch would too, with the password in its message),
 * and a header value HTTP does not allow (a line break or NUL, e.g. a token read with its newline),
 * naming the header but never showing its value.
 * @example checkRequest({ method: 'GET', url: 'https://me:pw@api.test/' }) // throws, the password hidden
 */
export function checkRequest({ method, url, init }: RequestState): void {
  const shown = hideCredentials(url);
  if (shown != url) {
    throw new TypeError(
      `${method} ${shortUrl(shown)} must not hold a user name or password${DEV() ? ': send credentials in a header' : ''}.`,
    );
  }
  for (const [header, value] of Object.entries(headersRecord(init?.headers))) {
    if (/[\r\n\0]/.test(value)) {
      throw new TypeError(
        `${method} ${shortUrl(url)}: header "${header}" has a line break or NUL${DEV() ? ', which HTTP does not allow (the value is not shown)' : ''}.`,
      );
    }
  }
}

/**
 * Headers of any `HeadersInit` shape as a plain record, names as given, one per name in any case.
 * @example headersRecord([['Accept', 'text/plain']]) // { Accept: 'text/plain' }
 */
export function headersRecord(
  headers: HeadersInit | undefined,
  out: Record<string, string> = {},
): Record<string, string> {
  // Headers and arrays of pairs iterate as pairs; a record is read by its entries.
  for (const [name, value] of (headers as Iterable<[string, string]>)?.[Symbol.iterator]
    ? (headers as Iterable<[string, string]>)
    : Object.entries(headers ?? {})) {
    for (const key of Object.keys(out)) {
      if (key.toLowerCase() == name.toLowerCase()) delete out[key];
    }
    defineOwn(out, name, String(value));
  }
  return out;
}

/**
 * True for a body fetch sends as it is (a string, bytes, FormData, Blob, URLSearchParams, a
 * stream); any other body is sent as JSON.
 * @example isRawBody(new FormData()) // true
 */
export function isRawBody(body: unknown): boolean {
  const { FormData, Blob, URLSearchParams, ReadableStream } = globalThis;
  return (
    typeof body == 'string' ||
    ArrayBuffer.isView(body) ||
    // A type the runtime lacks is left out.
    [ArrayBuffer, FormData, Blob, URLSearchParams, ReadableStream].some(
      (type) => type && body instanceof type,
    )
  );
}

/**
 * An error's message and, in brackets, its cause's: Node's fetch says only "fetch failed" or
 * "terminated", and why (refused, DNS, TLS, a socket closed) is the cause's message or code.
 * @example reason(fetchFailed) // 'fetch failed (connect ECONNREFUSED 127.0.0.1:8080)'
 */
export function reason(error: Error): string {
  const inner = error?.cause as { message?: unknown; code?: unknown } | undefined;
  const why = inner && (inner.message || inner.code);
  return `${error?.message ?? error}${typeof why == 'string' ? ` (${why})` : ''}`;
}

/**
 * What a failed request rejects with: the timeout's or the caller's abort; a request init that
 * could not be built; fetch's bare "Failed to fetch" and a failure after the response arrived
 * (with the status) said with method and URL. Errors that already say which request (NetworkError,
 * ResponseFormatError, an app's own class) pass through.
 * @example catch (error) { throw requestFailure(error, request); }
 */
export function requestFailure(error: unknown, request: RequestState): unknown {
  const { method, url, init, deadline, signal, status, processing } = request;
  const shown = `${method} ${shortUrl(url)}`;
  const before = 'failed before a response arrived';
  if (deadline?.aborted) return deadline.reason as TimeoutError;
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  const text = error instanceof Error && `${error.message} ${(cause as Error)?.message}`;
  // A runtime that quotes a header value (a token) in its message: keep it, and its cause, out.
  if (
    text &&
    Object.values(headersRecord(init?.headers)).some(
      (value) => value.trim().length > 3 && text.includes(value.trim()),
    )
  ) {
    return new TypeError(`${shown} ${before} (a header was refused).`);
  }
  if (signal?.aborted) return new AbortError({ ...request, reason: signal.reason });
  // A request init that could not be built (a body JSON cannot encode, a throwing getHeaders),
  // and what fetch or a process() that reads a field the answer lacks throws: they say what, not
  // which request. An error class of the app's own passes through.
  return !init ||
    ((processing ? isRuntimeError(error) : error instanceof TypeError) &&
      !(error as Error).message.includes(shortUrl(url)))
    ? new TypeError(
        `${shown} ${!init ? 'could not be sent' : status === undefined ? before : `answered ${status}, then ${processing ? 'process() ' : ''}failed`}: ${reason(error as Error)}`,
        { cause: error },
      )
    : error;
}
