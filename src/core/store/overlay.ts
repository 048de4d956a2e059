/**
 * The visible state while optimistic updates are pending: the committed state with the updates
 * replayed over it. Replaying over the committed records themselves copied every record an update
 * writes to on every write, so with an update pending a write cost grew with what the store holds
 * (about 23 ms at 10,000 stored responses). The overlay keeps the copies the replay made: on each
 * write it brings back into them, from the committed state, only the keys that write changed and
 * the keys the last replay wrote, then replays the updates again over them, in place. A write then
 * costs what it and the updates write, whatever the store holds.
 */
import { jsonEqual } from '../normalize/equal.js';
import { getOwn, hasOwn, setOwn } from '../util/own.js';
import type { WriteLog } from '../util/write-log.js';
import type { StoreState } from './state.js';
import type { Replayed } from './store.js';

/**
 * Applies the pending updates to `base`: records in `owned` may be written in place (the others
 * are copied, and the copies join `owned`), and every key written goes into `log`.
 */
export type Replay = (base: StoreState, owned: WeakSet<object>, log: WriteLog) => Replayed;

type AnyRecord = Record<string, unknown>;
type Tables = Readonly<Record<string, AnyRecord>>;

/** The last replay: over which committed state, what it gave, and what it wrote where. */
interface Last {
  readonly committed: StoreState;
  readonly visible: StoreState;
  readonly touched: WriteLog;
}

export class Overlay {
  #last: Last | undefined;
  #owned = new WeakSet<object>();

  constructor(private readonly replay: Replay) {}

  /** True once the overlay has a replay to build on: writes must then log what they change. */
  get following(): boolean {
    return this.#last !== undefined;
  }

  /** Forgets the copies (no update is pending any more). */
  clear(): void {
    // Called on every write with nothing pending: a new WeakSet each time would be garbage the
    // collector handles at a cost.
    if (this.#last === undefined) return;
    this.#last = undefined;
    this.#owned = new WeakSet();
  }

  /**
   * The visible state for `committed`, given what the write that made it wrote (`written`,
   * needed while `following`).
   */
  update(committed: StoreState, written: WriteLog | undefined): Replayed {
    const base: Record<string, unknown> = { ...committed };
    const last = this.#last;
    const owned = this.#owned;
    // What the last replay showed under the keys it wrote: record, key, value, ...
    const shown: unknown[] = [];
    if (last !== undefined) {
      // The copies of the last replay, brought back to what is committed now.
      const bring = (record: AnyRecord, from: unknown, source: AnyRecord | undefined) => {
        const changed = source && written?.get(source);
        // Not a copy of the overlay's own (shared with a committed state, now or handed out
        // earlier: `from` may read a record the store has since changed in place), gone from the
        // committed state, or replaced in a way the log does not account for: the replay copies
        // it afresh if it writes there.
        if (!owned.has(record) || !source || (source !== from && !changed)) return undefined;
        for (const key of last.touched.get(record) ?? []) {
          if (hasOwn(record, key)) shown.push(record, key, record[key]);
          restore(record, source, key);
        }
        for (const key of changed ?? []) restore(record, source, key);
        return record;
      };
      for (const name of ['endpoints', 'meta', 'errors'] as const) {
        base[name] = bring(last.visible[name], last.committed[name], committed[name]) ?? base[name];
      }
      for (const name of ['entities', 'entitiesMeta'] as const) {
        const tables: AnyRecord = { ...committed[name] };
        const table = (state: StoreState, type: string) =>
          getOwn(state[name] as Tables, type) as AnyRecord;
        for (const type in last.visible[name]) {
          const copy = bring(
            table(last.visible, type),
            table(last.committed, type),
            table(committed, type),
          );
          if (copy) setOwn(tables, type, copy as unknown);
        }
        base[name] = tables;
      }
    }
    const touched: WriteLog = new Map();
    const replayed = this.replay(base as unknown as StoreState, this.#owned, touched);
    // Replayed again, an update makes new objects of the same values: what it writes as it was
    // keeps the object shown, so readers of it do not render again on every other write.
    for (let i = 0; i < shown.length; i += 3) {
      const [record, key, value] = shown.slice(i, i + 3) as [AnyRecord, string, unknown];
      if (touched.get(record)?.has(key) && hasOwn(record, key) && jsonEqual(record[key], value)) {
        setOwn(record, key, value);
      }
    }
    this.#last = { committed, visible: replayed.state, touched };
    return replayed;
  }
}

/** `copy[key]` as the committed `source` has it (or not at all). */
function restore(copy: AnyRecord, source: AnyRecord, key: string): void {
  if (hasOwn(source, key)) setOwn(copy, key, source[key]);
  else delete copy[key];
}
