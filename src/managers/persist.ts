/**
 * Persistence as a manager: keeps the normalized store in IndexedDB (or any `PersistStorage`) and
 * merges it back into the Controller when it starts, so a returning visitor sees their data while
 * the network is still slow. Writes are throttled, follow garbage collection (what the store
 * dropped is dropped from storage at the next write), and stop with one clear console error when
 * storage is unavailable or full; the page works on without a cache.
 */
import { dehydrate, hydrate } from '../hydration/index.js';
import type { Controller, ControllerEvent, Manager, StoreState, Timers } from '../core/index.js';
import { decodeState, encodeState } from './state-codec.js';
import { indexedDbStorage } from './storage.js';
import type { PersistStorage } from './storage.js';

/** What is stored under the manager's name. */
export interface PersistedRecord {
  readonly buster: string;
  /** When it was written (ms). */
  readonly savedAt: number;
  readonly state: Partial<StoreState>;
}

/** Options of `new PersistManager()`. */
export interface PersistOptions {
  /**
   * The cache's version: a stored cache with another buster is discarded, not restored. Change it
   * when entity shapes change. Default `''`.
   */
  buster?: string;
  /**
   * The record's name in storage: one per app (or per user), and one per store on a page: two
   * managers attached at once with one name on one storage would overwrite each other, so the
   * second is refused (a console error; it restores and saves nothing). Default `'default'`.
   */
  name?: string;
  /**
   * Responses stored longer ago than this (ms) are not restored; a cache written longer ago is
   * discarded whole. Default 24 hours.
   */
  maxAge?: number;
  /** At most one write per this many ms. Default 1000. */
  throttle?: number;
  /** How long (ms) `gateFetch` holds requests back while the cache is read. Default 2000. */
  restoreTimeout?: number;
  /** Where to keep it. Default: IndexedDB (`indexedDbStorage(indexedDB)`). */
  storage?: PersistStorage;
  /** The IndexedDB factory the default storage uses. Default: the host's `indexedDB`. */
  indexedDB?: IDBFactory;
  /** Timer functions. Default: the host's. */
  timers?: Timers;
  /** The clock (ms). Default `Date.now`. */
  now?: () => number;
}

const DAY = 24 * 3600_000;

/** The storages of managers that use the page's own IndexedDB (none given). */
const PAGE_IDB = {};
/** The names in use, by storage: what attached managers restore from and save to. */
const inUse = new WeakMap<object, Set<string>>();

/**
 * @example
 * const persist = new PersistManager({ buster: 'app-v1' });
 * const controller = new Controller({ managers: [persist], fetch: persist.gateFetch() });
 * await persist.restored; // optional: the store holds the saved data now
 */
export class PersistManager implements Manager {
  /** Resolves once the saved state was read and merged (or found missing, stale or unreadable). */
  readonly restored: Promise<void>;
  #resolveRestored!: () => void;
  #done = false;
  #started = false;
  #broken = false;
  /** A save failed on what the store holds (structured clone refused it): reported once. */
  #refused = false;
  /** Attached to this many Controllers: the name is held while any. */
  #attached = 0;
  /** Another manager held the name when this one attached: it does nothing. */
  #clash = false;
  readonly #space: object;
  /** Counts resets: a restore that was reading the storage across one merges nothing. */
  #resets = 0;
  readonly #buster: string;
  readonly #name: string;
  readonly #maxAge: number;
  readonly #throttle: number;
  readonly #restoreTimeout: number;
  readonly #storage: PersistStorage;
  readonly #timers: Timers;
  readonly #now: () => number;

