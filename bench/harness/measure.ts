/**
 * Timing primitives: a time-boxed loop that reports ops/sec, and the median that tames a noisy
 * shared machine.
 */

// Results go here so the optimizer can never prove a timed call useless and drop it.
let sink: unknown;
/** The last value a timed function returned (exists only to keep the calls alive). */
export const lastResult = () => sink;

const collectGarbage = (globalThis as { gc?: () => void }).gc;

/**
 * Calls `fn` repeatedly for at least `timeBoxMs` (and at least once) and returns calls per second.
 * The heap is collected first when node runs with --expose-gc, so one library's garbage is not
 * billed to the next.
 */
export function opsPerSecond(fn: () => unknown, timeBoxMs: number): number {
  collectGarbage?.();
  let ops = 0;
  const start = performance.now();
  let elapsed: number;
  do {
    sink = fn();
    ops += 1;
    elapsed = performance.now() - start;
  } while (elapsed < timeBoxMs);
  return (ops * 1000) / Math.max(elapsed, 1e-3);
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** (max - min) / median: how much the runs disagreed, as a fraction. */
export function spread(values: readonly number[]): number {
  if (values.length < 2) return 0;
  return (Math.max(...values) - Math.min(...values)) / median(values);
}
