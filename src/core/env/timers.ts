/**
 * The environment the Controller runs in, behind seams so tests can fake time and the network.
 */

/** Timer functions, shaped like the globals of the same names. */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** Used for polling when given together with `clearInterval`; chained timeouts otherwise. */
  setInterval?(callback: () => void, ms: number): unknown;
  clearInterval?(handle: unknown): void;
}

/**
 * The host's own timers.
 * @example new Controller({ timers: defaultTimers() });
 */
export function defaultTimers(): Timers {
  return {
    setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
    clearTimeout: (handle) => globalThis.clearTimeout(handle as number),
    setInterval: (callback, ms) => globalThis.setInterval(callback, ms),
    clearInterval: (handle) => globalThis.clearInterval(handle as number),
  };
}

/**
 * Calls `callback` every `ms` until the returned function is called.
 * @example const stop = repeat(timers, poll, 5000);
 */
export function repeat(timers: Timers, callback: () => void, ms: number): () => void {
  if (timers.setInterval && timers.clearInterval) {
    const handle = timers.setInterval(callback, ms);
    const clear = timers.clearInterval.bind(timers);
    return () => clear(handle);
  }
  let handle: unknown;
  let stopped = false;
  const tick = (): void => {
    // Scheduled before the callback runs, so a callback that stops the loop clears this one.
    handle = timers.setTimeout(tick, ms);
    callback();
  };
  handle = timers.setTimeout(tick, ms);
  return () => {
    if (stopped) return;
    stopped = true;
    timers.clearTimeout(handle);
  };
}

/** Lets a host timer not keep a Node process alive (a server render must be able to exit). */
export function unref(handle: unknown): void {
  const maybe = handle as { unref?: () => void } | null;
  if (maybe && typeof maybe === 'object' && typeof maybe.unref === 'function') maybe.unref();
}
