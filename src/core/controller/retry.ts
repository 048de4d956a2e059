/**
 * Trying a failed read again: which failures may pass (network errors, 5xx, 408, 429), how long
 * to wait (exponential backoff with jitter, or the server's `Retry-After`), and waiting for the
 * network while offline. The whole sequence is one request to the store and to readers: they see
 * one pending read, and only the last failure is stored.
 */
import { clampDelay } from '../env/timers.js';
import type { Timers } from '../env/timers.js';
import { isAbortError, isRetryable } from '../protocol/error-policy.js';
import { backoff } from './expiry.js';
import type { EndpointLike, RetryOption, RunContext } from '../protocol/types.js';

/** Retries of a read when its endpoint says nothing: three attempts in all. */
export const DEFAULT_RETRY = 2;
/** The first backoff; each retry doubles it (before jitter), up to `MAX_RETRY_DELAY`. */
const BASE_DELAY = 1_000;
/** The longest wait between attempts; a `Retry-After` beyond it ends the retries at once. */
const MAX_RETRY_DELAY = 30_000;

/** What a retry sequence needs from the Controller. */
export interface RetryEnv {
  readonly timers: Timers;
  readonly now: () => number;
  /** Whether the Controller was last told the network is there (`online()` / `offline()`). */
  readonly isOnline: () => boolean;
  /** Calls `callback` once the network is back; returns the function that stops waiting. */
  readonly whenOnline: (callback: () => void) => () => void;
  /** The retry of reads whose endpoint sets none (the Controller's `retry` option). */
  readonly readRetry: RetryOption;
  /** Aborted by `dispose()`: no retry starts, and every wait between attempts ends. */
  readonly stopped: AbortSignal;
}

/**
 * The server's `Retry-After` in ms (delta-seconds or an HTTP date, read on the Controller's
 * clock), or undefined when the error's response has none or one that is neither.
 * @example retryAfter(error503WithRetryAfter2, Date.now) // 2000
 */
export function retryAfter(error: unknown, now: () => number): number | undefined {
  const headers = (error as { response?: { headers?: Headers } } | null)?.response?.headers;
  const value = typeof headers?.get === 'function' ? headers.get('retry-after') : null;
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
 * Runs `endpoint(...args)` until it succeeds or `retryDelay` gives up; rejects with the last
 * failure. The wait between attempts is on the Controller's timers and, while offline, lasts until
 * the network is back. An abort of `context.signal` ends the wait at once (its timer cleared) with
 * an AbortError; `env.stopped` (the Controller disposed) ends it with the last failure. `outdated`
 * says the outcome would be dropped anyway (a newer answer, a reset): no more tries. A request
 * that waits is one the server has not applied: `context.sending(Infinity)` keeps its optimistic
 * update above the reads made meanwhile, and `context.sending()` dates it anew as it ends.
 * @example await withRetries(endpoint, args, context, env, () => false);
 */
export async function withRetries(
  endpoint: EndpointLike,
  args: readonly unknown[],
  context: RunContext,
  env: RetryEnv,
  outdated: () => boolean,
): Promise<unknown> {
  for (let failures = 1; ; failures++) {
    try {
      return await endpoint.run(args as never, context);
    } catch (error) {
      const delay =
        context.signal!.aborted || env.stopped.aborted || outdated()
          ? undefined
          : retryDelay(endpoint, failures, error, env.now, env.readRetry);
      if (delay === undefined) throw error;
      await wait(delay, context, env, error);
      // A newer answer (or a reset) came while this one waited: its next try would be dropped.
      if (outdated()) throw error;
    }
  }
}

/**
 * Waits `ms`, then for the network if it is away. An abort rejects at once with an AbortError, a
 * dispose with `failure` (the read ends as if its retries had run out). The request is dated
 * above every read while it waits, and anew as the wait ends.
 */
function wait(ms: number, context: RunContext, env: RetryEnv, failure: unknown): Promise<void> {
  const signal = context.signal!;
  context.sending!(Infinity);
  return new Promise((resolve, reject) => {
    let stopWaiting: (() => void) | undefined;
    const signals = [signal, env.stopped];
    const end = (stopped?: boolean) => {
      context.sending!();
      env.timers.clearTimeout(handle);
      stopWaiting?.();
      for (const each of signals) each.removeEventListener('abort', onAbort);
      if (!stopped) resolve();
      else if (!signal.aborted) reject(failure);
      else {
        reject(
          isAbortError(signal.reason)
            ? signal.reason
            : Object.assign(new Error('Aborted before a retry'), { name: 'AbortError' }),
        );
      }
    };
    const onAbort = () => end(true);
    const handle = env.timers.setTimeout(() => {
      if (env.isOnline()) end();
      else stopWaiting = env.whenOnline(end);
      // Clamped: a delay past 2^31-1 ms would fire at once.
    }, clampDelay(ms));
    // Removed by end(), which runs once.
    for (const each of signals) each.addEventListener('abort', onAbort);
  });
}
