/**
 * The Controller's record of each store key: who reads the key, its requests in flight, which
 * request's data and error count (their sequence numbers), its failures in a row and when it was
 * last used. One record per key the store holds anything for, or someone reads.
 */
import { ExpiryStatus } from '../protocol/types.js';
import { entry, getOwn } from '../util/own.js';
import { readResponse, sameResponse } from '../store/read-response.js';
import { storedKeys } from '../store/state.js';
import { tellEach } from '../env/subscribable.js';
import type { EndpointLike, Held, ResponseInfo } from '../protocol/types.js';
import { IF_STALE } from './request.js';
import type { MemoCache } from '../normalize/memo-cache.js';
import type { Store } from '../store/store.js';
import type { ControllerEvents } from './events.js';
import type { Requests } from './requests.js';
import type { Action } from '../store/actions.js';
import type { ReadRecord } from './types.js';
import type { StoreState } from '../store/state.js';

/** The record of one store key (what `reads()` shows, and what only the Controller uses). */
export interface KeyRecord extends ReadRecord {
  subscribers: number;
  inFlight: number;
  lastUsed: number;
  shown?: ReadRecord['shown'];
  /** The newest request (or `setResponse`, invalidation) whose data counts; 0: none. */
  dataSeq: number;
  /** The newest request whose error was committed; 0: none. */
  errorSeq: number;
  /** Soft failures in a row, for the error's backoff; a success clears it. */
  failures: number;
  /** The last reads handed out, so an unchanged read is the same object. */
  reads: ResponseInfo[];
}

/** A held read (`Controller.hold`), and what its holder read through it last. */
export interface Holding {
  readonly key: string;
  read(): ResponseInfo;
  fetching(): boolean;
  /** What `read()` and `fetching()` returned last. */
  last?: ResponseInfo | undefined;
  flying?: boolean | undefined;
}

/** How many differing reads of one key keep their identity (readers with different endpoints). */
export const READS_PER_KEY = 4;

/** The read of a key that holds nothing: never fetched, nothing to show, no error. */
export const NOTHING: ResponseInfo = Object.freeze({
  data: undefined,
  expiryStatus: ExpiryStatus.Invalid,
  expiresAt: 0,
  error: undefined,
});

/** Nobody subscribes to it and no request of it is in flight. */
export const idle = (record: KeyRecord): boolean => record.subscribers + record.inFlight === 0;

/** The records by key. */
export class Records extends Map<string, KeyRecord> {
  #lastStamp = -Infinity;
  /** The held reads listened to (`Held.subscribe`), and their listeners. */
  readonly readers: Map<Holding, Set<(read?: ResponseInfo) => void>>;
  readonly store: Store;
  readonly memo: MemoCache;
  readonly now: () => number;
  readonly events: ControllerEvents;
  /** `subscribe()` calls not ended, of every key. */
  subscriptions: number;
  /** The Controller's requests (set by it): what a held read fetches with, and releases. */
  requests!: Requests;

  // Set here, not as parameter properties: those move every field's initializer into the
  // constructor too, in longer code.
  constructor(store: Store, memo: MemoCache, now: () => number, events: ControllerEvents) {
    super();
    this.store = store;
    this.memo = memo;
    this.now = now;
    this.events = events;
    this.subscriptions = 0;
    this.readers = new Map();
  }

  /** What `getResponse` says of `endpoint(...args)`, whose store key is `key`. */
  response(key: string, endpoint: EndpointLike, args: readonly unknown[]): ResponseInfo {
    return this.read(
      key,
      readResponse(this.store.visible, this.memo, key, endpoint, args, this.now()),
    );
  }

  /** `controller.hold`: the read of `key`, held (see `Held`). */
  hold(key: string, endpoint: EndpointLike, args: readonly unknown[]): Held & Holding {
    const held: Held & Holding = {
      key,
      endpoint,
      args,
      // What the holder saw: a change is told to its listeners only when it reads differently.
      read: () => (held.last = this.response(key, endpoint, args)),
      flying: false,
      fetching: () => (held.flying = !!this.get(key)?.inFlight),
      fetchIfStale: () => this.requests.run(endpoint, args, IF_STALE, key),
      subscribe: (listener) => this.subscribe(key, endpoint, args, held, listener),
    };
    return held;
  }

