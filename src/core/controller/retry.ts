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
import type { EndpointLike, RetryOption } from '../protocol/types.js';

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
 * Throws a TypeError naming `owner` unless `option` is a count of retries or a function.
 * @example checkRetry(endpoint.retry, endpoint.name)
 */
export function checkRetry(option: unknown, owner: string): void {
  if (option === undefined || typeof option === 'function') return;
  if (typeof option === 'number' && option >= 0) return;
  throw new TypeError(
    `${owner}: retry must be a count or a function${typeof process !== 'undefined' && process.env.NODE_ENV !== 'production' ? ' (failures, error) => boolean | delayMs' : ''}: got ${String(option)}.`,
  );
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
  checkRetry(endpoint.retry, endpoint.name);
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
 * Runs `attempt` until it succeeds or `retryDelay` gives up; rejects with the last failure. The
 * wait between attempts is on the Controller's timers and, while offline, lasts until the network
 * is back. An abort of `signal` ends the wait at once (its timer cleared) with an AbortError;
 * `env.stopped` (the Controller disposed) ends it with the last failure. `outdated` says the outcome would be dropped anyway (a newer answer, a reset): no more tries.
 * @example await withRetries(endpoint, () => endpoint.run(args, context), signal, env, () => false);
 */
export async function withRetries(
  endpoint: EndpointLike,
  attempt: () => Promise<unknown>,
  signal: AbortSignal,
  env: RetryEnv,
  outdated: () => boolean,
): Promise<unknown> {
  for (let failures = 1; ; failures++) {
    try {
      return await attempt();
    } catch (error) {
      const delay =
        signal.aborted || env.stopped.aborted || outdated()
          ? undefined
          : retryDelay(endpoint, failures, error, env.now, env.readRetry);
      if (delay === undefined) throw error;
      await wait(delay, signal, env, error);
      // A newer answer (or a reset) came while this one waited: its next try would be dropped.
      if (outdated()) throw error;
    }
  }
}

/**
 * Waits `ms`, then for the network if it is away. An abort rejects at once with an AbortError, a
 * dispose with `failure` (the read ends as if its retries had run out).
 */
function wait(ms: number, signal: AbortSignal, env: RetryEnv, failure: unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    let stopWaiting: (() => void) | undefined;
    const signals = [signal, env.stopped];
    const end = (stopped?: boolean) => {
      env.timers.clearTimeout(handle);
      stopWaiting?.();
      for (const each of signals) each.removeEventListener('abort', onAbort);
      if (!stopped) resolve();
      else if (!signal.aborted) reject(failure);
      else reject(isAbortError(signal.reason) ? signal.reason : abortError());
    };
    const onAbort = () => end(true);
    const handle = env.timers.setTimeout(() => {
      if (env.isOnline()) end();
      else stopWaiting = env.whenOnline(end);
      // Clamped: a delay past 2^31-1 ms would fire at once.
    }, clampDelay(ms));
    for (const each of signals) each.addEventListener('abort', onAbort, { once: true });
  });
}

function abortError(): Error {
  const error = new Error(
    `The read was aborted${typeof process !== 'undefined' && process.env.NODE_ENV !== 'production' ? ' while it waited to be tried again' : ''}`,
  );
  error.name = 'AbortError';
  return error;
}
