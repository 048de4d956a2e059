/**
 * What an error says about asking again. HTTP's rule lives here, not in the generic Controller:
 * a client error (4xx but 408 and 429) is the server's answer to this very request, anything else
 * (network, 5xx, 408, 429) may pass.
 */

/**
 * True for an error whose request would get the same answer again.
 * @example isClientError(new NetworkError(...404...)) // true
 */
export function isClientError(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return (
    typeof status === 'number' && status >= 400 && status < 500 && status !== 408 && status !== 429
  );
}

/** An error from the Controller aborting a request nobody needs any more. */
export function isAbortError(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === 'AbortError';
}