  /**
   * An interest in `key` (`controller.subscribe`) until the function it returns is called; with
   * `held`, `listener` also hears of each change of the held read (see `tell`). The last one to
   * leave lets GC count from then, and a microtask later (an element moved in the DOM leaves and
   * comes back at once) the key's reads nobody awaits are released.
   */
  subscribe(
    key: string,
    endpoint: EndpointLike,
    args: readonly unknown[],
    held?: Holding,
    listener?: (read?: ResponseInfo) => void,
  ): () => void {
    const listeners = held && entry(this.readers, held, Set).add(listener!);
    const record = this.of(key);
    record.shown = { endpoint, args };
    const count = (delta: 1 | -1) => {
      this.subscriptions += delta;
      record.subscribers += delta;
      this.events.emit({
        type: 'subscription',
        phase: delta > 0 ? 'add' : 'remove',
        endpoint,
        args,
        key,
        count: record.subscribers,
      });
    };
    count(1);
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      if (listeners?.delete(listener!) && !listeners.size) this.readers.delete(held!);
      count(-1);
      this.left(record);
      queueMicrotask(() => record.subscribers || this.requests.release(key));
    };
  }

  /**
   * After a committed change (or a request of `key` started or ended): the listeners of each
   * held read (of `key`) that is a new object or whose request started or ended since its holder
   * last asked hear of it, and so do those of one that threw (they read again to show why); the
   * others are not called.
   */
  tell(key?: string): void {
    for (const [held, listeners] of this.readers) {
      if (key !== undefined && key !== held.key) continue;
      const { last, flying } = held;
      let read: ResponseInfo | undefined;
      try {
        read = held.read();
      } catch {
        // told without a read: the holder reads again and shows the failure
      }
      if (!read || read !== last || held.fetching() !== flying) {
        tellEach(listeners, (listener) => listener(read));
      }
    }
  }

  /** The record of `key`, made on first use. */
  of(key: string): KeyRecord {
    return (
      this.get(key) ??
      this.set(key, {
        key,
        subscribers: 0,
        inFlight: 0,
        lastUsed: 0,
        dataSeq: 0,
        errorSeq: 0,
        failures: 0,
        reads: [NOTHING],
      }).get(key)!
    );
  }

  /**
   * A time strictly after every earlier one handed out: two requests started in the same
   * millisecond still order (the normalizer keeps the entity values of the later one).
   */
  stamp(): number {
    const now = this.now();
    return (this.#lastStamp = now > this.#lastStamp ? now : this.#lastStamp + 0.001);
  }

  /** Its last subscriber or request left: GC counts its time from now. */
  left(record: KeyRecord): void {
    if (idle(record)) record.lastUsed = this.now();
  }

  /**
   * The read handed out before for `key` when it shows the same as `info` (readers compare with
   * ===), else `info`, remembered. A key that holds nothing gets no record: its read is one
   * constant (a new record starts with it too, and a reset empties it, so a reader pending
   * across a reset sees a new read).
   */
  read(key: string, info: ResponseInfo): ResponseInfo {
    for (const read of this.get(key)?.reads ?? [NOTHING]) if (sameResponse(read, info)) return read;
    const { reads } = this.of(key);
    if (reads.unshift(info) > READS_PER_KEY) reads.pop();
    return info;
  }

  /** Keeps the records in step with a committed action (an invalidation outdates its keys). */
  follow(action: Action, state: StoreState): void {
    const { type } = action;
    if (type === 'reset' || type === 'gc') {
      // A record goes with its key's last trace (a reset leaves none), unless it is in use.
      for (const [key, record] of this) {
        if (idle(record) && !getOwn(state.meta, key) && !getOwn(state.errors, key)) {
          this.delete(key);
        } else if (type === 'reset') {
          // Every read is void, even one that looks the same (pending before, pending after): a
          // reader waiting for a request whose answer will now be dropped must see a new read.
          record.dataSeq = record.errorSeq = record.failures = 0;
          record.reads = [];
        }
      }
    } else if ('key' in action) {
      // A response or an error written (the only actions with one key).
      this.of(action.key).lastUsed = this.now();
    } else if (type === 'hydrate') {
      this.used(action.state);
    }
  }

  /** A restored response is as good as new: its keys count as used now (GC gives them time). */
  used(state: StoreState): void {
    const now = this.now();
    for (const key of storedKeys(state)) this.of(key).lastUsed = now;
  }
}
