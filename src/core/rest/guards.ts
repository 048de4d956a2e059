/**
 * The request's guards and its errors: what `RestEndpoint.run` refuses before anything is sent
 * (credentials in the URL, a header value HTTP does not allow, no fetch to send with, a fetch that
 * gives no Response), and what a failed request rejects with. A new check on request input goes
 * here; path and query values are checked where they are read (path.ts, url.ts).
 */
import { AbortError, type TimeoutError } from '../errors.js';
import type { RunContext } from '../protocol/types.js';
import { isRuntimeError, shortUrl } from '../util/describe.js';
import { reason } from './parse-response.js';
import { headersRecord } from './request-init.js';
import { hideCredentials } from './url.js';

/** One request as it runs: what its errors name, and what decides which error a failure is. */
export interface RequestState {
  /** The method: the endpoint's, then the request init's. */
  method: string;
  url: string;
  /** The timeout's signal, aborted with its TimeoutError. */
  deadline?: AbortSignal | undefined;
  /** The caller's signals: the run context's, then combined with the request init's. */
  signal?: AbortSignal | undefined;
  /** The request init, once `getRequestInit` gave it. */
  init?: RequestInit | undefined;
  /** The response's status, once one arrived. */
  status?: number | undefined;
  /** True once the body was read: `process()` runs. */
  processing?: boolean | undefined;
}

/** Refuses a URL with a user name or password: fetch would too, with the password in its message. */
export function refuseCredentials({ method, url }: RequestState): void {
  const shown = hideCredentials(url);
  if (shown !== url) {
    throw new TypeError(
      `${method} ${shortUrl(shown)} must not hold a user name or password${(typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production' ? ': send credentials in a header' : ''}.`,
    );
  }
}

/**
 * Takes the request init `getRequestInit` gave: its method names the request from now on. Refuses,
 * before anything is sent, a header value fetch would refuse (a line break or NUL, e.g. a token
 * read with its newline), naming the header but never showing its value; and a request with no
 * fetch to send it with.
 */
export function checkInit(
  init: RequestInit,
  request: RequestState,
  context: RunContext,
  name: string,
): void {
  const method = (request.method = init.method ?? request.method);
  request.init = init;
  for (const [header, value] of Object.entries(headersRecord(init.headers))) {
    if (/[\r\n\0]/.test(value)) {
      throw new TypeError(
        `${method} ${shortUrl(request.url)}: header "${header}" has a line break or NUL${
          (typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production'
            ? ', which HTTP does not allow (the value is not shown)'
            : ''
        }.`,
      );
    }
  }
  if (typeof (context.fetch ?? globalThis.fetch) !== 'function') {
    throw new TypeError(
      `${name}: no fetch available${(typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production' ? '; pass one to the Controller' : ''}.`,
    );
  }
}

/** A stub or wrapper of fetch that gives no Response is said so, not as a crash inside. */
export function checkResponse(response: Response): Response {
  if (typeof response !== 'object' || response === null) {
    throw new TypeError(
      `fetch gave ${response === null ? 'null' : typeof response}, not a Response.`,
    );
  }
  return response;
}

/**
 * What a failed request rejects with: the timeout's or the caller's abort; a request init that
 * could not be built (a body JSON cannot encode, a throwing getHeaders); a failure before any
 * response (fetch's bare "Failed to fetch" / "fetch failed"); and a TypeError once the response
 * arrived (an override's `parseResponse` that throws, with the status), each naming method and
 * URL. Errors that already describe the response (NetworkError, ResponseFormatError…) pass through.
 */
export function requestFailure(error: unknown, request: RequestState): unknown {
  const { method, url, init, deadline, signal } = request;
  const shown = shortUrl(url);
  if (deadline?.aborted) return deadline.reason as TimeoutError;
  if (error instanceof Error && mentionsHeader(error, init?.headers)) {
    // The runtime quoted a header value (a token) in its message: keep it, and its cause, out.
    return new TypeError(
      `${method} ${shown} failed before a response arrived (a header was refused).`,
    );
  }
  if (signal?.aborted) return new AbortError({ method, url, reason: signal.reason });
  if (!init) {
    const why = error instanceof Error ? error.message : String(error);
    return new TypeError(`${method} ${shown} could not be sent: ${why}`, { cause: error });
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

/** True when the error's message or its cause's quotes one of the request's header values. */
function mentionsHeader(error: Error, headers: HeadersInit | undefined): boolean {
  const cause = (error as { cause?: unknown }).cause;
  const text = `${error.message} ${cause instanceof Error ? cause.message : ''}`;
  return Object.values(headersRecord(headers)).some(
    (value) => value.trim().length >= 4 && text.includes(value.trim()),
  );
}
