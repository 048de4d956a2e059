/**
 * The benchmark page: mounts one library's app against the fake server and times each scenario
 * from the action to a settled DOM (the change is visible, no request is in flight, no element
 * has an update pending, and that still holds after the timers already queued have run). The
 * driver (bench/render.bench.ts) calls `window.renderBench` through playwright.
 *
 * For CPU time the driver reads Chromium's own counters around a scenario, so the page must not
 * burn CPU itself while it waits: in quiet mode it checks for a settled DOM on a sparse timer
 * instead of at every task, then idles a fixed time for late work (that time is not a result).
 */
import type { BenchApp } from './app.js';
import { rowElementId } from './app.js';
import { installFakeServer, seed, server } from './fake-server.js';
import { since, snapshot } from './instrument.js';
import { limitApp } from './limit-app.js';
import { litQueryApp } from './lit-query-app.js';
import { resourceElementsApp } from './resource-elements-app.js';
import { signalsApp } from './signals-app.js';

export type LibraryName =
  | 'resource-elements'
  | 'resource-elements signals'
  | 'limit'
  | 'lit-query invalidate'
  | 'lit-query setQueryData';

export interface Measurement {
  ms: number;
  /** Distinct row elements that rendered. */
  rows: number;
  /** Row renders in all (a row may render more than once). */
  rowRenders: number;
  listRenders: number;
  requests: string[];
}

type Updatable = HTMLElement & { isUpdatePending?: boolean; shadowRoot: ShadowRoot | null };

const channel = new MessageChannel();
let wake: (() => void) | undefined;
channel.port1.onmessage = () => wake?.();
/** Yields one task, without the 4 ms clamp nested setTimeout calls get. */
const nextTask = () =>
  new Promise<void>((resolve) => {
    wake = resolve;
    channel.port2.postMessage(0);
  });
const timersQueued = () => new Promise((resolve) => setTimeout(resolve, 0));

let app: BenchApp;
let list: Updatable;

const root = () => list.shadowRoot!;
const row = (id: string) => root().getElementById(rowElementId(id)) as Updatable | null;
const titleOf = (id: string) => row(id)?.shadowRoot?.querySelector('.title')?.textContent;

/** No request in flight and no element update pending. */
function quiet(): boolean {
  if (server.inFlight > 0 || list.isUpdatePending) return false;
  for (const child of root().children) if ((child as Updatable).isUpdatePending) return false;
  return true;
}

/** Checks for a settled DOM every `QUIET_POLL_MS` in quiet mode; then idles `QUIET_TAIL_MS`. */
const QUIET_POLL_MS = 10;
const QUIET_TAIL_MS = 60;
let quietMode = false;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `action`, then waits for `shows()` and a quiet page; returns the time and the renders. */
async function measure(action: () => unknown, shows: () => boolean): Promise<Measurement> {
  if (quietMode) return measureQuietly(action, shows);
  const before = snapshot();
  const logged = server.log.length;
  const start = performance.now();
  const done = Promise.resolve(action());
  let end: number;
  for (;;) {
    // Lit updates run as microtasks, so at a task boundary no element update is pending: the
    // time is taken on the cheap checks, and the full quiet() is asserted just below.
    if (shows() && server.inFlight === 0) {
      end = performance.now();
      // Work a library scheduled for later (a batched notification) would land here.
      await timersQueued();
      await nextTask();
      if (shows() && quiet()) break;
    }
    await nextTask();
  }
  await done;
  // Renders that come after the settled DOM still count (none should).
  await new Promise((resolve) => setTimeout(resolve, 30));
  return { ms: end - start, ...since(before), requests: server.log.slice(logged) };
}

/**
 * `measure` without the busy wait, for CPU counters: the time it returns is only a bound (the
 * settled DOM is seen up to QUIET_POLL_MS late).
 */
async function measureQuietly(action: () => unknown, shows: () => boolean): Promise<Measurement> {
  const before = snapshot();
  const logged = server.log.length;
  const start = performance.now();
  await action();
  while (!(shows() && quiet())) await sleep(QUIET_POLL_MS);
  const end = performance.now();
  await sleep(QUIET_TAIL_MS);
  return { ms: end - start, ...since(before), requests: server.log.slice(logged) };
}

const renderBench = {
  /** Quiet mode: no busy wait while a scenario settles (for CPU counters). */
  setQuiet(on: boolean): void {
    quietMode = on;
  },

  /** Mounts `library` over `count` items; measures the initial load. */
  async load(library: LibraryName, count: number, latencyMs: number): Promise<Measurement> {
    installFakeServer(latencyMs);
    seed(count);
    app =
      library === 'resource-elements'
        ? resourceElementsApp()
        : library === 'resource-elements signals'
          ? signalsApp()
          : library === 'limit'
            ? limitApp()
            : litQueryApp(library === 'lit-query invalidate' ? 'invalidate' : 'setQueryData');
    const last = String(count);
    return measure(
      () => {
        list = app.mount(document.body) as Updatable;
      },
      () =>
        !!list.shadowRoot && root().children.length === count && titleOf(last) === `item ${last}`,
    );
  },

  update(id: string, title: string): Promise<Measurement> {
    return measure(
      () => app.update(id, title),
      () => titleOf(id) === title,
    );
  },

  create(title: string): Promise<Measurement> {
    server.lastCreatedId = undefined;
    return measure(
      () => app.create(title),
      () => server.lastCreatedId !== undefined && titleOf(server.lastCreatedId) === title,
    );
  },

  /** Quiet mode's wait with no action: what the harness itself costs. */
  idle(): Promise<Measurement> {
    return measureQuietly(
      () => undefined,
      () => true,
    );
  },

  remove(id: string): Promise<Measurement> {
    return measure(
      () => app.remove(id),
      () => row(id) === null,
    );
  },
};

declare global {
  interface Window {
    renderBench: typeof renderBench;
  }
}
window.renderBench = renderBench;
