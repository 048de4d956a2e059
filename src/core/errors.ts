/**
 * Errors of the request layer. They describe the response, never the request: a request's headers
 * may carry credentials (`Authorization`, `Access-Token`) and errors end up in logs and UIs.
 */

import { cut, safeJson, shortUrl } from './util/describe.js';

function DEV(): boolean {
  return (typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production';
}

/** The request an error is about: its method and its whole URL. */
interface RequestNamed {
  readonly method: string;
  readonly url: string;
}

/** What a NetworkError is built from. */
export interface NetworkErrorInit extends RequestNamed {
  readonly response: Response;
  /** The parsed JSON body, or its text when it is not JSON; undefined when the body is empty. */
  readonly body?: unknown;
}

/**
 * What the four errors share: a message that starts with the method and the (cut) URL, and the
 * whole `method` and `url` as fields. Not exported from the package: catch by the classes below.
 * @example new TimeoutError({ method: 'GET', url: '/todos', timeout: 5_000 }) instanceof RequestError // true
 */
export class RequestError extends Error {
  declare readonly method: string;
  declare readonly url: string;

  constructor(
    name: string,
    { method, url }: RequestNamed,
    what: string,
    fields?: object,
    options?: ErrorOptions,
  ) {
    super(`${method} ${shortUrl(url)} ${what}`, options);
    Object.assign(this, { name, method, url }, fields);
  }
}

/**
 * A request answered with a status outside 200-299.
 * @example
 * try {
 *   await TodoResource.get({ id: 'missing' });
 * } catch (error) {
 *   if (error instanceof NetworkError && error.status === 404) showNotFound();
 * }
 */
export class NetworkError extends RequestError {
  declare readonly name: 'NetworkError';
  /** The HTTP status, e.g. 404. */
  declare readonly status: number;
  declare readonly statusText: string;
  /** The fetch Response (its body has been read already: use `body`). */
  declare readonly response: Response;
  /** The parsed JSON body, or its text when it is not JSON; undefined when empty. */
  declare readonly body: unknown;
  /**
   * How a body reads in the message, before its `message`, `error` or `detail`: importing
   * `resource-elements/forms` sets it to the body's field messages (`title: can't be blank`).
   * @example NetworkError.bodyText = (body) => (body as { reason?: string })?.reason;
   */
  static bodyText?: (body: unknown) => string | undefined;

  constructor(init: NetworkErrorInit) {
    const { response, body } = init;
    const { status, statusText } = response;
    super(
      'NetworkError',
      init,
      `failed: ${status}${statusText && ` ${statusText}`}${describeBody(body, /problem/.test(response.headers.get('content-type')!))}`,
      { status, statusText, response, body },
    );
  }
}

/**
 * A successful response whose body is not what the endpoint expects, e.g. an HTML page (a dev
 * server's fallback) where JSON was expected, or JSON that does not parse.
 * @example
 * catch (error) {
 *   if (error instanceof ResponseFormatError) console.warn(error.contentType); // 'text/html'
 * }
 */
export class ResponseFormatError extends RequestError {
  declare readonly name: 'ResponseFormatError';
  declare readonly status: number;
  /** The response's Content-Type header, or '' when it had none. */
  declare readonly contentType: string;
  declare readonly response: Response;

  constructor(init: RequestNamed & { response: Response; contentType: string; reason: string }) {
    const { response, contentType } = init;
    const { status } = response;
    super(
      'ResponseFormatError',
      init,
      `answered ${status} with ${contentType ? `Content-Type "${contentType}"` : 'no Content-Type'}: ${init.reason}`,
      { status, contentType, response },
    );
  }
}

/**
 * A request that ran past its endpoint's `timeout` option (ms) and was aborted.
 * @example
 * const getTodo = TodoResource.get.extend({ timeout: 5_000 });
 * catch (error) {
 *   if (error instanceof TimeoutError) showRetry(`${error.url} took over ${error.timeout} ms`);
 * }
 */
export class TimeoutError extends RequestError {
  declare readonly name: 'TimeoutError';
  /** The endpoint's `timeout`, in ms. */
  declare readonly timeout: number;

  constructor(init: RequestNamed & { timeout: number }) {
    const { timeout } = init;
    super(
      'TimeoutError',
      init,
      `timed out after ${timeout} ms${DEV() ? " (the endpoint's timeout)" : ''}`,
      { timeout },
    );
  }
}

/**
 * A request aborted through the `signal` of its request init (or of the run context). Its name is
 * 'AbortError', like the platform's, so `error.name === 'AbortError'` checks keep working; the
 * signal's reason is the `cause`.
 * @example
 * catch (error) {
 *   if (error instanceof AbortError) return; // the user moved on
 * }
 */
export class AbortError extends RequestError {
  declare readonly name: 'AbortError';

  constructor(init: RequestNamed & { reason: unknown }) {
    const { reason } = init;
    const why = (reason as Error | undefined)?.message ?? String(reason ?? '');
    super('AbortError', init, `was aborted${why && `: ${why}`}`, undefined, { cause: reason });
  }
}

/**
 * The server's own explanation, the most useful part of the message, kept short: what
 * `NetworkError.bodyText` makes of the body (its field messages with `resource-elements/forms`),
 * else the body's `message`, `error` or RFC 9457 `detail` (a problem+json body's `title` when it has no detail),
 * else the whole body. An HTML page (a proxy's or a framework's error page) gives its text: head,
 * scripts and styles left out, tags and runs of white space made one space, and only its start
 * read, so the patterns stay cheap on a multi-megabyte page.
 */
function describeBody(body: unknown, problem: boolean): string {
  // No body reads as an empty one.
  body ??= '';
  const { message, error, detail, title } = body as Record<string, unknown>;
  const text = (
    NetworkError.bodyText?.(body) ??
    (typeof body == 'string'
      ? /^\s*</.test(body)
        ? body
            .slice(0, 20_000)
            .replace(/<(head|script|style)\b[^]*?<\/\1\s*>|<[^>]*>/gi, ' ')
            .replace(/\s+/g, ' ')
        : body
      : (([message, error, detail, problem && title].find((said) => typeof said == 'string') ??
          safeJson(body)) as string))
  ).trim();
  return text && `: ${cut(text, 200)}`;
}
