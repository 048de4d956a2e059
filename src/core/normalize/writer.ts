/**
 * The one copy-on-write writer: normalize, the reducers and the optimistic replay all write
 * records (`endpoints`, `meta`, an entity table, the table of tables) through it. A record in
 * `owned` (held by the store alone) is changed in place, so a write costs the same whatever the
 * record holds; any other record is copied once, and the copy is owned from then on.
 * `Store.snapshot()` gives ownership up, so a state handed out stays as it is.
 */
import { entry, hasOwn, setOwn } from '../util/own.js';
import type { WriteLog } from '../util/write-log.js';

type AnyRecord = Readonly<Record<string, unknown>>;

/**
 * Writes records for one reduction, remembers whether anything changed, and can take back its
 * writes in place (a response that fails halfway leaves the store as it was).
 * @example
 * const writer = new Writer(owned);
 * const meta = writer.set(state.meta, key, { ...m, invalidated: true });
 * if (!writer.changed) return state;
 */
export class Writer {
  // Public fields are set in the constructor: an initialized one (assignment semantics) would
  // move the private fields' initializers into the constructor too, in longer code.
  /** True once any write changed a record. */
  changed: boolean;
  readonly owned: WeakSet<object>;
  readonly log: WriteLog | undefined;
  /** What each write in place replaced: record, key, whether it held the key, its value. */
  readonly #undo: unknown[] = [];
  /** The copies this writer made: nobody else has seen them, so their writes need no undo. */
  readonly #made = new Set<object>();

  constructor(owned = new WeakSet<object>(), log?: WriteLog) {
    this.changed = false;
    this.owned = owned;
    this.log = log;
  }

  /** `record` with `key` set to `value` (data keys such as `__proto__` stay data). */
  set<R extends AnyRecord>(record: R, key: string, value: R[string]): R {
    // The value first: a key not there reads undefined, and most writes are of new values.
    if (record[key] === value && hasOwn(record, key)) return record;
    const target = this.#writable(record, key);
    setOwn(target as Record<string, unknown>, key, value);
    return target;
  }

  /**
   * Sets `key` of a record this writer copied (one `set` returned in place of the record given):
   * no check, no undo. Normalize writes thousands of entities into the tables it copied.
   */
  put(record: Record<string, unknown>, key: string, value: unknown): void {
    if (record[key] === value) return;
    setOwn(record, key, value);
    this.#logged(record, key);
  }

  /** `record` without `keys` (one, or many: copied once at most, however many it drops). */
  delete<R extends AnyRecord>(record: R, keys: string | Iterable<string>): R {
    for (const key of typeof keys === 'string' ? [keys] : keys) {
      if (!hasOwn(record, key)) continue;
      record = this.#writable(record, key);
      delete (record as Record<string, unknown>)[key];
    }
    return record;
  }

  /** Puts back what every write in place replaced, last first. */
  undo(): void {
    const undo = this.#undo;
    for (let i = undo.length - 4; i >= 0; i -= 4) {
      const record = undo[i] as Record<string, unknown>;
      if (undo[i + 2]) setOwn(record, undo[i + 1] as string, undo[i + 3]);
      else delete record[undo[i + 1] as string];
    }
    undo.length = 0;
  }

  #writable<R extends AnyRecord>(record: R, key: string): R {
    this.changed = true;
    let target = record;
    if (this.#made.has(record)) {
      // written before in this reduction: nothing to take back
    } else if (this.owned.has(record)) {
      this.#undo.push(record, key, hasOwn(record, key), record[key]);
    } else {
      // Spread defines own properties, so a `__proto__` key stays an ordinary entry.
      this.owned.add((target = { ...record }));
      this.#made.add(target);
    }
    this.#logged(target, key);
    return target;
  }

  #logged(record: object, key: string): void {
    if (this.log) entry(this.log, record, Set).add(key);
  }
}
