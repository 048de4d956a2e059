/**
 * One reader of one read: what it shows (a status, the data or the error), when it fetches, and
 * when it must be told. Framework adapters (the Lit `ResourceController`) only connect it to a
 * host; the read policy lives here, DOM-free.
 */
import { isAbortError } from '../protocol/error-policy.js';
import { ExpiryStatus } from '../protocol/types.js';
import type {
  ControllerLike,
  EndpointLike,
  Held,
  Resolved,
  ResponseInfo,
} from '../protocol/types.js';
import { tellEach } from '../env/subscribable.js';

/** What a reader shows: one of these three. */
export const ReadStatus = {
  /** Nothing to show yet: the data is missing or invalid and is being fetched. */
  Pending: 'pending',
  /** `data` holds the data (possibly stale while it is fetched again). */
  Complete: 'complete',
  /** `error` says why there is nothing to show. */
  Error: 'error',
} as const;
/** One of the values of `ReadStatus`. */
export type ReadStatus = (typeof ReadStatus)[keyof typeof ReadStatus];

/**
 * An observer's result: the same object while nothing in it changed. `T` is what the reader
 * shows (what its `view` makes of the data), `R` the data as read.
 */
export interface ObservedRead<T, R = T> {
  readonly status: ReadStatus;
  /** The data to show: present while `status` is `'complete'`. */
  readonly data: T | undefined;
  /** Why the read failed (also set when stale data is shown but refreshing it failed). */
  readonly error: unknown;
  /** The store's word on the read; undefined when there is no read (null args, bad args). */
  readonly response: ResponseInfo<R> | undefined;
  /**
   * True while `data` is shown though the read has none: what the `view` kept of an earlier
   * read (`keepPrevious`: the last data, while the read of new args loads; a page can dim it).
   */
  readonly previous: boolean;
  /**
   * True while data is shown and a request of the current read is in flight: a refetch, a poll,
   * a revalidation, or the first request of new args under `previous` data.
   */
  readonly refreshing: boolean;
}

/**
 * What a reader shows of its read, given the data as read (undefined while there is none), the
 * result shown so far and the read's error. `keepPrevious` and `select(fn)` of
 * `resource-elements/views` are views; an app that uses none does not bundle them.
 */
export type ReadView<R, T = R> = (
  data: R | undefined,
  last: ObservedRead<T, unknown>,
  error: unknown,
) => T | undefined;

/** How a reader shows its read: the last argument of `ResponseObserver` and `ResourceController`. */
export interface ReadOptions<R, T = R> {
  /** What it shows of the read: `keepPrevious`, `select(fn)`, or a view of your own. */
  readonly view?: ReadView<R, T> | undefined;
}

const NO_READ: ObservedRead<never> = Object.freeze({
  status: ReadStatus.Pending,
  data: undefined,
  error: undefined,
  response: undefined,
  previous: false,
  refreshing: false,
});

/**
 * @example
 * const observer = new ResponseObserver(controller);
 * observer.setRead(TodoResource.get, { id: 1 }); // the arguments of controller.fetch
 * const stop = observer.subscribe(() => console.log(observer.result.status));
 * observer.setRead(TodoResource.get, { id: 2 }); // the request for id 1 is no longer needed
 * stop();
 */
export class ResponseObserver<E extends EndpointLike, T = Resolved<E>> {
  /** The read held; undefined for no read (null args) and for args the endpoint refused. */
  #held: Held<E> | undefined;
  /** The endpoint rejected the args (`{ id: '' }`): shown as the error, nothing is fetched. */
  #argsError: unknown;
  /** Bumped whenever the read changes or the reader leaves: older outcomes are dropped. */
  #call = 0;
  #rejection: unknown;
  /** The call whose fetch is in flight: one update after another must not send it twice. */
  #fetching = -1;
  #result: ObservedRead<T, Resolved<E>> = NO_READ;
  readonly #listeners = new Set<() => void>();
  #unsubscribe: (() => void) | undefined;

  /** Reads nothing until `setRead` names a read. */
  constructor(
    readonly controller: ControllerLike,
    readonly options: ReadOptions<Resolved<E>, T> = {},
  ) {}

  /** What the reader shows now. */
  get result(): ObservedRead<T, Resolved<E>> {
    return this.#result;
  }

  /**
   * Points the reader at `endpoint(...args)`, the arguments `controller.fetch` takes; `null`
   * reads nothing. The same read (same cache key) keeps its state, but takes the newest endpoint
   * object (a hook's new headers); a different one starts over, and the request of the old one is
   * aborted unless someone else needs it. Re-reads the store, and fetches when there is nothing
   * valid to show.
   * @example observer.setRead(TodoResource.get, { id: 2 });
   */
  setRead(endpoint: null): void;
  setRead(endpoint: E, ...args: Parameters<E>): void;
  setRead(endpoint: E | null, ...args: unknown[]): void {
    let held: Held<E> | undefined;
    let argsError: unknown;
    if (endpoint) {
      try {
        held = this.controller.hold(endpoint, ...(args as Parameters<E>));
      } catch (error) {
        argsError = error;
      }
    }
    const previous = this.#held;
    if (held?.key !== previous?.key || argsError !== this.#argsError) {
      this.#held = held;
      this.#argsError = argsError;
      this.#call++;
      this.#rejection = undefined;
      this.#live();
    } else if (held && held.endpoint !== previous!.endpoint) {
      // The same read through a new endpoint object (a hook's new headers): held and subscribed
      // again, so what polls or revalidates the key runs it with the endpoint this reader holds.
      this.#held = held;
      this.#live();
    }
    this.#refresh();
  }

