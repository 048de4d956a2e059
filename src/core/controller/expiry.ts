/**
 * How long errors hold readers back before they may fetch again. (When data goes stale is the
 * store's: `dataExpiresAt` in store/state.ts, which the optimistic replay needs too.)
 */
import { isClientError } from '../protocol/error-policy.js';
import type { EndpointLike } from '../protocol/types.js';
import { NEVER } from '../store/state.js';

/** The longest a soft error backs off. */
const MAX_BACKOFF = 60_000;
const DEFAULT_ERROR_EXPIRY = 1_000;

/**
 * The one exponential backoff: `base` ms, doubled with each failure in a row after the first, up
 * to `cap` (a soft error's expiry here, the wait between retries in retry.ts).
 * @example backoff(1_000, 3, 60_000) // 4_000
 */
export function backoff(base: number, failures: number, cap: number): number {
  return Math.min(base * 2 ** (failures - 1), cap);
}

/**
 * How long an error keeps readers from fetching again, given how many failures in a row the
 * read had (this one included). A client error is the server's answer to this very request:
 * asking again would get it again, so it stays until the read is fetched on purpose (refetch,
 * invalidate, revalidation on focus and online). A soft error (network, 5xx, 408, 429) backs
 * off: the base (the endpoint's errorExpiryLength, or 1 s) doubles with each failure in a row,
 * up to a minute, so a page busy with other updates does not hammer a failing server.
 * @example errorExpiry(endpoint, new NetworkError(...503...), 3) // 4_000
 */
export function errorExpiry(endpoint: EndpointLike, error: unknown, failures: number): number {
  const base = endpoint.errorExpiryLength ?? (isClientError(error) ? NEVER : DEFAULT_ERROR_EXPIRY);
  if (base >= MAX_BACKOFF) return Math.min(base, NEVER);
  return backoff(base, failures, MAX_BACKOFF);
}
