/**
 * Main-thread CPU time of a stretch of page activity, from a Chromium trace (Node side of the
 * render benchmark): thread time, so a busy machine that delays the page does not add to it.
 */

/** Main-thread CPU time during one scenario, ms (thread time, from a Chromium trace). */
export interface Cpu {
  /**
   * JavaScript: the outermost script events (calls, timers, microtasks, events, module and
   * script evaluation), with the garbage collection that ran inside them.
   */
  script: number;
  /** All main-thread work: script, style, layout, paint (the outermost events of any kind). */
  task: number;
}
export const TRACE_CATEGORIES = ['devtools.timeline', 'v8.execute', 'toplevel'];
const SCRIPT_EVENTS = new Set([
  'FunctionCall',
  'EvaluateScript',
  'v8.evaluateModule',
  'TimerFire',
  'RunMicrotasks',
  'EventDispatch',
  'FireAnimationFrame',
  'FireIdleCallback',
]);

export interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/** Sum of thread time of the outermost events `pick` selects, ms. */
export function outermostThreadMs(
  events: TraceEvent[],
  pick: (event: TraceEvent) => boolean,
): number {
  let us = 0;
  let openUntil = -Infinity;
  for (const event of events) {
    if (!pick(event)) continue;
    if (event.ts < openUntil) continue; // nested in the last one counted
    // Thread time; only a few tiny events come without it.
    us += event.tdur ?? event.dur ?? 0;
    openUntil = event.ts + (event.dur ?? 0);
  }
  return us / 1000;
}

/** Script and task thread time on the renderers' main threads in a trace. */
export function cpuOfTrace(trace: Buffer | string): Cpu {
  const { traceEvents } = JSON.parse(trace.toString()) as { traceEvents: TraceEvent[] };
  const mains = new Set(
    traceEvents
      .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const events = traceEvents
    .filter((e) => e.ph === 'X' && mains.has(`${e.pid}:${e.tid}`))
    // By start, and an event before the ones it contains when they start together.
    .sort((x, y) => x.ts - y.ts || (y.dur ?? 0) - (x.dur ?? 0));
  return {
    script: outermostThreadMs(events, (e) => SCRIPT_EVENTS.has(e.name)),
    // Top-level work is mostly tasks, but not only (a message from the driver runs outside one).
    task: outermostThreadMs(events, () => true),
  };
}
