/**
 * The environment the Controller runs in, behind seams so tests can fake time and the network.
 */

/** Timer functions, shaped like the globals of the same names. */
export interface Timers {
  /** Calls `callback` once after `ms`; returns a handle for `clearTimeout`. */
  setTimeout(callback: () => void, ms: number): unknown;
  /** Cancels a `setTimeout` by its handle. */
  clearTimeout(handle: unknown): void;
  /**
   * Accepted so the host's timers (or a fake clock's) fit as they are; the library polls with
   * chained timeouts, which every clock drives the same way.
   */
  setInterval?(callback: () => void, ms: number): unknown;
  /** Accepted with `setInterval`. */
  clearInterval?(handle: unknown): void;
}

/**
 * The longest delay hosts honour: browsers and Node store it in 32 bits and fire a longer one at
 * once (`setTimeout(f, 2 ** 31)` runs after about 1 ms).
 */
export const MAX_DELAY = 2 ** 31 - 1;

/**
 * A delay every host honours: negative or NaN becomes 0, and anything past `MAX_DELAY` waits
 * `MAX_DELAY` (a caller that needs longer checks the time when it fires and waits again).
 * @example clampDelay(30 * 24 * 3600_000) // 2147483647
 */
export function clampDelay(ms: number): number {
  return ms > 0 ? Math.min(ms, MAX_DELAY) : 0;
}

/** Does nothing: what a promise nobody awaits is caught with. */
export const ignore = (): void => {};

/**
 * The host's own timers: the global object itself, since browsers refuse `setTimeout` called on
 * any other `this`, and a clock a test installs on the globals later is still the one used.
 * @example new Controller({ timers: defaultTimers() });
 */
export const defaultTimers = (): Timers => globalThis as unknown as Timers;

/** Timers that clamp every delay and know how many of their timers are still pending. */
export interface CountedTimers extends Timers {
  /** Timeouts not yet run or cleared. */
  readonly pending: number;
}

/**
 * Wraps `timers` so every delay is clamped (`clampDelay`) and live timers are counted, which is
 * how `Controller.stats()` proves that nothing outlives its users.
 * @example const timers = countTimers(defaultTimers()); timers.pending // 0
 */
export function countTimers(timers: Timers): CountedTimers {
  const live = new Set<unknown>();
  return {
    get pending() {
      return live.size;
    },
    setTimeout(callback, ms) {
      const handle = timers.setTimeout(() => {
        live.delete(handle);
        callback();
      }, clampDelay(ms));
      live.add(handle);
      return handle;
    },
    clearTimeout(handle) {
      live.delete(handle);
      timers.clearTimeout(handle);
    },
  };
}

/**
 * Calls `callback` every `ms` until the returned function is called. Each run schedules the next
 * before the callback runs, so a callback that stops the loop clears that one; a handle is never
 * reused, so stopping twice clears nothing more.
 * @example const stop = repeat(timers, poll, 5000);
 */
export function repeat(timers: Timers, callback: () => void, ms: number): () => void {
  const tick = (): void => {
    handle = timers.setTimeout(tick, ms);
    callback();
  };
  let handle = timers.setTimeout(tick, ms);
  return () => timers.clearTimeout(handle);
}

/** Lets a host timer not keep a Node process alive (a server render must be able to exit). */
export function unref(handle: unknown): void {
  (handle as { unref?: () => void } | null)?.unref?.();
}
