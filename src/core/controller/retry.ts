/**
 * Whether and when to try a failed request again: which failures may pass (network errors, 5xx,
 * 408, 429) and how long to wait (exponential backoff with jitter, or the server's
 * `Retry-After`). The Controller runs the attempts and the waits, one request to readers.
 */
import { isAbortError, isRetryable } from '../protocol/error-policy.js';
import { backoff } from './expiry.js';
import type { EndpointLike, RetryOption } from '../protocol/types.js';

/** Retries of a read when its endpoint says nothing: three attempts in all. */
export const DEFAULT_RETRY = 2;
/** The first backoff; each retry doubles it (before jitter), up to `MAX_RETRY_DELAY`. */
const BASE_DELAY = 1_000;
/** The longest wait between attempts; a `Retry-After` beyond it ends the retries at once. */
const MAX_RETRY_DELAY = 30_000;

/**
 * The server's `Retry-After` in ms (delta-seconds or an HTTP date, read on the Controller's
 * clock), or undefined when the error's response has none or one that is neither.
 * @example retryAfter(error503WithRetryAfter2, Date.now) // 2000
 */
export function retryAfter(error: unknown, now: () => number): number | undefined {
  const headers = (error as { response?: { headers?: Headers } } | null)?.response?.headers;
  const value = headers?.get?.('retry-after');
  if (!value) return undefined;
  // Seconds (a fraction too, which some servers send); a bare number is never a date, which
  // Date.parse would make of it ("1.5" is 5 January 2001 in V8).
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Number(value) * 1000;
  const date = /[a-z]/i.test(value) ? Date.parse(value) : NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now());
}

/**
 * How long to wait before attempt `failures + 1`, or undefined to give up. A mutation is never
 * tried again unless its endpoint sets `retry` (a POST sent twice may create two records); a
 * read without its own `retry` uses `readRetry` (the Controller's, 2 by default).
 */
export function retryDelay(
  endpoint: EndpointLike,
  failures: number,
  error: unknown,
  now: () => number,
  readRetry: RetryOption = DEFAULT_RETRY,
): number | undefined {
  if (isAbortError(error)) return undefined;
  const option: RetryOption = endpoint.retry ?? (endpoint.sideEffect ? 0 : readRetry);
  let verdict: boolean | number;
  if (typeof option === 'function') verdict = option(failures, error);
  else verdict = failures <= option && isRetryable(error);
  if (verdict === false) return undefined;
  if (typeof verdict === 'number') return verdict;
  const asked = retryAfter(error, now);
  if (asked !== undefined) return asked <= MAX_RETRY_DELAY ? asked : undefined;
  // Equal jitter: half the backoff is fixed, half random, so clients that failed together do not
  // come back together.
  const wait = backoff(BASE_DELAY, failures, MAX_RETRY_DELAY);
  return wait / 2 + (Math.random() * wait) / 2;
}
