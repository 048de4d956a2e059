/**
 * A request's timeout and abort wiring: the endpoint's `timeout` as a signal, combined with the
 * caller's signals.
 */
import { clampDelay, defaultTimers, type Timers } from '../env/timers.js';
import { TimeoutError } from '../errors.js';
import type { RequestState } from './guards.js';

/**
 * Starts the endpoint's timeout: `request.deadline` aborts with a TimeoutError (naming the method
 * the request has then) after `timeout` ms on `timers` (the Controller's, fake in tests), clamped:
 * a timeout past 2^31-1 ms must not fire at once. Returns what clears it.
 * @example const stop = startTimeout(endpoint.timeout, request, timers); try { … } finally { stop(); }
 */
export function startTimeout(
  timeout: number | undefined,
  request: RequestState,
  timers: Timers = defaultTimers(),
): () => void {
  // No timeout, or one that cannot work (checkOptions refuses it in development).
  if (!(timeout! > 0 && timeout! < Infinity)) return () => {};
  const abort = new AbortController();
  request.deadline = abort.signal;
  const timer = timers.setTimeout(
    () => abort.abort(new TimeoutError({ ...request, timeout: timeout! })),
    clampDelay(timeout!),
  );
  return () => timers.clearTimeout(timer);
}

/** The signal aborted when either is; undefined when there is none. */
export function anySignal(
  a: AbortSignal | null | undefined,
  b: AbortSignal | null | undefined,
): AbortSignal | undefined {
  if (!a) return b ?? undefined;
  if (!b || a === b) return a;
  return AbortSignal.any([a, b]);
}

/**
 * Gives the request init the caller's signals (its own and the run context's, kept on the
 * request: an abort by them is an AbortError) and the timeout's.
 */
export function bindSignals(init: RequestInit, request: RequestState): void {
  request.signal = anySignal(init.signal, request.signal);
  const signal = anySignal(request.signal, request.deadline);
  if (signal) init.signal = signal;
}

/**
 * `task`, or its signal's reason once the signal is aborted, whichever comes first. A failure of
 * `task` after that is let go (no unhandled rejection).
 */
export function unless<T>(task: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return task;
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason);
    if (signal.aborted) stop();
    signal.addEventListener('abort', stop);
    void task.then(resolve, reject).then(() => signal.removeEventListener('abort', stop));
  });
}
