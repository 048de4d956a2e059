/**
 * Store writes and garbage collection against the number of stored responses (issue 14).
 *
 * Per-write cost of new reads (a response under a key the store has not seen) with the store
 * already holding 0, 1,000, 4,000 and 10,000 responses, two ways: `setResponse` (the commit alone)
 * and `controller.fetch` through a fake fetch (request, parse, commit, read back). Side by side
 * with @data-client/core's Controller and reducer, driven like its provider drives them (its
 * NetworkManager as middleware in front of the reducer). Then one garbage-collection pass that
 * drops 10,000 unused responses (ours only: @data-client/core 0.10 has no collector).
 *
 * Only public API that resource-elements already had before the core redesign is used (Controller
 * with its fetch/now/timers/gcTime options, setResponse, fetch, getState, createResource, Entity),
 * so this same file measures the old commit too (bench/README.md says how). The collection pass is
 * triggered through the `timers` and `now` options: the Controller arms its collection timer on a
 * fake timer, the clock moves past gcTime, and the timer's callback is what is timed.
 *
 *   npm run bench -- bench/store-writes.bench.ts
 *   node --expose-gc --import tsx bench/store-writes.bench.ts --runs 5 --writes 500
 *   node --conditions=resource-elements-source --import tsx bench/store-writes.bench.ts --quick
 */
import { pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import {
  Controller as DcController,
  NetworkManager,
  applyManager,
  createReducer,
  initialState,
} from '@data-client/core';
import type { State } from '@data-client/core';
import type { StoreState } from 'resource-elements';
import { Entity as DcEntity, createResource as dcCreateResource } from '@data-client/rest';
import { median } from './harness/measure.js';

// Measured as shipped: development-only checks off (both libraries read NODE_ENV), unless the
// command line asks otherwise. Ours reads it when its module loads, hence the late import.
if (!process.env.NODE_ENV) process.env.NODE_ENV = 'production';
const { Controller, Entity, createResource } = await import('resource-elements');
const { TabSyncManager } = await import('resource-elements/managers');

const ORIGIN = 'http://bench.test';

class Item extends Entity {
  id = '';
  name = '';
  price = 0;
  pk() {
    return this.id;
  }
  static override key = 'Item';
}

class DcItem extends DcEntity {
  id = '';
  name = '';
  price = 0;
  pk() {
    return this.id;
  }
  static override key = 'Item';
}

const ItemResource = createResource({ urlPrefix: ORIGIN, path: '/items/:id', schema: Item });
const DcItemResource = dcCreateResource({
  urlPrefix: ORIGIN,
  path: '/items/:id',
  schema: DcItem,
});

const itemJSON = (id: string) => ({ id, name: `item ${id}`, price: id.length });

/**
 * The fake network: every GET /items/:id answers that item at once, as JSON text. Any other
 * method never answers (the optimistic scenario keeps one mutation pending).
 */
const fakeFetch: typeof globalThis.fetch = (input, init) => {
  const method = input instanceof Request ? input.method : (init?.method ?? 'GET');
  if (method !== 'GET') return new Promise<Response>(() => {});
  const url = input instanceof Request ? input.url : String(input);
  const id = decodeURIComponent(url.slice(url.lastIndexOf('/') + 1));
  return Promise.resolve(
    new Response(JSON.stringify(itemJSON(id)), {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
    }),
  );
};

/** What the benchmark does with each library: the same writes, through each one's Controller. */
interface Subject {
  /** Commits one response under `id` (a store-level commit, no network). */
  set(id: string): void;
  /** Fetches `id` through the fake fetch and resolves once it is committed. */
  fetch(id: string): Promise<unknown>;
  /** Responses the store holds. */
  responses(): number;
  /** The store's state as plain data, to start other stores from. */
  state(): unknown;
  /**
   * Lets the store go. Ours holds a GC timer that keeps an undisposed Controller (and all it
   * stores) alive for minutes, so every store of the run would sit in the heap the GC pass and
   * later scenarios run in.
   */
  dispose?(): void;
}

export interface WriteLibrary {
  readonly name: string;
  readonly ours?: boolean;
  /** A fresh store: empty, or holding `state` (from another store's `state()`). */
  create(state?: unknown): Subject;
}

const version = (name: string) =>
  (createRequire(import.meta.url)(`${name}/package.json`) as { version: string }).version;

const ours: WriteLibrary = {
  name: 'resource-elements',
  ours: true,
  create(state) {
    const controller = new Controller({
      fetch: fakeFetch,
      initialState: state as StoreState | undefined,
    });
    return {
      set: (id) => controller.setResponse(ItemResource.get, { id }, itemJSON(id)),
      fetch: (id) => controller.fetch(ItemResource.get, { id }),
      responses: () => Object.keys(controller.getState().endpoints).length,
      state: () => controller.getState(),
      dispose: () => controller.dispose(),
    };
  },
};

/**
 * @data-client/core as its React provider runs it, without React: the reducer holds the state, the
 * NetworkManager sits in front of it as middleware, and its Controller dispatches through both.
 */
const dataClient: WriteLibrary = {
  name: `@data-client/core ${version('@data-client/core')}`,
  create(initial) {
    let state = (initial as State<unknown> | undefined) ?? initialState;
    const controller = new DcController();
    const reducer = createReducer(controller);
    const commit = (action: Parameters<typeof reducer>[1]) => {
      state = reducer(state, action);
      return Promise.resolve();
    };
    const api = {
      getState: () => state,
      dispatch: (action: Parameters<typeof reducer>[1]): Promise<void> => dispatch(action),
    };
    const middlewares = applyManager([new NetworkManager()], controller);
    const dispatch = middlewares.reduceRight<
      (action: Parameters<typeof reducer>[1]) => Promise<void>
    >(
      (next, middleware) =>
        (middleware as unknown as (a: typeof api) => (n: typeof next) => typeof next)(api)(next),
      commit,
    );
    return {
      set: (id) => void controller.setResponse(DcItemResource.get, { id }, itemJSON(id)),
      fetch: (id) => controller.fetch(DcItemResource.get, { id }),
      responses: () => Object.keys(state.results).length,
      state: () => state,
    };
  },
};

export const libraries: readonly WriteLibrary[] = [ours, dataClient];

export interface RunOptions {
  /** Default: ours and @data-client/core. */
  libraries?: readonly WriteLibrary[];
  /** Stored responses before the writes. */
  sizes?: readonly number[];
  /** New keys written per (library, size, way, run). */
  writes?: number;
  /** Writes per timed batch; a cell is the median batch. */
  batch?: number;
  /** Fresh stores per cell; libraries interleaved. */
  runs?: number;
  /** Unused responses the collection pass drops. */
  gcResponses?: number;
  log?: (line: string) => void;
}

type Way = 'setResponse' | 'fetch';
const ways: readonly Way[] = ['setResponse', 'fetch'];

export interface WriteCell {
  /** Median per-write time, ms. */
  perWriteMs: number;
  /** Responses the store held after the writes (checks that every write landed). */
  heldAfter: number;
}

/** Where the optimistic scenario's stored data sits. */
export type OptimisticShape = 'responses' | 'list';

export interface Report {
  libraries: string[];
  sizes: number[];
  /** cells[way][library][size index] */
  cells: Record<Way, WriteCell[][]>;
  /** The 10k/empty ratio per way and library (largest size over 0). */
  growth: Record<Way, number[]>;
  /**
   * setResponse of new keys while one optimistic update is pending (ours only: the peer replays
   * its optimistic updates where it renders, not where it writes). Per-write ms by size, for a
   * store of `size` responses, then for one list response of `size` items.
   */
  optimistic: Record<OptimisticShape, number[]>;
  /**
   * setResponse of new keys with a TabSyncManager attached (ours only), each write followed by
   * the microtask in which the manager sends it: per-write ms by size.
   */
  tabSync: number[];
  gc: {
    responses: number;
    /** Time of the collection callbacks that ran. */
    ms: number;
    /** Collection callbacks that ran (1 expected). */
    passes: number;
    /** The responses were in the store before the pass. */
    landed: boolean;
    /** Responses and Item entities left after the pass. */
    after: number;
    entitiesAfter: number;
  };
}

const collectHeap = (globalThis as { gc?: () => void }).gc;

/**
 * The state of a store holding `size` responses, for each size: one store per library is filled
 * through `setResponse` (in the old core and in the peer a write costs more as the store grows,
 * so each size is reached once and the stores under test start from a copy).
 */
function prefill(library: WriteLibrary, sizes: readonly number[]): unknown[] {
  const subject = library.create();
  let stored = 0;
  const states: unknown[] = [];
  for (const size of [...sizes].sort((a, b) => a - b)) {
    for (; stored < size; stored++) subject.set(`s${stored}`);
    states[sizes.indexOf(size)] = structuredClone(subject.state());
  }
  subject.dispose?.();
  return states;
}

async function timeWrites(
  subject: Subject,
  way: Way,
  writes: number,
  batch: number,
  prefix: string,
): Promise<number> {
  const perWrite: number[] = [];
  for (let done = 0; done < writes;) {
    const n = Math.min(batch, writes - done);
    const ids = Array.from({ length: n }, (_, i) => `${prefix}${done + i}`);
    const start = performance.now();
    if (way === 'setResponse') for (const id of ids) subject.set(id);
    // A batch's fetches run together, as a page's reads do: a library that defers its requests
    // to a timer (the peer's NetworkManager waits for an idle callback, setTimeout 0 in Node)
    // pays that wait once per batch, not once per write.
    else await Promise.all(ids.map((id) => subject.fetch(id)));
    perWrite.push((performance.now() - start) / n);
    done += n;
  }
  return median(perWrite);
}

/**
 * One collection pass over `count` unused responses, through the public timers/now options: the
 * responses are written, the clock passes gcTime, and the armed timer's callback is timed.
 */
export function timeGc(count: number): Report['gc'] {
  let clock = 0;
  const pending = new Map<number, { at: number; callback: () => void }>();
  let nextHandle = 1;
  const timers = {
    setTimeout(callback: () => void, ms: number): unknown {
      const handle = nextHandle++;
      pending.set(handle, { at: clock + ms, callback });
      return handle;
    },
    clearTimeout(handle: unknown): void {
      pending.delete(handle as number);
    },
  };
  const gcTime = 60_000;
  const controller = new Controller({ fetch: fakeFetch, now: () => clock, timers, gcTime });
  for (let i = 0; i < count; i++) {
    controller.setResponse(ItemResource.get, { id: `g${i}` }, itemJSON(`g${i}`));
  }
  // The last response is read back: the writes landed (getState would hand the records out and
  // make the collector copy them first, so it is not called before the pass).
  const last = `g${count - 1}`;
  const landed =
    count === 0 || controller.getResponse(ItemResource.get, { id: last }).data?.id === last;
  clock += gcTime + 1;
  collectHeap?.();
  let ms = 0;
  let passes = 0;
  // Only the collection timer is armed (no subscriptions, no requests): run what is due.
  for (const [handle, timer] of [...pending]) {
    if (timer.at > clock) continue;
    pending.delete(handle);
    const start = performance.now();
    timer.callback();
    ms += performance.now() - start;
    passes += 1;
  }
  const state = controller.getState();
  return {
    responses: count,
    ms,
    passes,
    landed,
    after: Object.keys(state.endpoints).length,
    entitiesAfter: Object.keys(state.entities.Item ?? {}).length,
  };
}

const OptimisticItems = ItemResource.extend({ partialUpdate: { optimistic: true } });

/**
 * Per-write cost of `setResponse` (new keys) while one optimistic update is pending and never
 * settles, the store holding `size` responses (`responses`) or one list of `size` items (`list`).
 * Readers see the committed state with the pending update applied, so every write rebuilds that.
 */
export async function timeOptimistic(
  shape: OptimisticShape,
  size: number,
  writes: number,
  batch: number,
): Promise<number> {
  const controller = new Controller({ fetch: fakeFetch });
  try {
    return await timeOptimisticOn(controller, shape, size, writes, batch);
  } finally {
    // Its GC timer would keep it (and its 10,000 responses) alive for minutes: the GC pass,
    // timed later in this process, would run beside every store this scenario made.
    controller.dispose();
  }
}

async function timeOptimisticOn(
  controller: InstanceType<typeof Controller>,
  shape: OptimisticShape,
  size: number,
  writes: number,
  batch: number,
): Promise<number> {
  if (shape === 'responses') {
    for (let i = 0; i < size; i++) {
      controller.setResponse(ItemResource.get, { id: `s${i}` }, itemJSON(`s${i}`));
    }
  } else {
    const items = Array.from({ length: size }, (_, i) => itemJSON(`s${i}`));
    controller.setResponse(ItemResource.getList, {}, items);
  }
  controller.setResponse(ItemResource.get, { id: 'opt' }, itemJSON('opt'));
  // Never answered: the update stays pending through every timed write.
  void controller
    .fetch(OptimisticItems.partialUpdate, { id: 'opt' }, { price: -1 })
    .catch(() => {});
  const shown = () => controller.getResponse(ItemResource.get, { id: 'opt' }).data?.price;
  if (shown() !== -1) throw new Error('optimistic: the pending update is not shown');
  const subject = {
    set: (id: string) => controller.setResponse(ItemResource.get, { id }, itemJSON(id)),
  } as Subject;
  collectHeap?.();
  const ms = await timeWrites(subject, 'setResponse', writes, batch, 'o');
  // Every write landed and the update still shows over them.
  const last = `o${writes - 1}`;
  if (controller.getResponse(ItemResource.get, { id: last }).data?.id !== last || shown() !== -1) {
    throw new Error('optimistic: a write did not land, or the pending update was lost');
  }
  return ms;
}

/**
 * Per-write cost of `setResponse` (new keys) with tab sync on, the store holding `size`
 * responses: each write is followed by the microtask in which the manager sends it, as when
 * answers arrive one task at a time. The message of the last write must hold just its entity.
 */
export async function timeTabSync(size: number, writes: number): Promise<number> {
  const posted: unknown[] = [];
  class Counting extends BroadcastChannel {
    override postMessage(message: unknown): void {
      posted.push(message);
    }
  }
  const controller = new Controller({
    fetch: fakeFetch,
    managers: [new TabSyncManager({ channel: `bench-${size}`, BroadcastChannel: Counting })],
  });
  try {
    for (let i = 0; i < size; i++) {
      controller.setResponse(ItemResource.get, { id: `s${i}` }, itemJSON(`s${i}`));
    }
    await Promise.resolve();
    collectHeap?.();
    const perWrite: number[] = [];
    for (let i = 0; i < writes; i++) {
      const start = performance.now();
      controller.setResponse(ItemResource.get, { id: `t${i}` }, itemJSON(`t${i}`));
      await Promise.resolve();
      perWrite.push(performance.now() - start);
    }
    const last = posted[posted.length - 1] as { state?: { entities?: Record<string, object> } };
    const sent = Object.keys(last?.state?.entities?.Item ?? {});
    if (sent.join() !== `t${writes - 1}`) {
      throw new Error(`tab sync: the last write sent ${JSON.stringify(sent)}, not its own entity`);
    }
    return median(perWrite);
  } finally {
    controller.dispose();
  }
}

export async function run(options: RunOptions = {}): Promise<Report> {
  const sizes = [...(options.sizes ?? [0, 1_000, 4_000, 10_000])];
  const writes = options.writes ?? 500;
  const batch = options.batch ?? 50;
  const runs = options.runs ?? 3;
  const gcResponses = options.gcResponses ?? 10_000;
  const log = options.log ?? console.log;
  const chosen = options.libraries ?? libraries;
  // @data-client/rest fetches through the global fetch (ours is given fakeFetch as an option).
  const realFetch = globalThis.fetch;
  globalThis.fetch = fakeFetch;
  try {
    return await measureAll({ libraries: chosen, sizes, writes, batch, runs, gcResponses, log });
  } finally {
    globalThis.fetch = realFetch;
  }
}

async function measureAll({
  libraries,
  sizes,
  writes,
  batch,
  runs,
  gcResponses,
  log,
}: Required<RunOptions> & { sizes: number[] }): Promise<Report> {
  // samples[way][library][size] = per-write medians, one per run
  const samples = Object.fromEntries(
    ways.map((way) => [way, libraries.map(() => sizes.map(() => [] as number[]))]),
  ) as Record<Way, number[][][]>;
  const held = Object.fromEntries(
    ways.map((way) => [way, libraries.map(() => sizes.map(() => 0))]),
  ) as Record<Way, number[][]>;

  // Warm-up: every library and way once, on a small store, thrown away.
  for (const library of libraries) {
    for (const way of ways) {
      const subject = library.create();
      for (let i = 0; i < 200; i++) subject.set(`warm-fill${i}`);
      await timeWrites(subject, way, Math.min(writes, 200), batch, 'warm');
      subject.dispose?.();
    }
  }
  const states = libraries.map((library) => prefill(library, sizes));

  for (let r = 0; r < runs; r++) {
    for (const [s, size] of sizes.entries()) {
      for (const way of ways) {
        // Interleaved, and the order rotates so no library always goes first.
        for (let k = 0; k < libraries.length; k++) {
          const l = (k + r) % libraries.length;
          const subject = libraries[l]!.create(size ? states[l]![s] : undefined);
          // Untimed: a store started from a copied state may copy a record on its first write
          // (ours does: the copy is shared until then). That is once per store, not per write.
          subject.set(`first-${r}`);
          collectHeap?.();
          samples[way][l]![s]!.push(await timeWrites(subject, way, writes, batch, `w${r}-`));
          // Every write must have landed under its own key, or the time means nothing.
          const heldAfter = subject.responses();
          if (heldAfter !== size + 1 + writes) {
            throw new Error(
              `${libraries[l]!.name}: ${way} left ${heldAfter} responses, not ${size + 1 + writes}`,
            );
          }
          held[way][l]![s] = heldAfter;
          subject.dispose?.();
        }
      }
    }
  }

  // The filled states (the peer's take hundreds of MB) are not needed from here on: dropped, so
  // that the engine's own garbage collection of them is not billed to the passes timed below.
  states.splice(0);
  collectHeap?.();

  const optimistic = {} as Report['optimistic'];
  if (libraries.some((l) => l.ours)) {
    for (const shape of ['responses', 'list'] as const) {
      optimistic[shape] = [];
      for (const size of sizes) {
        const perRun: number[] = [];
        for (let r = 0; r < runs; r++)
          perRun.push(await timeOptimistic(shape, size, writes, batch));
        optimistic[shape].push(median(perRun));
      }
    }
  }

  const tabSync: number[] = [];
  if (libraries.some((l) => l.ours)) {
    for (const size of sizes) {
      const perRun: number[] = [];
      for (let r = 0; r < runs; r++) perRun.push(await timeTabSync(size, writes));
      tabSync.push(median(perRun));
    }
  }

  // Warm-up, thrown away, as for the writes: the first pass in a process runs cold code.
  timeGc(Math.min(gcResponses, 1_000));
  const gcRuns = Array.from({ length: runs }, () => timeGc(gcResponses));
  const gc = { ...gcRuns[0]!, ms: median(gcRuns.map((g) => g.ms)) };

  const cells = Object.fromEntries(
    ways.map((way) => [
      way,
      libraries.map((_, l) =>
        sizes.map((_, s) => ({
          perWriteMs: median(samples[way][l]![s]!),
          heldAfter: held[way][l]![s]!,
        })),
      ),
    ]),
  ) as Record<Way, WriteCell[][]>;
  const growth = Object.fromEntries(
    ways.map((way) => [
      way,
      libraries.map((_, l) => {
        const row = cells[way][l]!;
        return row[row.length - 1]!.perWriteMs / row[0]!.perWriteMs;
      }),
    ]),
  ) as Record<Way, number[]>;
  const report: Report = {
    libraries: libraries.map((l) => l.name),
    sizes,
    cells,
    growth,
    optimistic,
    tabSync,
    gc,
  };
  print(libraries, report, { writes, batch, runs }, log);
  return report;
}

function print(
  libraries: readonly WriteLibrary[],
  report: Report,
  { writes, batch, runs }: { writes: number; batch: number; runs: number },
  log: (line: string) => void,
) {
  const us = (ms: number) => `${(ms * 1000).toFixed(2)} µs`;
  const label = (size: number) => size.toLocaleString('en');
  log(`NODE_ENV=${process.env.NODE_ENV}, Node ${process.version}.`);
  log(
    `Store writes: per-write cost of ${writes} new keys (median batch of ${batch}, median of ${runs} fresh stores), ` +
      `by responses already stored.`,
  );
  for (const way of ways) {
    log(
      `\n${way === 'setResponse' ? 'setResponse (commit only)' : 'controller.fetch through a fake fetch (request, parse, commit, read)'}`,
    );
    const header = ['stored', ...report.libraries];
    const rows = report.sizes.map((size, s) => [
      label(size),
      ...report.cells[way].map((row) => us(row[s]!.perWriteMs)),
    ]);
    rows.push([
      `${label(report.sizes[report.sizes.length - 1]!)}/${label(report.sizes[0]!)}`,
      ...report.growth[way].map((ratio) => `${ratio.toFixed(2)}x`),
    ]);
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const line = (cells: string[]) =>
      cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
    log(line(header));
    for (const row of rows) log(line(row));
  }
  const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const oursIndex = libraries.findIndex((l) => l.ours);
  const growthOf = (row: readonly number[]) => row[row.length - 1]! / row[0]!;
  if (oursIndex >= 0) {
    log(
      '\nsetResponse with one optimistic update pending (ours; per write, by what the store holds)',
    );
    for (const shape of ['responses', 'list'] as const) {
      const row = report.optimistic[shape];
      const cells = report.sizes.map((size, s) => `${label(size)}: ${us(row[s]!)}`);
      log(
        `  ${shape === 'responses' ? 'stored responses' : 'one list of N  '}  ${cells.join('  ')}  (${growthOf(row).toFixed(2)}x)`,
      );
    }
    const cells = report.sizes.map((size, s) => `${label(size)}: ${us(report.tabSync[s]!)}`);
    log('\nsetResponse with tab sync on, each write sent before the next (ours; per write)');
    log(`  stored responses  ${cells.join('  ')}  (${growthOf(report.tabSync).toFixed(2)}x)`);
  }
  const { gc } = report;
  const peers = report.libraries.filter((_, l) => l !== oursIndex);
  log(
    `\nGC: one pass over ${gc.responses.toLocaleString('en')} unused responses: ${gc.ms.toFixed(1)} ms ` +
      `(passes: ${gc.passes}; left: ${gc.after} responses, ${gc.entitiesAfter} entities)` +
      (peers.length ? `; ${peers.join(', ')}: n/a (no collector).` : '.'),
  );
  if (oursIndex < 0) return;
  log('\nTargets (issue 14):');
  for (const way of ways) {
    const ratio = report.growth[way][oursIndex]!;
    log(
      `  ${way}: per-write at ${label(report.sizes[report.sizes.length - 1]!)} stored <= 1.5x empty: ` +
        `${ratio.toFixed(2)}x, ${verdict(ratio <= 1.5)}`,
    );
  }
  const tabRatio = growthOf(report.tabSync);
  log(
    `  setResponse, tab sync on: per-write at ${label(report.sizes[report.sizes.length - 1]!)} <= 1.5x empty: ` +
      `${tabRatio.toFixed(2)}x, ${verdict(tabRatio <= 1.5)}`,
  );
  for (const shape of ['responses', 'list'] as const) {
    const ratio = growthOf(report.optimistic[shape]);
    log(
      `  setResponse, an optimistic update pending (${shape === 'responses' ? 'stored responses' : 'one list'}): ` +
        `per-write at ${label(report.sizes[report.sizes.length - 1]!)} <= 1.5x empty: ${ratio.toFixed(2)}x, ${verdict(ratio <= 1.5)}`,
    );
  }
  log(
    `  GC of ${gc.responses.toLocaleString('en')} unused responses < 50 ms: ${gc.ms.toFixed(1)} ms, ` +
      `${verdict(gc.ms < 50 && gc.landed && gc.after === 0 && gc.entitiesAfter === 0)}`,
  );
}

// ---- Command line ----

function parseArgs(argv: readonly string[]): RunOptions {
  const options: RunOptions = {};
  const number = (flag: string) => {
    const value = Number(argv[argv.indexOf(flag) + 1]);
    if (!Number.isFinite(value) || value < 0) throw new Error(`${flag} needs a number`);
    return value;
  };
  if (argv.includes('--quick')) {
    Object.assign(options, {
      sizes: [0, 1_000],
      writes: 40,
      batch: 20,
      runs: 1,
      gcResponses: 1_000,
    });
  }
  // The peer's column does not change between our commits: skip it (it takes minutes to fill).
  if (argv.includes('--ours-only')) options.libraries = libraries.filter((l) => l.ours);
  if (argv.includes('--runs')) options.runs = Math.max(1, number('--runs'));
  if (argv.includes('--writes')) options.writes = Math.max(1, number('--writes'));
  if (argv.includes('--batch')) options.batch = Math.max(1, number('--batch'));
  if (argv.includes('--gc')) options.gcResponses = number('--gc');
  if (argv.includes('--sizes')) {
    options.sizes = argv[argv.indexOf('--sizes') + 1]!.split(',').map(Number);
  }
  return options;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await run(parseArgs(process.argv.slice(2)));
}
