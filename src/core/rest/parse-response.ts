/**
 * From a fetch Response to the value an endpoint processes: JSON parsed, nothing → null, a
 * failure status → NetworkError, a body that cannot be what was asked for → ResponseFormatError.
 */
import { NetworkError, ResponseFormatError } from '../errors.js';
import { shortUrl } from '../util/describe.js';

/** The request a response answers, for error messages (never its headers). */
export interface RequestSummary {
  readonly method: string;
  readonly url: string;
}

function parseLoosely(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * An error's message and, in brackets, its cause's: Node's fetch says only "fetch failed" or
 * "terminated", and why (refused, DNS, TLS, a redirect loop, a socket closed, a body that does not
 * decompress) is the cause's message, or its code when that is empty.
 * @example reason(fetchFailed) // 'fetch failed (connect ECONNREFUSED 127.0.0.1:8080)'
 */
export function reason(error: Error): string {
  const inner = error.cause as { message?: unknown; code?: unknown } | undefined;
  const why = inner && (inner.message || inner.code);
  return `${error.message}${typeof why === 'string' ? ` (${why})` : ''}`;
}

/**
 * The body's text. A read the runtime fails (the connection dropped half-way: Node's "terminated",
 * Chromium's "network error") is said to be that, with method, URL and status: the response did
 * arrive, and the words "body could not be read" let the retry policy try the read again.
 */
async function readText(response: Response, request: RequestSummary): Promise<string> {
  // A body an override has read already fails for that reason, which is no lost connection.
  const used = response.bodyUsed;
  try {
    return await response.text();
  } catch (error) {
    if (used || !(error instanceof TypeError)) throw error;
    throw new TypeError(
      `${request.method} ${shortUrl(request.url)} answered ${response.status}, then its body could not be read: ${reason(error)}`,
      { cause: error },
    );
  }
}

/**
 * Reads a response: 2xx JSON is parsed; 204, 205, HEAD or an empty body gives null; `text/plain`
 * gives the text (a delete may answer with the bare pk); any other type where JSON is expected
 * rejects with ResponseFormatError; a status outside 2xx rejects with NetworkError.
 * @example const value = await parseResponse(await fetch(url), { method: 'GET', url });
 */
export async function parseResponse(response: Response, request: RequestSummary): Promise<unknown> {
  const contentType = response.headers.get('content-type') ?? '';
  if (!response.ok) {
    let text = '';
    try {
      text = await response.text();
    } catch {
      // The status is the news; an unreadable error body must not hide it.
    }
    throw new NetworkError({ ...request, response, body: parseLoosely(text) });
  }
  if (response.status === 204 || response.status === 205 || request.method === 'HEAD') {
    return null;
  }
  const text = await readText(response, request);
  if (text.trim() === '') return null;
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  // `/json` covers application/json.
  if (type === '' || type.endsWith('+json') || type.endsWith('/json')) {
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new ResponseFormatError({
        ...request,
        response,
        contentType,
        reason: `the body is not valid JSON (${(error as Error).message}); it starts with ${JSON.stringify(text.slice(0, 60))}`,
      });
    }
  }
  if (type === 'text/plain') return text;
  throw new ResponseFormatError({
    ...request,
    response,
    contentType,
    reason: `expected JSON${(typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production' ? '; is the URL right, or does the server send the wrong Content-Type?' : '.'} The body starts with ${JSON.stringify(text.slice(0, 60))}`,
  });
}
