/**
 * Copy-on-write for the store's records (`endpoints`, `meta`, `errors`, entity tables) that costs
 * the same whatever the record holds: a record the store owns alone is changed in place; any
 * other is copied once, and the copy is owned from then on. `Store.snapshot()` gives ownership
 * up, so a state handed out stays as it is.
 */
import { hasOwn, setOwn } from '../util/own.js';
import { logWrite } from '../util/write-log.js';
import type { WriteLog } from '../util/write-log.js';

type AnyRecord = Readonly<Record<string, unknown>>;

/**
 * Writes records for one reduction and remembers whether anything changed.
 * @example
 * const writer = new RecordWriter(owned);
 * const meta = writer.set(state.meta, key, { ...m, invalidated: true });
 * if (!writer.changed) return state;
 */
export class RecordWriter {
  /** True once any write changed a record. */
  changed = false;

  readonly #owned: WeakSet<object> | undefined;
  readonly #log: WriteLog | undefined;

  constructor(owned: WeakSet<object> | undefined, log?: WriteLog) {
    this.#owned = owned;
    this.#log = log;
  }

  /** `record` with `key` set to `value` (data keys such as `__proto__` stay data). */
  set<R extends AnyRecord>(record: R, key: string, value: R[string]): R {
    if (hasOwn(record, key) && record[key] === value) return record;
    const target = this.#writable(record);
    setOwn(target as Record<string, unknown>, key, value);
    logWrite(this.#log, target, key);
    this.changed = true;
    return target;
  }

  /** `record` without `key`. */
  delete<R extends AnyRecord>(record: R, key: string): R {
    // Every write deletes its key's error: the usual case (none) makes no array.
    return hasOwn(record, key) ? this.deleteAll(record, [key]) : record;
  }

  /** `record` without any of `keys`: copied once at most, however many it drops (a GC pass). */
  deleteAll<R extends AnyRecord>(record: R, keys: Iterable<string>): R {
    let target: R | undefined;
    for (const key of keys) {
      if (!hasOwn(record, key)) continue;
      target ??= this.#writable(record);
      delete (target as Record<string, unknown>)[key];
      logWrite(this.#log, target, key);
      this.changed = true;
    }
    return target ?? record;
  }

  #writable<R extends AnyRecord>(record: R): R {
    if (this.#owned?.has(record)) return record;
    // Spread defines own properties, so a `__proto__` key stays an ordinary entry.
    const copy = { ...record };
    this.#owned?.add(copy);
    return copy;
  }
}