  constructor(options: PersistOptions = {}) {
    this.restored = new Promise((resolve) => (this.#resolveRestored = resolve));
    this.#buster = options.buster ?? '';
    this.#name = options.name ?? 'default';
    this.#maxAge = options.maxAge ?? DAY;
    this.#throttle = options.throttle ?? 1000;
    this.#restoreTimeout = options.restoreTimeout ?? 2000;
    this.#storage = rejecting(options.storage ?? indexedDbStorage(options.indexedDB));
    this.#space = options.storage ?? options.indexedDB ?? PAGE_IDB;
    this.#timers = options.timers ?? {
      setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
      clearTimeout: (handle) => globalThis.clearTimeout(handle as number),
    };
    this.#now = options.now ?? Date.now;
  }

  /**
   * A fetch that waits for the restore (at most `restoreTimeout` ms) before it sends anything:
   * give it to the Controller, and the first reads show the saved data instead of racing it.
   * Reads already asked for still go out once the restore is done, to refresh what was saved.
   * @example new Controller({ managers: [persist], fetch: persist.gateFetch() });
   */
  gateFetch(fetch?: typeof globalThis.fetch): typeof globalThis.fetch {
    return async (input, init) => {
      if (!this.#done) {
        let timer: unknown;
        await Promise.race([
          this.restored,
          new Promise<void>((resolve) => {
            timer = this.#timers.setTimeout(resolve, this.#restoreTimeout);
          }),
        ]);
        this.#timers.clearTimeout(timer);
      }
      return (fetch ?? globalThis.fetch)(input, init);
    };
  }

  /**
   * Restores the saved store into `controller`, then saves what it commits; returns the function
   * that stops saving.
   * @example new Controller({ managers: [new PersistManager({ name: 'app', buster: 'v1' })] });
   */
  attach(controller: Controller): () => void {
    if (this.#attached++ === 0) {
      let names = inUse.get(this.#space);
      if (!names) inUse.set(this.#space, (names = new Set()));
      this.#clash = names.has(this.#name);
      names.add(this.#name);
    }
    const release = () => {
      if (--this.#attached === 0 && !this.#clash) inUse.get(this.#space)!.delete(this.#name);
    };
    if (this.#clash) {
      console.error(
        `resource-elements PersistManager "${this.#name}": another store on this page is saved ` +
          'under that name, so this one restores and saves nothing (each would overwrite the ' +
          "other's). Give each its own name: PersistOptions.name, or on <resource-provider> a " +
          'persist-name attribute or an id.',
      );
      this.#done = true;
      this.#resolveRestored();
      return release;
    }
    let timer: unknown;
    let dirty = false;
    let detached = false;

    const write = (): void => {
      timer = undefined;
      if (!dirty || this.#broken) return;
      dirty = false;
      const record: PersistedRecord = {
        buster: this.#buster,
        savedAt: this.#now(),
        state: encodeState(dehydrate(controller)),
      };
      this.#storage.set(this.#name, record).then(
        () => (this.#refused = false),
        (error: unknown) => {
          // The data, not the storage: structured clone refused a value (nested too deep, a
          // function a process() put in an entity). The next change is saved again.
          if (error instanceof RangeError || (error as Error | null)?.name === 'DataCloneError') {
            this.#refuse(error as Error);
          } else this.#fail('save the store', error);
        },
      );
    };
    const schedule = (): void => {
      dirty = true;
      // Nothing is written before the saved state is merged: it would overwrite it.
      if (timer === undefined && this.#done && !detached) {
        timer = this.#timers.setTimeout(write, this.#throttle);
      }
    };

    const stopEvents = controller.events.subscribe((event: ControllerEvent) => {
      if (event.type !== 'action') return;
      // Optimistic entries are not persisted (dehydrate leaves them out): nothing to write.
      if (event.action.type === 'optimistic/add' || event.action.type === 'optimistic/remove')
        return;
      if (event.action.type === 'reset') {
        // A logout: what is saved is the previous user's. It goes now, not a throttle later (the
        // page is often left at once), and a restore still reading it merges none of it.
        this.#resets++;
        if (timer !== undefined) this.#timers.clearTimeout(timer);
        timer = undefined;
        dirty = false;
        this.#storage
          .delete(this.#name)
          .catch((error) => this.#fail('clear the saved store', error));
        return;
      }
      schedule();
    });

    if (!this.#started) {
      this.#started = true;
      this.#restore(controller).finally(() => {
        this.#done = true;
        this.#resolveRestored();
        if (dirty && !detached) schedule();
      });
    }

    return () => {
      detached = true;
      release();
      stopEvents();
      if (timer !== undefined) {
        this.#timers.clearTimeout(timer);
        // Leaving with unsaved changes: save them now rather than lose them.
        write();
      }
    };
  }

  async #restore(controller: Controller): Promise<void> {
    let record: PersistedRecord | undefined;
    const resets = this.#resets;
    try {
      record = (await this.#storage.get(this.#name)) as PersistedRecord | undefined;
    } catch (error) {
      this.#fail('read the saved store', error);
      return;
    }
    // Reset meanwhile (and the saved store cleared): it was the previous user's.
    if (record === undefined || this.#resets !== resets) return;
    const now = this.#now();
    const isRecord = record !== null && typeof record === 'object';
    if (isRecord && (record.buster !== this.#buster || !(now - record.savedAt <= this.#maxAge))) {
      await this.#storage.delete(this.#name).catch((error) => this.#fail('discard', error));
      return;
    }
    const oldest = now - this.#maxAge;
    try {
      if (!isRecord) {
        const kind = record === null ? 'null' : `a ${typeof record}`;
        throw new TypeError(`The saved record is not an object (it is ${kind})`);
      }
      const state = decodeState(record.state);
      const fresh = (key: string) => {
        const meta = Object.hasOwn(state.meta ?? {}, key) ? state.meta![key] : undefined;
        return meta !== undefined && meta.date >= oldest;
      };
      // An entity's meta is that of its latest write, and every response that holds it wrote it,
      // so dropping entities older than maxAge never breaks a response that is kept.
      const entities: Record<string, Record<string, unknown>> = {};
      const entitiesMeta: Record<string, Record<string, unknown>> = {};
      for (const type of Object.keys(state.entitiesMeta ?? {})) {
        const metas = state.entitiesMeta![type]!;
        const keep = (pk: string) => (metas[pk]?.date ?? -Infinity) >= oldest;
        entities[type] = pick(state.entities?.[type], keep);
        entitiesMeta[type] = pick(metas, keep);
      }
      hydrate(controller, {
        ...state,
        entities: entities as StoreState['entities'],
        entitiesMeta: entitiesMeta as StoreState['entitiesMeta'],
        endpoints: pick(state.endpoints, fresh),
        meta: pick(state.meta, fresh),
        errors: {},
      });
    } catch (error) {
      this.#fail('restore the saved store, which does not fit; it was discarded', error, false);
      await this.#storage.delete(this.#name).catch(() => {});
    }
  }

  /**
   * A save the storage refused for what the store holds. What was saved before goes: restored
   * next time, it would show data older than the store held when the page was left. Reported
   * once until a save works again.
   */
  #refuse(error: Error): void {
    if (!this.#refused) {
      console.error(
        `resource-elements PersistManager "${this.#name}" could not save the store: the storage ` +
          `refused what it holds (${error.name}: ${error.message}). The saved copy was removed; ` +
          'the next change is saved again.',
      );
    }
    this.#refused = true;
    this.#storage.delete(this.#name).catch((failure) => this.#fail('discard', failure));
  }

  /** Reports once; `stop` (storage itself failed) also ends writing for this session. */
  #fail(what: string, error: unknown, stop = true): void {
    if (this.#broken) return;
    this.#broken = stop;
    const reason =
      error instanceof Error ? `${error.name}: ${error.message}` : String(error ?? 'unknown');
    console.error(
      `resource-elements PersistManager "${this.#name}" could not ${what} (${reason}). ` +
        (stop
          ? 'The page works on without a saved cache; nothing more is written this session.'
          : 'The page works on and saves afresh.'),
    );
  }
}

/**
 * `storage` whose calls reject where they would throw: a wrapper of a synchronous API (such as
 * localStorage, full) throws from the call itself, out of a timer or out of `dispose()`.
 */
function rejecting(storage: PersistStorage): PersistStorage {
  return {
    get: (name) => new Promise((resolve) => resolve(storage.get(name))),
    set: (name, value) => new Promise((resolve) => resolve(storage.set(name, value))),
    delete: (name) => new Promise((resolve) => resolve(storage.delete(name))),
  };
}

function pick<T>(
  table: Readonly<Record<string, T>> | undefined,
  keep: (key: string) => boolean,
): Record<string, T> {
  const out: Record<string, T> = {};
  for (const key of Object.keys(table ?? {})) {
    if (keep(key)) Object.defineProperty(out, key, { value: table![key], enumerable: true });
  }
  return out;
}
