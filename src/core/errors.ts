/**
 * Errors of the request layer. They describe the response, never the request: a request's headers
 * may carry credentials (`Authorization`, `Access-Token`) and errors end up in logs and UIs.
 */

import { safeJson, shortUrl } from './util/describe.js';

/** What a NetworkError is built from. */
export interface NetworkErrorInit {
  readonly method: string;
  readonly url: string;
  readonly response: Response;
  /** The parsed JSON body, or its text when it is not JSON; undefined when the body is empty. */
  readonly body?: unknown;
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
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  /** The HTTP status, e.g. 404. */
  declare readonly status: number;
  declare readonly statusText: string;
  /** The fetch Response (its body has been read already: use `body`). */
  declare readonly response: Response;
  /** The parsed JSON body, or its text when it is not JSON; undefined when empty. */
  declare readonly body: unknown;
  declare readonly method: string;
  declare readonly url: string;

  constructor({ method, url, response, body }: NetworkErrorInit) {
    const { status, statusText } = response;
    super(
      `${method} ${shortUrl(url)} failed: ${status}${statusText ? ` ${statusText}` : ''}${describeBody(body, /problem/.test(response.headers.get('content-type')!))}`,
    );
    Object.assign(this, { status, statusText, response, body, method, url });
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
export class ResponseFormatError extends Error {
  override readonly name = 'ResponseFormatError';
  declare readonly status: number;
  declare readonly method: string;
  declare readonly url: string;
  /** The response's Content-Type header, or '' when it had none. */
  declare readonly contentType: string;
  declare readonly response: Response;

  constructor({
    method,
    url,
    response,
    contentType,
    reason,
  }: {
    method: string;
    url: string;
    response: Response;
    contentType: string;
    reason: string;
  }) {
    const { status } = response;
    super(
      `${method} ${shortUrl(url)} answered ${status} with ${
        contentType ? `Content-Type "${contentType}"` : 'no Content-Type'
      }: ${reason}`,
    );
    Object.assign(this, { status, method, url, contentType, response });
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
export class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
  declare readonly method: string;
  declare readonly url: string;
  /** The endpoint's `timeout`, in ms. */
  declare readonly timeout: number;

  constructor({ method, url, timeout }: { method: string; url: string; timeout: number }) {
    super(
      `${method} ${shortUrl(url)} timed out after ${timeout} ms${
        (typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production'
          ? " (the endpoint's timeout)"
          : ''
      }`,
    );
    Object.assign(this, { method, url, timeout });
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
export class AbortError extends Error {
  override readonly name = 'AbortError';
  declare readonly method: string;
  declare readonly url: string;

  constructor({ method, url, reason }: { method: string; url: string; reason: unknown }) {
    const why = reason instanceof Error ? reason.message : String(reason ?? '');
    super(`${method} ${shortUrl(url)} was aborted${why ? `: ${why}` : ''}`, { cause: reason });
    Object.assign(this, { method, url });
  }
}

const MAX_BODY_IN_MESSAGE = 200;

// The server's own explanation is the most useful part of the message, so a short one is kept:
// the body's `message`, `error` or RFC 9457 `detail` (a problem+json body's `title` when it has no
// detail), else the whole body.
function describeBody(body: unknown, problem: boolean): string {
  if (body === undefined || body === null || body === '') return '';
  let text: string;
  if (typeof body === 'string') text = /^\s*</.test(body) ? pageText(body) : body;
  else {
    const { message, error, detail, title } = body as Record<string, unknown>;
    text = ([message, error, detail, problem && title].find((said) => typeof said === 'string') ??
      safeJson(body)) as string;
  }
  text = text.trim();
  if (text.length > MAX_BODY_IN_MESSAGE) text = `${text.slice(0, MAX_BODY_IN_MESSAGE)}…`;
  return text ? `: ${text}` : '';
}

/**
 * The text of an HTML page (a proxy's or a framework's error page): its head, scripts and styles
 * left out, tags and runs of white space made one space. Only the page's start is read: a message
 * keeps 200 characters, and the patterns stay cheap on a multi-megabyte page.
 */
function pageText(html: string): string {
  return html
    .slice(0, 20_000)
    .replace(/<(head|script|style)\b[\s\S]*?<\/\1\s*>|<[^>]*>/gi, ' ')
    .replace(/\s+/g, ' ');
}
