/**
 * The requests in flight: their order, which identical GETs share one, and one AbortController
 * each, so a request nobody needs any more is cancelled instead of finishing for nothing.
 */
import type { EndpointLike } from '../protocol/types.js';

/** One running request. */
export interface Request {
  /** Start order: larger is newer. Orders responses independently of the clock's resolution. */
  readonly seq: number;
  /** When it started, strictly after every earlier request (ties broken below a millisecond). */
  /** When it was sent (`RunContext.sending` moves it): its answer is as old as that. */
  startedAt: number;
  readonly endpoint: EndpointLike;
  readonly args: readonly unknown[];
  /** The key the response is stored under, and the args it is normalized with. */
  readonly key: string;
  readonly normalizeArgs: readonly unknown[];
  /** The dedupe key of a GET (the endpoint's own key, pagination field included). */
  readonly requestKey: string;
  /** True when it has an optimistic entry (its id is `seq`). */
  readonly optimistic: boolean;
  readonly abort: AbortController;
  /** True once a caller awaits it (`fetch`, `refetch`): then only the caller may give it up. */
  awaited: boolean;
  promise?: Promise<unknown>;
}

/** What a new request needs to be tracked. */
export type RequestInit = Omit<Request, 'seq' | 'startedAt' | 'abort' | 'promise'>;

/**
 * @example
 * const request = tracker.start({ endpoint, args, key, normalizeArgs, requestKey, awaited: true, optimistic: undefined });
 * tracker.settle(request);
 */
export class RequestTracker {
  #seq = 0;
  /** Requests with a smaller seq were started before the last reset. */
  #resetSeq = 0;
  #lastStart = -Infinity;
  /** GETs in flight by request key, so identical ones share one request. */
  readonly #shared = new Map<string, Request>();
  readonly #running = new Set<Request>();

  readonly #now: () => number;

  constructor(now: () => number) {
    this.#now = now;
  }

  /** Requests started and not settled. */
  get size(): number {
    return this.#running.size;
  }

  /** The requests started and not settled, oldest first. */
  running(): Iterable<Request> {
    return this.#running;
  }

  /** A sequence number for a write that is not a request (`setResponse`). */
  nextSeq(): number {
    return ++this.#seq;
  }

  /**
   * A time strictly after every earlier one handed out: two requests started in the same
   * millisecond still order (the normalizer keeps the entity values of the later one).
   */
  stamp(): number {
    const now = this.#now();
    this.#lastStart = now > this.#lastStart ? now : this.#lastStart + 0.001;
    return this.#lastStart;
  }

  /** The GET in flight with this request key that a new identical read may join. */
  shared(requestKey: string): Request | undefined {
    return this.#shared.get(requestKey);
  }

  start(init: RequestInit): Request {
    const request: Request = {
      ...init,
      seq: ++this.#seq,
      startedAt: this.stamp(),
      abort: new AbortController(),
    };
    this.#running.add(request);
    if (!request.endpoint.sideEffect) this.#shared.set(request.requestKey, request);
    return request;
  }

  settle(request: Request): void {
    this.#running.delete(request);
    if (this.#shared.get(request.requestKey) === request) this.#shared.delete(request.requestKey);
  }

  /** True when the request started before the last reset: its outcome belongs to no one. */
  beforeReset(request: Request): boolean {
    return request.seq < this.#resetSeq;
  }

  /**
   * Everything started so far is from before the reset: new reads do not join it, and reads
   * nobody awaits are aborted (their answer would be dropped anyway). Awaited requests and
   * mutations run on: a caller waits for them, and a sent mutation is not undone by an abort.
   */
  reset(): void {
    this.#resetSeq = ++this.#seq;
    this.#shared.clear();
    for (const request of this.#running) {
      if (!request.awaited && !request.endpoint.sideEffect) request.abort.abort();
    }
  }

  /**
   * Aborts the reads of `key` that nobody awaits: called when its last subscriber left. With
   * `outdated` (the key was invalidated), the awaited ones run on but are not joined any more.
   */
  abortUnneeded(key: string, outdated = false): void {
    for (const request of this.#running) {
      if (request.key !== key || request.endpoint.sideEffect || (request.awaited && !outdated)) {
        continue;
      }
      // An aborted or outdated read is nobody's to join.
      if (this.#shared.get(request.requestKey) === request) this.#shared.delete(request.requestKey);
      if (!request.awaited) request.abort.abort();
    }
  }
}
