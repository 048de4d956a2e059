/**
 * What an error says about asking again. HTTP's rule lives here, not in the generic Controller:
 * a client error (4xx but 408 and 429) is the server's answer to this very request, anything else
 * (network, 5xx, 408, 429) may pass.
 */

/** The HTTP status an error carries, if any. */
const statusOf = (error: unknown): unknown => (error as { status?: unknown } | null)?.status;

/**
 * True for an error whose request would get the same answer again.
 * @example isClientError(new NetworkError(...404...)) // true
 */
export function isClientError(error: unknown): boolean {
  const status = statusOf(error);
  return typeof status == 'number' && status >= 400 && !isRetryable(error);
}

/** An error from the Controller aborting a request nobody needs any more. */
export function isAbortError(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === 'AbortError';
}

/**
 * True for a failure a second attempt may not repeat: no response at all (a dropped connection,
 * seen through its TypeError or that error's cause), a 5xx, 408 (request timeout) or 429 (too
 * many requests). Aborts, timeouts, other client errors and bugs are final.
 * @example isRetryable(new TypeError('Failed to fetch')) // true
 */
export function isRetryable(error: unknown): boolean {
  const status = statusOf(error);
  return typeof status == 'number'
    ? status >= 500 || status == 408 || status == 429
    : // A redirect loop (Node's fetch names it, and the REST layer's message repeats it) reached
      // the server every time, and would loop again.
      !/redirect count exceeded/i.test(String((error as Error | null)?.message)) &&
        (isConnectionFailure(error) || isConnectionFailure((error as Error | null)?.cause));
}

/**
 * What runtimes reject fetch with when no response arrived (Chromium, Node, Firefox, Safari, React
 * Native), and what the REST layer says of a body cut short ("body could not be read"). A TypeError
 * with any other message is a bug or bad input, which a second try repeats.
 */
const isConnectionFailure = (error: unknown): boolean =>
  error instanceof TypeError &&
  /failed to fetch|fetch failed|networkerror when attempting|load failed|network request failed|body could not be read/i.test(
    error.message,
  );
