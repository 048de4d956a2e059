/**
 * Whether and when to try a failed request again: which failures may pass (network errors, 5xx,
 * 408, 429) and how long to wait (exponential backoff with jitter, or the server's
 * `Retry-After`), and the attempts of one request with the waits between them (`attempts`), one
 * request to readers.
 */
import { isAbortError, isRetryable } from '../protocol/error-policy.js';
import { backoff } from './expiry.js';
import type { EndpointLike, RetryOption, RunContext } from '../protocol/types.js';
import type { Controller } from './controller.js';
import type { Request } from './request.js';

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

/**
 * Runs `request` until it succeeds or `retryDelay` gives up, rejecting with the last failure:
 * readers see one pending read, and only the last failure is stored. Between attempts it waits
 * on the Controller's timers and, while offline, until `online()`; the wait is dated above every
 * read (`sending(Infinity)`: the server has not applied it) and anew as it ends (`request.wake`
 * ends it early). `over()` says there is to be no more try (nobody needs it, the Controller is
 * disposed, a newer outcome or a reset is stored, so the next answer would be dropped): it is
 * asked before a wait and after it. An abort ends it with an AbortError; a reset or `dispose()`
 * with the last failure.
 */
export async function attempts(
  request: Request,
  context: RunContext,
  controller: Controller,
  over: () => boolean,
  retry: RetryOption,
): Promise<unknown> {
  const { endpoint, args } = request;
  const { signal } = request.abort;
  const { timers } = controller;
  for (let failures = 1; ; failures++) {
    try {
      return await endpoint.run(args as never, context);
    } catch (error) {
      const delay = over()
        ? undefined
        : retryDelay(endpoint, failures, error, () => controller.now(), retry);
      if (delay === undefined) throw error;
      context.sending!(Infinity);
      await new Promise<void>((resolve) => {
        let stopWaiting: (() => void) | undefined;
        const end = (request.wake = () => {
          request.wake = undefined;
          context.sending!();
          timers.clearTimeout(handle);
          stopWaiting?.();
          resolve();
        });
        const handle = timers.setTimeout(() => {
          if (controller.isOnline) end();
          else
            stopWaiting = controller.events.subscribe((event) => event.type === 'online' && end());
        }, delay);
      });
      if (over()) throw signal.aborted ? signal.reason : error;
    }
  }
}
