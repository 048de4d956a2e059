/** The Controller's public types: its options, its counts, its records and its requests. */
import type { Timers } from '../env/timers.js';
import type { EndpointLike, RetryOption } from '../protocol/types.js';
import type { StoreState } from '../store/state.js';
import type { Manager } from './manager.js';

/** Options of `new Controller()`. */
export interface ControllerOptions {
  /** The fetch endpoints run with; endpoints use `globalThis.fetch` when this is not given. */
  fetch?: typeof globalThis.fetch;
  /** The clock, in ms. Defaults to `Date.now`. */
  now?: () => number;
  /** Timer functions. Default: the host's. */
  timers?: Timers;
  /** A state from `getState()` or `dehydrate()` (possibly through JSON), e.g. rendered on a server. */
  initialState?: Partial<StoreState>;
  /**
   * How long (ms) a response nobody subscribes to is kept; then it is dropped, and so are the
   * entities nothing references any more. Default 5 minutes; `Infinity` keeps everything.
   */
  gcTime?: number;
  /** Managers attached after the built-in ones (polling, revalidation, garbage collection). */
  managers?: readonly Manager[];
  /**
   * Retries of a failed read whose endpoint sets no `retry`: a count (default 2, so three
   * attempts) or a function `(failures, error) => boolean | delayMs`. `0` turns retries off, e.g.
   * in tests of error states. Mutations retry only when their own endpoint says so.
   */
  retry?: RetryOption;
}

/** Counts of live resources, for tests and debugging. */
export interface ControllerStats {
  /** Active `subscribe()` calls. */
  readonly subscriptions: number;
  /** Pending timers: polling, garbage collection, request timeouts. */
  readonly timers: number;
  /** Store listeners (`addListener`). */
  readonly listeners: number;
  /** Requests started and not settled. */
  readonly inFlight: number;
}

/** What the Controller knows of one store key, as `reads()` lists it. */
export interface ReadRecord {
  /** The store key: method and URL with the query sorted. */
  readonly key: string;
  /** Active `subscribe()` calls for it. */
  readonly subscribers: number;
  /** Its requests started and not settled. */
  readonly inFlight: number;
  /** When it was last written, restored, or left by its last subscriber and request; 0: never. */
  readonly lastUsed: number;
  /** The endpoint and args it was last subscribed to or requested with: how to read it again. */
  readonly shown?: { readonly endpoint: EndpointLike; readonly args: readonly unknown[] };
}

/** A request in flight, as `inFlight()` lists it. */
export interface InFlightRequest {
  /** The same id as its `request` events. */
  readonly id: number;
  readonly endpoint: EndpointLike;
  readonly args: readonly unknown[];
  /** The store key its response lands on. */
  readonly key: string;
  /** When it was sent; Infinity while it waits to be (a queued mutation, a wait between tries). */
  readonly startedAt: number;
}