  /**
   * Calls `listener` whenever `result` changes. The first listener makes the read live (kept
   * from GC, polled, fetched when needed); when the last leaves, the read is released.
   * @example const stop = observer.subscribe(() => render(observer.result));
   */
  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    if (this.#listeners.size === 1) {
      this.#live();
      this.#refresh();
    }
    return () => {
      if (!this.#listeners.delete(listener) || this.#listeners.size > 0) return;
      this.#live();
      // What was in flight for this reader is nobody's business now.
      this.#call++;
    };
  }

  /**
   * Fetches the read again, even when it is fresh, and settles once it is answered. Never
   * rejects: a failure shows in `error`. An identical read already in flight (same store key) is
   * joined, not sent twice, as identical GETs in flight share one request. A caller who must not
   * reuse a read in flight (it was sent with an old token, say) invalidates first:
   * `controller.invalidate(endpoint, ...args)` drops the answers of the reads of that key in
   * flight, so the read is sent again.
   * @example html`<button @click=${() => observer.refetch()}>Reload</button>`;
   */
  refetch(): Promise<void> {
    const held = this.#held;
    return held
      ? this.#track(this.controller.fetch(held.endpoint, ...(held.args as Parameters<E>)))
      : Promise.resolve();
  }

  /** The held read changed (given) or could not be read (not given). */
  readonly #onChange = (response?: ResponseInfo<Resolved<E>>): void => {
    const seen = this.#update(response);
    // Also when only the response changed: it may have gone stale.
    this.#fetchIfNeeded();
    if (seen) this.#notify();
  };

  #refresh(): void {
    this.#update();
    this.#fetchIfNeeded();
  }

  /** Re-reads the store (unless given the read); true when what a reader sees changed. */
  #update(response?: ResponseInfo<Resolved<E>>): boolean {
    const previous = this.#result;
    let readError: unknown;
    if (this.#held) {
      try {
        response ??= this.#held.read();
      } catch (error) {
        // The store holds what cannot be read (a constructor that throws, entities nested too
        // deeply): the reader shows why instead of throwing at whoever changed the store.
        readError = error;
      }
      // A new response is the store's newer word on this read: it supersedes our own failure.
      if (response !== previous.response) this.#rejection = undefined;
    }
    const error = this.#argsError ?? readError ?? response?.error ?? this.#rejection;
    const read = response?.expiryStatus !== ExpiryStatus.Invalid ? response?.data : undefined;
    const { view } = this.options;
    const shown = view ? view(read, previous, error) : (read as T | undefined);
    // Asked every time: the Controller tells the holder when it changes.
    const refreshing = !!this.#held?.fetching() && shown !== undefined;
    const kept = read === undefined && shown !== undefined;
    // What a reader sees: the status follows from data and error. A new response alone (its
    // expiry moved: a poll or refetch of the same data) is taken in, but nobody is told.
    const seen =
      previous.data !== shown ||
      previous.error !== error ||
      previous.refreshing !== refreshing ||
      previous.previous !== kept;
    if (!seen && previous.response === response) return false;
    this.#result = {
      status:
        shown !== undefined
          ? ReadStatus.Complete
          : error !== undefined
            ? ReadStatus.Error
            : ReadStatus.Pending,
      data: shown,
      error,
      response,
      previous: kept,
      refreshing,
    };
    return seen;
  }

  /**
   * While live, fetches when there is nothing valid to show. While an error is fresh, fetching
   * again on every update would storm the server: the error shows until it expires in the
   * store, the read changes, or `refetch()` is called.
   */
  #fetchIfNeeded(): void {
    const { response, error } = this.#result;
    // A response is there only while there is a read.
    if (
      this.#listeners.size === 0 ||
      !response ||
      response.expiryStatus === ExpiryStatus.Valid ||
      error !== undefined ||
      this.#fetching === this.#call
    ) {
      return;
    }
    const pending = this.#held!.fetchIfStale();
    if (!pending) return;
    const call = (this.#fetching = this.#call);
    // Settled: look again, in case its answer was dropped (a reset while it ran) or aborted.
    void this.#track(pending).then(() => {
      if (this.#fetching !== call) return;
      this.#fetching = -1;
      this.#fetchIfNeeded();
    });
  }

  /**
   * Settles a fetch of the current read; an outcome for a read no longer shown is dropped, and so
   * is a failure the store did not keep after it spoke on the read since the request started (a
   * newer answer, a reset): that failure is outdated, the store's word stands.
   */
  #track(request: Promise<unknown>): Promise<void> {
    const call = this.#call;
    const since = this.#result.response;
    return request.then(
      () => {
        if (call === this.#call) this.#rejection = undefined;
      },
      (error: unknown) => {
        if (call !== this.#call || isAbortError(error)) return;
        let changed = this.#update();
        if (this.#result.response === since) {
          this.#rejection = error;
          changed = this.#update() || changed;
        }
        if (changed) this.#notify();
      },
    );
  }

  /** Subscribes to the current read while someone listens, and to nothing else. */
  #live(): void {
    const previous = this.#unsubscribe;
    // The new interest before the old one ends: a key read on keeps its polling timer.
    this.#unsubscribe =
      this.#listeners.size > 0 ? this.#held?.subscribe(this.#onChange) : undefined;
    previous?.();
  }

  #notify(): void {
    tellEach(this.#listeners, (listener) => listener());
  }
}
